#!/usr/bin/env bash
# Regenerate the Codex CLI replay records of testdata/codex/<scenario>/ with the real codex
# (../shared/tools/codex-replay): the rollout JSONL, the --json events and the recorder's log.
# usage: testdata/codex/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${CODEX_REPLAY:-/work/shared/tools/codex-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
(cd "$repo" && go build -o "$bindir/agc-sarif" ./cmd/agc-sarif)
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-codex-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/.codex/hooks"
  cp "$here/hooks.json" "$proj/.codex/hooks.json"
  cp "$here/hooks/guard.py" "$bindir/agc-sarif" "$proj/.codex/hooks/"
  out=$(mktemp -d)
  "$replay" "$here/$s/scenario.json" "$proj" "$out" || echo "$s: codex exited $?" >&2
  cp "$out/rollout.jsonl" "$here/$s/rollout.jsonl"
  cp "$out/events.jsonl" "$here/$s/events.jsonl"
  if [[ -f $proj/hook-log.jsonl ]]; then cp "$proj/hook-log.jsonl" "$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  rm -rf "$out"
  echo "$s: done"
done
