#!/usr/bin/env bash
# bench.sh — time `agc-sarif collect` against the cost of merely reading the bytes
# (`LC_ALL=C grep -c PATTERN`) and against what a user would script (jq), and the recorders against
# `sh -c true`, in alternating runs, and print one Markdown table for docs/performance.md.
#
#   scripts/bench.sh [MODE...]          MODE: transcript stream-json hook-log agc files record shapes big
#                                       (default: all)
#   scripts/bench.sh --go [OLD.txt]     Go benchmarks of the readers; benchstat against OLD.txt
#   BENCH_SMOKE=1 scripts/bench.sh      every mode at a tiny size, one pair: checks the script works
#                                       (seconds; its numbers mean nothing)
#
# Corpora (agc-corpus, generated once per run, or kept with BENCH_CACHE):
#   transcript   BENCH_TRANSCRIPT_SIZE (1GiB) as 4 files of a quarter each, seeds 1–4, read at once
#   stream-json  BENCH_STREAM_SIZE (512MiB), seed 1
#   hook-log     BENCH_HOOKLOG_SIZE (512MiB), seed 1
#   agc          BENCH_AGC_N (25000) AGC responses: `agc-corpus -kind agc` cut to that many lines,
#                with the files their findings point at, so that every finding is anchored
#   files        the first BENCH_FILES_N (10000) lines of the agc corpus, each in a file of its own
#                under one folder, against the same lines in one file: memory and wall time must
#                not grow with the number of files (rows "N files" and "the same in one file")
#   shapes       for each shape in BENCH_SHAPES ("short short-dense short-sparse sessions") and each
#                of transcript, stream-json and hook-log, BENCH_SHAPE_SIZE (512MiB) of that shape
#                (`agc-corpus -shape`, seed 1); "sessions" is the short shape as files of
#                BENCH_SESSION_SIZE (4MiB) each, seeds 1…N, one per session. No jq. Each row is
#                against `grep -c` of a pattern in every hook record (ToolUse: in transcripts and
#                stream-json, hook_ in hook logs); the worst shape is printed last.
#   big          one 50 MB AGC response on one line (a 50 MB message), one 50 MB hook-log line
#                (a 50 MB tool_response string), and one whose 50 MB are two million short
#                strings (a file list): peak RSS is the figure.
# Each corpus lies inside the --root given to collect (anchoring may read it again, as in a real
# checkout). Per corpus, BENCH_PAIRS (5) rounds of: collect, then `grep -c` (its output goes to a
# file: GNU grep stops at the first match when stdout is /dev/null), then jq in the first
# BENCH_JQ_RUNS (3) rounds (BENCH_NO_JQ=1: none). Medians with min–max; the ratio to grep is the
# median of the per-round ratios; CPU is user+sys; peak RSS is the largest of collect's runs.
#
# record: BENCH_PAIRS rounds of `sh -c true`, `agc-record -- true`, `agc-sarif record -- true`, a
# bare Go exec wrapper (syscall.ForkExec + wait: the floor for a Go wrapper), the same with the
# hook's three streams through pipes (os/exec: the floor for a Go recorder), `agc-sarif --version`
# (its start-up alone) and, with gcc, a static C posix_spawn wrapper, each BENCH_CALLS (200) times in a
# loop per sample with a PreToolUse input on stdin; per-call ms, and added = per-round difference.
#
# Environment: BENCH_CACHE=DIR keep corpora in DIR and reuse them; BENCH_KEEP=1 keep the temp dir;
# BENCH_OUT=FILE the raw samples (TSV; default /tmp/agc-bench-<commit>.tsv);
# BENCH_GOTIME=3x BENCH_COUNT=6 BENCH_GO_OUT=FILE for --go.
# Measure on a quiet machine with a warm cache; the table says the load before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C GOFLAGS=${GOFLAGS:--buildvcs=false}

