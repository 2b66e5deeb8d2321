#!/usr/bin/env bash
# Regenerate the Copilot CLI replay records of testdata/copilot/<scenario>/ with the real copilot
# (../shared/tools/copilot-replay): session-events.jsonl (hook.start/hook.end), the --output-format json events and the recorder's log.
# usage: testdata/copilot/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${COPILOT_REPLAY:-/work/shared/tools/copilot-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
(cd "$repo" && go build -o "$bindir/agc-sarif" ./cmd/agc-sarif)
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-copilot-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/.github/hooks"
  cp "$here/agc.json" "$proj/.github/hooks/agc.json"
  cp "$here/hooks/guard.py" "$bindir/agc-sarif" "$proj/.github/hooks/"
  out=$(mktemp -d)
  "$replay" "$here/$s/scenario.json" "$proj" "$out" || echo "$s: copilot exited $?" >&2
  cp "$out/session-events.jsonl" "$here/$s/session-events.jsonl" 2>/dev/null || true
  cp "$out/events.jsonl" "$here/$s/events.jsonl" 2>/dev/null || true
  if [[ -f $proj/hook-log.jsonl ]]; then cp "$proj/hook-log.jsonl" "$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  rm -rf "$out"
  echo "$s: done"
done
