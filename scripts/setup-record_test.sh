#!/usr/bin/env bash
# Test of setup-record/install.sh (the composite action's step) against a fake release served on
# the loopback: the binary is installed and its folder added to GITHUB_PATH when its SHA-256 is
# the one in checksums.txt; a tampered binary, a missing checksum line and a bad version are
# refused and nothing is installed. CI runs this.
# usage: scripts/setup-record_test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
srvpid=
cleanup() { [[ -n $srvpid ]] && kill "$srvpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fails=0
fail() { echo "setup-record_test: FAIL: $*" >&2; fails=$((fails + 1)); }

case $(uname -m) in x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "setup-record_test: unsupported $(uname -m)"; exit 2 ;; esac
asset=agc-record_linux_$arch
rel=$work/releases
mkdir -p "$rel/download/v9.9.9" "$rel/download/v9.9.8" "$rel/download/v9.9.7"
CGO_ENABLED=0 go build -o "$rel/download/v9.9.9/$asset" ./cmd/agc-record
(cd "$rel/download/v9.9.9" && sha256sum "$asset" >checksums.txt && echo "0000000000000000000000000000000000000000000000000000000000000000  agc-sarif_9.9.9_linux_$arch.tar.gz" >>checksums.txt)
# v9.9.8: the binary was changed after the checksums were made; v9.9.7: no line for it
cp "$rel/download/v9.9.9/$asset" "$rel/download/v9.9.8/$asset"
cp "$rel/download/v9.9.9/checksums.txt" "$rel/download/v9.9.8/"
printf 'tampered' >>"$rel/download/v9.9.8/$asset"
cp "$rel/download/v9.9.9/$asset" "$rel/download/v9.9.7/$asset"
grep -v " $asset\$" "$rel/download/v9.9.9/checksums.txt" >"$rel/download/v9.9.7/checksums.txt"

port=$((20000 + RANDOM % 20000))
(cd "$work" && exec python3 -m http.server --bind 127.0.0.1 "$port") >"$work/http.log" 2>&1 &
srvpid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done

# run VERSION: install.sh as the action runs it; sets OUT (stdout+stderr), STATUS, TOOLS, PATHFILE
# and OUTFILE (GITHUB_OUTPUT), each run in folders of its own
runs=0
run() {
  runs=$((runs + 1))
  TOOLS=$work/tools-$runs
  PATHFILE=$work/path-$runs
  OUTFILE=$work/out-$runs
  : >"$PATHFILE"
  : >"$OUTFILE"
  STATUS=0
  OUT=$(env RUNNER_TOOL_CACHE="$TOOLS" GITHUB_PATH="$PATHFILE" GITHUB_OUTPUT="$OUTFILE" \
    AGC_VERSION="$1" AGC_METHOD=release AGC_REPOSITORY=agc-sarif/agc-sarif \
    AGC_DOWNLOAD_URL="http://127.0.0.1:$port/releases" bash setup-record/install.sh 2>&1) || STATUS=$?
}

run v9.9.9
[[ $STATUS == 0 ]] || fail "v9.9.9 not installed: $OUT"
[[ -x $TOOLS/agc-record/v9.9.9/bin/agc-record ]] || fail "no agc-record in the tool cache"
grep -qx "$TOOLS/agc-record/v9.9.9/bin" "$PATHFILE" || fail "GITHUB_PATH lacks the tool folder: $(cat "$PATHFILE")"
grep -q "^path=$TOOLS/agc-record/v9.9.9/bin/agc-record\$" "$OUTFILE" || fail "no path output"
# the installed recorder works: a hook run through it leaves a record
log=$work/hook-log.jsonl
echo '{"hook_event_name":"PreToolUse","tool_name":"Bash"}' |
  "$TOOLS/agc-record/v9.9.9/bin/agc-record" --log "$log" -- sh -c 'exit 0' || fail "the installed agc-record failed"
[[ -s $log ]] || fail "the installed agc-record wrote no record"

run v9.9.8
[[ $STATUS != 0 && $OUT == *"SHA-256"*"not installed"* ]] || fail "a tampered binary was not refused: $STATUS $OUT"
[[ ! -e $TOOLS/agc-record/v9.9.8/bin/agc-record && ! -s $PATHFILE ]] || fail "a tampered binary was installed"

run v9.9.7
[[ $STATUS != 0 && $OUT == *"lists no SHA-256"* ]] || fail "a binary without a checksum was not refused: $STATUS $OUT"
[[ ! -e $TOOLS/agc-record/v9.9.7/bin/agc-record ]] || fail "a binary without a checksum was installed"

run 'v1;echo pwned'
[[ $STATUS != 0 && $OUT == *"want latest or a release tag"* ]] || fail "a bad version was not refused: $OUT"

run v9.9.6
[[ $STATUS != 0 && $OUT == *"could not download"* ]] || fail "a missing release did not fail: $OUT"

if ((fails)); then echo "setup-record_test: $fails failures" >&2; exit 1; fi
echo "setup-record_test: ok"
