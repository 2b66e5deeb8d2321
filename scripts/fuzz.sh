#!/usr/bin/env bash
# fuzz.sh: run every parser's fuzz target for a while, one after another, and log the outcome.
#
# usage: scripts/fuzz.sh [-t DURATION] [-p PARALLEL] [TARGET...]
#   TARGET  pkg:FuzzName (default: every parser target listed below)
#   -t      per-target time, as go test -fuzztime takes it (default 10m)
#   -p      fuzzing workers per target (default 1, so two runs can share a 2-core machine)
# Interesting inputs that go test -fuzz finds are kept in the package's testdata/fuzz/<Target>/
# only when they fail; the seed corpora there run in every plain `go test`.
# The log (one line per target: name, time, execs, result) goes to stdout.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
time=10m par=1
while getopts t:p: o; do
  case $o in t) time=$OPTARG ;; p) par=$OPTARG ;; *) sed -n 2,10p "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(
    ./inputs:FuzzScanRecords ./inputs:FuzzAGCReader ./inputs:FuzzHookLog ./inputs:FuzzTranscript
    ./inputs:FuzzStreamJSON ./gates:FuzzDecode ./gates:FuzzParseText ./gates:FuzzParseJudgment
    ./gates:FuzzCheckClaudeHook ./sarif:FuzzLineHashes ./difffilter:FuzzParse ./anchor:FuzzPath
    ./internal/jsonscan:FuzzScan
  )
fi
status=0
for t in "${targets[@]}"; do
  pkg=${t%%:*} name=${t##*:}
  log=$(mktemp)
  start=$(date +%s)
  go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$time" -parallel "$par" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  if ((rc == 0)); then result=ok; else result=FAIL; status=1; fi
  printf '%s %s %ss execs=%s %s\n' "$(date -u +%FT%TZ)" "$t" "$secs" "${execs:-?}" "$result"
  ((rc == 0)) || tail -30 "$log"
  rm -f "$log"
done
exit $status
