#!/usr/bin/env bash
# bench.sh — time `agc-sarif collect` against the cost of merely reading the bytes
# (`LC_ALL=C grep -c hook_`) and against what a user would script (`jq -c 'select(.type=="attachment")'`)
# on the same generated corpus, in one run, and print a Markdown table for the README.
#
#   scripts/bench.sh [SIZE...]          default: 256MiB 1GiB 2GiB
#   scripts/bench.sh --go [OLD.txt]     Go benchmarks of the readers and collect; benchstat against OLD.txt
#
# Environment:
#   BENCH_KIND=transcript   corpus kind (transcript, stream-json, hook-log, agc)
#   BENCH_SEED=1            corpus seed
#   BENCH_RUNS=1            runs per command and size; the fastest wall and CPU time and the largest
#                           RSS are reported (other load only ever slows a run down)
#   BENCH_CACHE=DIR         keep corpora in DIR and reuse them (else a temp dir, deleted at the end)
#   BENCH_KEEP=1            keep the temp dir
#   BENCH_NO_JQ=1           skip jq (it is slow on big corpora)
#   BENCH_GOTIME=3x BENCH_COUNT=6 BENCH_GO_OUT=FILE   for --go (default FILE: /tmp/bench-go-<commit>.txt)
# Targets (1 GiB, warm cache, 2 cores): collect ≤ 3× grep; ≥ 5× faster than jq; peak RSS < 100 MiB;
# seconds per GiB within 20% across sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C GOFLAGS=${GOFLAGS:--buildvcs=false}

need() { # need CMD PACKAGE: install PACKAGE with apt when CMD is missing
  if [[ $1 == /* && -x $1 ]] || { [[ $1 != /* ]] && command -v "$1" >/dev/null; }; then return; fi
  echo "bench: installing $2" >&2
  local sudo=""; [[ $(id -u) -ne 0 ]] && sudo=sudo
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
    PATH="$PATH:$(go env GOPATH)/bin"; export PATH
  fi
  if [[ -n $old ]]; then benchstat "$old" "$out"; else benchstat "$out"; fi
  echo "bench: results in $out (pass it as OLD.txt next time)" >&2
  exit 0
fi

sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(256MiB 1GiB 2GiB)
kind=${BENCH_KIND:-transcript}
seed=${BENCH_SEED:-1}
runs=${BENCH_RUNS:-1}

need jq jq
need /usr/bin/time time

work=$(mktemp -d "${TMPDIR:-/tmp}/agc-bench.XXXXXX")
cache=${BENCH_CACHE:-$work/corpus}
mkdir -p "$cache"
cleanup() {
  if [[ ${BENCH_KEEP:-0} == 1 ]]; then echo "bench: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

go build -o "$work/agc-sarif" ./cmd/agc-sarif
go build -o "$work/agc-corpus" ./cmd/agc-corpus

# Disk: every corpus not yet cached must fit, with 1 GiB to spare.
want=0
for s in "${sizes[@]}"; do
  f="$cache/$kind-$s-seed$seed.jsonl"
  [[ -f $f ]] && continue
  n=$(size_bytes "$s")
  want=$((want + n))
done
df -h "$cache" >&2
avail=$(( $(df -Pk "$cache" | awk 'NR==2{print $4}') * 1024 ))
if (( want + (1 << 30) > avail )); then
  echo "bench: not enough disk in $cache: need $((want >> 20)) MiB + 1 GiB, have $((avail >> 20)) MiB" >&2
  exit 2
fi

# measure NAME CMD...: run CMD BENCH_RUNS times under /usr/bin/time -v; sets SECS (fastest wall
# time), CPU (least user+system seconds), RSS_MIB (largest peak RSS) and STATUS (last exit status).
measure() {
  local name=$1; shift
  local secs=() rss=() cpu=() i
  for ((i = 0; i < runs; i++)); do
    STATUS=0
    /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/$name.out" 2>"$work/$name.err" || STATUS=$?
    secs+=("$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(j=1;j<=n;j++) s=s*60+a[j]; print s}' "$work/time.txt")")
    rss+=("$(awk -F': ' '/Maximum resident set size/{printf "%.1f", $2/1024}' "$work/time.txt")")
    cpu+=("$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.2f", s}' "$work/time.txt")")
  done
  CPU=$(printf '%s\n' "${cpu[@]}" | sort -g | head -1)
  SECS=$(printf '%s\n' "${secs[@]}" | sort -g | head -1)
  RSS_MIB=$(printf '%s\n' "${rss[@]}" | sort -g | tail -1)
}

rows=()
for s in "${sizes[@]}"; do
  f="$cache/$kind-$s-seed$seed.jsonl"
  if [[ ! -f $f ]]; then
    "$work/agc-corpus" -kind "$kind" -size "$s" -seed "$seed" -o "$f.tmp" -stats "$f.stats.json"
    mv "$f.tmp" "$f"
  fi
  bytes=$(stat -c %s "$f")
  cat "$f" >/dev/null # warm the page cache
  echo "bench: $s ($bytes bytes) …" >&2

  measure collect "$work/agc-sarif" collect --root "$work" --fail-on none -o "$work/out.sarif" "$f"
  c_s=$SECS c_rss=$RSS_MIB c_cpu=$CPU
  if [[ $STATUS -ne 0 ]]; then echo "bench: agc-sarif collect exited $STATUS:" >&2; tail -5 "$work/collect.err" >&2; fi
  measure grep grep -c hook_ "$f"
  g_s=$SECS g_rss=$RSS_MIB g_cpu=$CPU
  if [[ ${BENCH_NO_JQ:-0} == 1 ]]; then
    j_s=nan j_rss=nan j_cpu=nan
  else
    measure jq jq -c 'select(.type=="attachment")' "$f"
    j_s=$SECS j_rss=$RSS_MIB j_cpu=$CPU
  fi
  rows+=("$(python3 - "$s" "$bytes" "$c_s" "$c_rss" "$g_s" "$g_rss" "$j_s" "$j_rss" "$c_cpu" "$g_cpu" "$j_cpu" <<'PY'
import sys
s, b, cs, cr, gs, gr, js, jr, cc, gc, jc = sys.argv[1:]
b = int(b); cs, gs, js = float(cs), float(gs), float(js)
mib = b / 2**20
f = lambda x: "–" if x != x else f"{x:.2f}"
ratio = lambda a, c: "–" if a != a or c != c or c == 0 else f"{a / c:.1f}×"
print(f"| {s} | {f(cs)} | {f(gs)} | {f(js)} | {ratio(cs, gs)} | {ratio(js, cs)} | "
      f"{mib / cs if cs else float('inf'):.0f} | {cs / (b / 2**30):.2f} | {cr} | {gr} | {jr} | {cc} / {gc} / {jc} |")
PY
)")
done

host="$(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "agc-sarif collect on a generated $kind corpus (seed $seed), warm cache, best of $runs run(s) —" \
  "$(date -u +%Y-%m-%dT%H:%MZ), commit $commit, $host, $(go version | awk '{print $3}'), $(jq --version)"
echo
echo "| size | collect s | grep -c s | jq s | collect ÷ grep | jq ÷ collect | collect MiB/s | collect s/GiB | collect RSS MiB | grep RSS MiB | jq RSS MiB | CPU s collect / grep / jq |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