need() { # need CMD PACKAGE: install PACKAGE with apt when CMD is missing
  if [[ $1 == /* && -x $1 ]] || { [[ $1 != /* ]] && command -v "$1" >/dev/null; }; then return; fi
  echo "bench: installing $2" >&2
  local sudo=""
  [[ $(id -u) -ne 0 ]] && sudo=sudo
  $sudo apt-get update -qq >&2 && $sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >&2
}

# size_bytes SIZE: 256MiB → 268435456 (the units agc-corpus -size accepts).
size_bytes() {
  python3 -c "
import re,sys
m=re.fullmatch(r'([0-9.]+)\s*(KiB|MiB|GiB|KB|MB|GB|B)?',sys.argv[1])
u={'KiB':2**10,'MiB':2**20,'GiB':2**30,'KB':1e3,'MB':1e6,'GB':1e9,'B':1,None:1}
print(int(float(m.group(1))*u[m.group(2)]) if m else sys.exit('bench: bad size '+sys.argv[1]))" "$1"
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -n $(git status --porcelain -- . 2>/dev/null | grep -v '^??' || true) ]] && commit="$commit+dirty"

# --- Go benchmarks -----------------------------------------------------------------------------
if [[ ${1:-} == --go ]]; then
  old=${2:-}
  out=${BENCH_GO_OUT:-${TMPDIR:-/tmp}/bench-go-$commit.txt}
  go test ./inputs -run '^$' -bench . -benchtime "${BENCH_GOTIME:-3x}" -count "${BENCH_COUNT:-6}" | tee "$out"
  if ! command -v benchstat >/dev/null; then
    echo "bench: installing benchstat (golang.org/x/perf)" >&2
    GOFLAGS="" go install golang.org/x/perf/cmd/benchstat@latest
    PATH="$PATH:$(go env GOPATH)/bin"
    export PATH
  fi
  if [[ -n $old ]]; then benchstat "$old" "$out"; else benchstat "$out"; fi
  echo "bench: results in $out (pass it as OLD.txt next time)" >&2
  exit 0
fi

all_modes=(transcript stream-json hook-log agc files record shapes big)
modes=("$@")
[[ ${#modes[@]} -eq 0 ]] && modes=("${all_modes[@]}")
for m in "${modes[@]}"; do
  [[ " ${all_modes[*]} " == *" $m "* ]] || { echo "bench: unknown mode $m (want: ${all_modes[*]}, or --go)" >&2; exit 2; }
done

if [[ ${BENCH_SMOKE:-0} == 1 ]]; then
  t_size=4MiB s_size=2MiB h_size=2MiB agc_n=500 files_n=200 pairs=1 jq_runs=1 calls=5
  shape_size=2MiB session_size=512KiB big_bytes=2000000
else
  t_size=${BENCH_TRANSCRIPT_SIZE:-1GiB} s_size=${BENCH_STREAM_SIZE:-512MiB} h_size=${BENCH_HOOKLOG_SIZE:-512MiB}
  agc_n=${BENCH_AGC_N:-25000} files_n=${BENCH_FILES_N:-10000} pairs=${BENCH_PAIRS:-5} jq_runs=${BENCH_JQ_RUNS:-3} calls=${BENCH_CALLS:-200}
  shape_size=${BENCH_SHAPE_SIZE:-512MiB} session_size=${BENCH_SESSION_SIZE:-4MiB} big_bytes=50000000
fi
[[ ${BENCH_NO_JQ:-0} == 1 ]] && jq_runs=0

need /usr/bin/time time
if ((jq_runs > 0)); then
  if [[ ${BENCH_SMOKE:-0} == 1 ]] && ! command -v jq >/dev/null; then jq_runs=0; else need jq jq; fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/agc-bench.XXXXXX")
root=${BENCH_CACHE:-$work/corpus}
mkdir -p "$root" "$work/bin"
root=$(cd "$root" && pwd)
cleanup() {
  if [[ ${BENCH_KEEP:-0} == 1 ]]; then echo "bench: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
samples=$work/samples.tsv
: >"$samples"

bin=$work/bin
# Built as the README's `go install` and the release build them: static, without urfave/cli's
# man-page generator (both start agc-sarif sooner, which `record` pays on every hook call).
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$bin/" ./cmd/agc-sarif ./cmd/agc-corpus ./cmd/agc-record

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# --- corpora ------------------------------------------------------------------------------------
# corpus KIND BYTES SEED [SHAPE]: print the path of that corpus in $root, generating it when missing.
corpus() {
  local shape=${4:-mixed} f="$root/$1-$2-seed$3.jsonl"
  [[ $shape == mixed ]] || f="$root/$1-$shape-$2-seed$3.jsonl"
  if [[ ! -f $f ]]; then
    "$bin/agc-corpus" -kind "$1" -shape "$shape" -size "$2" -seed "$3" -o "$f.tmp" -stats "$f.stats.json" 2>"$work/corpus.err" ||
      { cat "$work/corpus.err" >&2; exit 1; }
    mv "$f.tmp" "$f"
  fi
  echo "$f"
}

# agc_corpus N: print the path of a file of exactly N AGC responses (agc-corpus -kind agc, cut),
# after writing the files their findings point at (corpus.ResponseLocation: 250 lines a file).
agc_corpus() {
  local n=$1 f="$root/agc-$1.jsonl" i
  if [[ ! -f $f ]]; then
    "$bin/agc-corpus" -kind agc -size $((n * 400 + (1 << 20))) -seed 1 -o "$f.all" 2>"$work/corpus.err" ||
      { cat "$work/corpus.err" >&2; exit 1; }
    head -n "$n" "$f.all" >"$f.tmp"
    rm "$f.all"
    mv "$f.tmp" "$f"
  fi
  [[ $(wc -l <"$f") -eq $n ]] || { echo "bench: $f does not hold $n lines" >&2; exit 1; }
  for ((i = 0; i < n; i += 250)); do
    local p="$root/internal/pkg$((i / 250 % 100))/file$((i / 250)).go"
    [[ -f $p ]] && continue
    mkdir -p "$(dirname "$p")"
    printf '\tx := f(y) // some code\n%.0s' {1..250} >"$p"
  done
  echo "$f"
}

# files_corpus N: print the folder holding the first N lines of the agc corpus, one file each.
files_corpus() {
  local n=$1 d="$root/files-$1" f
  if [[ ! -d $d ]]; then
    f=$(agc_corpus "$n")
    mkdir -p "$d.tmp"
    split -l 1 -a 6 -d --additional-suffix=.jsonl "$f" "$d.tmp/r"
    mv "$d.tmp" "$d"
  fi
  echo "$d"
}

# bench_files N: alternating rounds of collect over N one-response files and over the same
# responses in one file.
bench_files() {
  local n=$1 d f r bytes
  d=$(files_corpus "$n")
  f=$(agc_corpus "$n")
  bytes=$(stat -c %s "$f")
  echo "bench: files: $n files against one file of $bytes bytes, $pairs round(s)" >&2
  local many=("$bin/agc-sarif" collect --root "$root" --fail-on none -o "$work/out.sarif" "$d")
  local one=("$bin/agc-sarif" collect --root "$root" --fail-on none -o "$work/out.sarif" "$f")
  if ! "${many[@]}" 2>/dev/null || ! "${one[@]}" 2>/dev/null; then echo "bench: files: collect failed" >&2; exit 1; fi
  for ((r = 1; r <= pairs; r++)); do
    timed files many "$r" "$bytes" "$n" "${many[@]}"
    timed files one "$r" "$bytes" 1 "${one[@]}"
  done
}

# check_disk: the corpora not yet generated must fit, with 1 GiB to spare.
check_disk() {
  local want=0 m
  for m in "${modes[@]}"; do
    case $m in
    transcript) [[ -f "$root/transcript-$((t_bytes / 4))-seed1.jsonl" ]] || want=$((want + t_bytes)) ;;
    stream-json) [[ -f "$root/stream-json-$s_bytes-seed1.jsonl" ]] || want=$((want + s_bytes)) ;;
    hook-log) [[ -f "$root/hook-log-$h_bytes-seed1.jsonl" ]] || want=$((want + h_bytes)) ;;
    shapes) want=$((want + 3 * ${#shapes[@]} * shape_bytes)) ;;
    big) want=$((want + 3 * big_bytes)) ;;
    esac
  done
  local avail=$(($(df -Pk "$root" | awk 'NR==2{print $4}') * 1024))
  if ((want + (1 << 30) > avail)); then
    echo "bench: not enough disk in $root: need $((want >> 20)) MiB + 1 GiB, have $((avail >> 20)) MiB" >&2
    exit 2
  fi
}

# --- timing -------------------------------------------------------------------------------------
# timed MODE TOOL RUN BYTES CALLS CMD...: run CMD once under /usr/bin/time (stdout to a file) and
# append MODE TOOL RUN wall user sys rssKiB BYTES CALLS to $samples: wall from the shell's
# microsecond clock, CPU (10 ms steps) and peak RSS from time. grep may exit 1 (no match).
timed() {
  local mode=$1 tool=$2 run=$3 bytes=$4 n=$5 status=0
  shift 5
  local start=$EPOCHREALTIME
  /usr/bin/time -f '%U %S %M' -o "$work/time.txt" "$@" </dev/null >"$work/$tool.out" 2>"$work/$tool.err" || status=$?
  local end=$EPOCHREALTIME
  if ((status > 1)) || { ((status == 1)) && [[ $tool != grep ]]; }; then
    echo "bench: $mode: $tool exited $status: $*" >&2
    tail -5 "$work/$tool.err" >&2
    exit 1
  fi
  local wall user sys rss
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.6f", b - a}')
  read -r user sys rss < <(tail -1 "$work/time.txt")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$tool" "$run" "$wall" "$user" "$sys" "$rss" "$bytes" "$n" >>"$samples"
}

# bench_corpus MODE PATTERN JQ-FILTER FILE...: alternating rounds of collect, grep -c and
# jq -c FILTER (FILTER may start with "-R ", for input with lines that are not JSON).
bench_corpus() {
  local mode=$1 pattern=$2 filter=$3 r bytes jqargs=(-c) jqr=$jq_runs
  shift 3
  [[ -z $filter ]] && jqr=0
  if [[ $filter == "-R "* ]]; then jqargs+=(-R) filter=${filter#-R }; fi
  bytes=$(stat -c %s "$@" | awk '{n += $1} END {print n}')
  echo "bench: $mode: $# file(s), $bytes bytes, $pairs round(s)" >&2
  printf '%s\t%s\t%s\n' "$mode" "$pattern" "${jqargs[*]} '$filter'" >>"$work/patterns.tsv"
  local collect=("$bin/agc-sarif" collect --root "$root" --fail-on none -o "$work/out.sarif" "$@")
  # Warm the page cache and the binaries; not timed.
  "${collect[@]}" 2>/dev/null || { echo "bench: $mode: collect failed" >&2; exit 1; }
  grep -c "$pattern" "$@" >"$work/grep.out" || true
  for ((r = 1; r <= pairs; r++)); do
    timed "$mode" collect "$r" "$bytes" 1 "${collect[@]}"
    timed "$mode" grep "$r" "$bytes" 1 grep -c "$pattern" "$@"
    if ((r <= jqr)); then timed "$mode" jq "$r" "$bytes" 1 jq "${jqargs[@]}" "$filter" "$@"; fi
  done
}

# bench_record: alternating rounds of CALLS invocations of each recorder and of sh -c true.
bench_record() {
  mkdir -p "$work/gowrap"
  cat >"$work/gowrap/main.go" <<'GO'
// Command gowrap runs its arguments as a command with its own stdin, stdout and stderr, and
// waits for it: the least a Go hook wrapper can cost (no pipes, no signals, no log).
package main

import (
	"os"
	"os/exec"
	"syscall"
)

func main() {
	path, err := exec.LookPath(os.Args[1])
	if err != nil {
		os.Exit(127)
	}
	pid, err := syscall.ForkExec(path, os.Args[1:], &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		os.Exit(126)
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil || ws.ExitStatus() != 0 {
		os.Exit(1)
	}
}
GO
  (cd "$work/gowrap" && go mod init gowrap >/dev/null 2>&1 && CGO_ENABLED=0 go build -trimpath -o "$bin/gowrap" .)
  # The least a Go recorder does: the hook's stdin, stdout and stderr through pipes, read to the
  # end and passed on (a record needs all three), the hook waited for; no signals, no log.
  mkdir -p "$work/gopipes"
  cat >"$work/gopipes/main.go" <<'GO'
// Command gopipes runs its arguments as a command, giving it its stdin through a pipe and
// reading its stdout and stderr through pipes to the end, passing each on: what any Go hook
// recorder must do before it writes a record.
package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
)

func main() {
	in, _ := io.ReadAll(os.Stdin)
	var out, errb bytes.Buffer
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &out, &errb
	err := cmd.Run()
	os.Stdout.Write(out.Bytes())
	os.Stderr.Write(errb.Bytes())
	if err != nil {
		os.Exit(1)
	}
}
GO
  (cd "$work/gopipes" && go mod init gopipes >/dev/null 2>&1 && CGO_ENABLED=0 go build -trimpath -o "$bin/gopipes" .)
  # The same in C (posix_spawn, static): what starting and waiting for a hook costs at all.
  local cwrap=()
  if command -v gcc >/dev/null; then
    printf '%s\n' '#include <spawn.h>' '#include <sys/wait.h>' 'extern char **environ;' \
      'int main(int c, char **v) { pid_t p; int s; if (posix_spawnp(&p, v[1], 0, 0, v + 1, environ)) return 127;' \
      '  if (waitpid(p, &s, 0) < 0) return 1; return WIFEXITED(s) ? WEXITSTATUS(s) : 1; }' >"$work/cwrap.c"
    gcc -O2 -static -o "$bin/cwrap" "$work/cwrap.c" 2>/dev/null && cwrap=("$bin/cwrap" true)
  fi
  printf '%s\n' '{"session_id":"bench","transcript_path":"/tmp/bench.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."}}' >"$work/hook-input.json"
  export AGC_HOOK_LOG=$work/hook-log.jsonl BENCH_IN=$work/hook-input.json
  # shellcheck disable=SC2016 # expanded by the inner bash
  local loop=(bash -c 'n=$1; shift; for ((i = 0; i < n; i++)); do "$@" <"$BENCH_IN" >/dev/null || exit 1; done' loop "$calls")
  echo "bench: record: $pairs round(s) of $calls calls each" >&2
  local r
  # Warm the page cache and the binaries: one untimed call of each.
  "$bin/agc-record" -- true <"$BENCH_IN" && "$bin/agc-sarif" record -- true <"$BENCH_IN" && "$bin/gowrap" true && "$bin/gopipes" true </dev/null
  rm -f "$AGC_HOOK_LOG"
  for ((r = 1; r <= pairs; r++)); do
    timed record sh "$r" 0 "$calls" "${loop[@]}" sh -c true
    timed record agc-record "$r" 0 "$calls" "${loop[@]}" "$bin/agc-record" -- true
    timed record agc-sarif-record "$r" 0 "$calls" "${loop[@]}" "$bin/agc-sarif" record -- true
    timed record go-exec "$r" 0 "$calls" "${loop[@]}" "$bin/gowrap" true
    timed record go-pipes "$r" 0 "$calls" "${loop[@]}" "$bin/gopipes" true
    timed record agc-sarif-start "$r" 0 "$calls" "${loop[@]}" "$bin/agc-sarif" --version
    if ((${#cwrap[@]})); then timed record c-spawn "$r" 0 "$calls" "${loop[@]}" "${cwrap[@]}"; fi
    # Both recorders must have written a record a call: a recorder that does nothing is fast.
    [[ $(wc -l <"$AGC_HOOK_LOG") -eq $((2 * calls)) ]] ||
      { echo "bench: record: $AGC_HOOK_LOG holds $(wc -l <"$AGC_HOOK_LOG") records, want $((2 * calls))" >&2; exit 1; }
    rm -f "$AGC_HOOK_LOG"
  done
}

# bench_shapes: each shape of BENCH_SHAPES as a transcript, stream-json and hook log.
bench_shapes() {
  local sh k n seed pattern files
  for sh in "${shapes[@]}"; do
    for k in transcript stream-json hook-log; do
      pattern=ToolUse:
      [[ $k == hook-log ]] && pattern=hook_
      files=()
      if [[ $sh == sessions ]]; then
        n=$(((shape_bytes + session_bytes - 1) / session_bytes))
        for ((seed = 1; seed <= n; seed++)); do files+=("$(corpus "$k" "$session_bytes" "$seed" short)"); done
      else
        files+=("$(corpus "$k" "$shape_bytes" 1 "$sh")")
      fi
      bench_corpus "shape:$sh:$k" "$pattern" "" "${files[@]}"
    done
  done
}

# bench_big: one 50 MB AGC response (its message) and one 50 MB hook-log line (its tool_response).
bench_big() {
  local a="$root/big-agc-$big_bytes.jsonl" h="$root/big-hook-log-$big_bytes.jsonl"
  if [[ ! -f $a ]]; then
    { printf '%s' '{"agc":"0.1","gate":{"id":"review","kind":"judgment"},"verdict":"steer","findings":[{"rule":"long","message":"'
      head -c "$big_bytes" /dev/zero | tr '\0' x
      printf '%s\n' '","location":{"path":"a.go","line":1}}]}'; } >"$a"
  fi
  if [[ ! -f $h ]]; then
    local agc='{\"agc\":\"0.1\",\"gate\":{\"id\":\"guard\",\"kind\":\"runtime\"},\"verdict\":\"steer\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}'
    { printf '%s' '{"time":"2026-11-02T09:00:00Z","runtime":"claude-code","command":["/bin/sh","-c","guard"],"input":{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"'
      head -c "$big_bytes" /dev/zero | tr '\0' y
      printf '%s\n' '"},"tool_use_id":"t"},"exit_code":0,"stdout":"'"$agc"'","stderr":"","duration_ms":1}'; } >"$h"
  fi
  # The same hook-log line, its 50 MB made of two million short strings (a Glob's file list).
  local l="$root/big-hook-list-$big_bytes.jsonl" n=$((big_bytes / 25))
  if [[ ! -f $l ]]; then
    local tpl
    tpl=$(sed 's/"tool_response":{"stdout":"y*"}/"tool_response":{"filenames":[@@]}/' "$h")
    { printf '%s' "${tpl%%@@*}"
      printf '"src/pkg/file%010d.go"' 0
      seq -f ',"src/pkg/file%010g.go"' 1 "$n" | tr -d '\n'
      printf '%s\n' "${tpl#*@@}"; } >"$l"
  fi
  bench_corpus big:agc '"verdict"' "" "$a"
  bench_corpus big:hook-log hook_ "" "$h"
  bench_corpus big:hook-log-list hook_ "" "$l"
}

t_bytes=$(size_bytes "$t_size") s_bytes=$(size_bytes "$s_size") h_bytes=$(size_bytes "$h_size")
shape_bytes=$(size_bytes "$shape_size") session_bytes=$(size_bytes "$session_size")
read -r -a shapes <<<"${BENCH_SHAPES:-short short-dense short-sparse sessions}"
check_disk
for m in "${modes[@]}"; do
  case $m in
  transcript)
    files=()
    for seed in 1 2 3 4; do files+=("$(corpus transcript $((t_bytes / 4)) "$seed")"); done
    bench_corpus transcript hook_ 'select(.type=="attachment")' "${files[@]}"
    ;;
  stream-json)
    f=$(corpus stream-json "$s_bytes" 1)
    bench_corpus stream-json hook_ 'select(.type=="system")' "$f"
    ;;
  hook-log)
    f=$(corpus hook-log "$h_bytes" 1)
    bench_corpus hook-log hook_ 'select(.input.hook_event_name=="PreToolUse")' "$f"
    ;;
  agc)
    f=$(agc_corpus "$agc_n")
    bench_corpus agc '"verdict"' '-R fromjson? | select(.verdict!="pass")' "$f"
    ;;
  files) bench_files "$files_n" ;;
  record) bench_record ;;
  shapes) bench_shapes ;;
  big) bench_big ;;
  esac
done

# --- the table ----------------------------------------------------------------------------------
out=${BENCH_OUT:-${TMPDIR:-/tmp}/agc-bench-$commit.tsv}
cp "$samples" "$out"
smoke_note=""
[[ ${BENCH_SMOKE:-0} == 1 ]] && smoke_note="; BENCH_SMOKE: tiny sizes, numbers meaningless"
cpu_model=$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)
machine="$(nproc) cores (${cpu_model:-$(uname -m)}), $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), Linux $(uname -r)"
versions="$(go version | awk '{print $3}'), $(grep --version | head -1)"
if ((jq_runs > 0)); then versions+=", $(jq --version)"; fi
echo
echo "Commit $commit, $(date -u +%Y-%m-%dT%H:%MZ); $machine; load $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after; $versions." \
  "Warm cache, $pairs alternating round(s) per row, medians (min–max)${smoke_note}."
echo
touch "$work/patterns.tsv"
python3 - "$samples" "$work/patterns.tsv" "$agc_n" "$files_n" <<'PY'
import csv, statistics as st, sys
samples, patterns, agc_n, files_n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tsv = lambda f: csv.reader(open(f), delimiter="\t", quoting=csv.QUOTE_NONE)
rows = list(tsv(samples))
pats = {r[0]: (r[1], r[2]) for r in tsv(patterns)}
by = {}
for mode, tool, run, wall, user, sys_, rss, nbytes, calls in rows:
    by.setdefault((mode, tool), []).append(dict(run=int(run), wall=float(wall), cpu=float(user) + float(sys_),
                                                 rss=int(rss) / 1024, bytes=int(nbytes), calls=int(calls)))

def spread(xs, fmt):
    xs = sorted(xs)
    return fmt(st.median(xs)) if len(xs) == 1 else f"{fmt(st.median(xs))} ({fmt(xs[0])}–{fmt(xs[-1])})"

def secs(x): return f"{x:.2f} s" if x < 10 else f"{x:.1f} s"
def ms(x): return f"{x:.2f} ms"
def added(x): return f"{x:+.2f} ms"
def times(x): return f"{x:.2f}×"
def per_round(a, b, op):
    bb = {s["run"]: s for s in b}
    return [op(s, bb[s["run"]]) for s in a if s["run"] in bb]

def size(b):
    for unit, n in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= n: return f"{b / n:.3g} {unit}"
    return f"{b} B"

label = {"transcript": lambda b: f"{size(b)} of transcripts (4 files, seeds 1–4)",
         "stream-json": lambda b: f"{size(b)} stream-json (seed 1)",
         "hook-log": lambda b: f"{size(b)} hook log (seed 1)",
         "agc": lambda b: f"{agc_n:,} AGC responses ({size(b)})"}
def row(*cells): print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
row("work", "agc-sarif", "reference", "ratio or added", "jq", "CPU (user+sys)", "CPU per GiB", "peak RSS")
print("|---|---|---|---|---|---|---|---|")
shape_modes = [m for m in dict.fromkeys(r[0] for r in rows) if m.startswith(("shape:", "big:"))]
for m in shape_modes:
    _, sh, kind = m.split(":", 2) if m.startswith("shape:") else (None, None, m[4:])
    if sh == "sessions":
        label[m] = lambda b, sh=sh, kind=kind: f"{size(b)} {kind}, shape sessions (short, one file per session)"
    elif sh:
        label[m] = lambda b, sh=sh, kind=kind: f"{size(b)} {kind}, shape {sh}"
    else:
        label[m] = lambda b, kind=kind: f"one {size(b)} line ({kind})"
worst = None
for mode in ("transcript", "stream-json", "hook-log", "agc", *shape_modes):
    c, g, j = by.get((mode, "collect")), by.get((mode, "grep")), by.get((mode, "jq"), [])
    if not c: continue
    wall = lambda ss: [s["wall"] for s in ss]
    cpu = st.median(s["cpu"] for s in c)
    pat, flt = pats[mode]
    jq = "–"
    if j:
        jq = f"`jq {flt}` {spread(wall(j), secs)}, {st.median(wall(j)) / st.median(wall(c)):.2g}× collect"
    row(label[mode](c[0]["bytes"]), spread(wall(c), secs), f"`grep -c {pat}` {spread(wall(g), secs)}",
        spread(per_round(c, g, lambda a, b: a["wall"] / b["wall"]), times), jq,
        spread([s["cpu"] for s in c], secs), secs(cpu / (c[0]["bytes"] / 2**30)),
        f"{max(s['rss'] for s in c):.0f} MiB")
    if mode.startswith("shape:"):
        ratio = st.median(per_round(c, g, lambda a, b: a["wall"] / b["wall"]))
        per_gib = cpu / (c[0]["bytes"] / 2**30)
        if worst is None or ratio > worst[1]:
            worst = (mode, ratio, per_gib, max(s["rss"] for s in c))
if worst:
    print(f"\nWorst shape: {worst[0][6:]}, {worst[1]:.2f}× grep, {worst[2]:.2f} s CPU per GiB, {worst[3]:.0f} MiB peak RSS.")
many, one = by.get(("files", "many")), by.get(("files", "one"))
if many and one:
    wall = lambda ss: [s["wall"] for s in ss]
    row(f"{files_n:,} AGC responses, one file each", spread(wall(many), secs),
        f"the same in one file ({size(one[0]['bytes'])}) {spread(wall(one), secs)}",
        spread(per_round(many, one, lambda a, b: a["wall"] / b["wall"]), times) + " (target ≤ 2×)", "–",
        spread([s["cpu"] for s in many], secs), "–",
        f"{max(s['rss'] for s in many):.0f} MiB (one file: {max(s['rss'] for s in one):.0f} MiB; target < 64 MiB)")
names = {"agc-record": "`agc-record -- true`", "agc-sarif-record": "`agc-sarif record -- true`",
         "go-exec": "bare Go exec wrapper (syscall.ForkExec, no pipes, no signals, no log)",
         "go-pipes": "Go wrapper that pipes the hook's stdin, stdout and stderr (os/exec; what a recorder must do, no signals, no log)",
         "c-spawn": "bare C wrapper (posix_spawn, static)",
         "agc-sarif-start": "`agc-sarif --version` (start-up alone, no hook)"}
ref = by.get(("record", "sh"))
call = lambda s: s["wall"] / s["calls"] * 1000
for tool, name in names.items():
    rs = by.get(("record", tool))
    if not rs: continue
    row(f"{name}, per call ({rs[0]['calls']} a sample)", spread([call(s) for s in rs], ms),
        f"`sh -c true` {spread([call(s) for s in ref], ms)}",
        spread(per_round(rs, ref, lambda a, b: call(a) - call(b)), added), "–",
        spread([s["cpu"] / s["calls"] * 1000 for s in rs], ms) + " a call", "–",
        f"{max(s['rss'] for s in rs):.0f} MiB")
PY
echo
echo "bench: raw samples (mode tool round wall user sys rssKiB bytes calls) in $out" >&2
