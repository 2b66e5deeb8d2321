#!/usr/bin/env bash
# Regenerate the Claude Code replay records of testdata/claude/<scenario>/ (see README.md).
# usage: testdata/claude/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${CLAUDE_REPLAY:-/work/shared/tools/claude-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
bin=$bindir/agc-sarif
# The hooks are wrapped by the real recorder (agc-sarif record), built from this checkout; set
# AGC_SARIF_STANDIN=1 to use the Python stand-in hooks/agc-sarif instead. Both recorders,
# agc-sarif and agc-record, are also put on PATH for the record-* scenarios, whose hooks name them
# bare, as a project that installed them would.
if [[ -z ${AGC_SARIF_STANDIN:-} ]]; then
  (cd "$repo" && go build -o "$bin" ./cmd/agc-sarif && go build -o "$bindir/agc-record" ./cmd/agc-record)
  export PATH=$bindir:$PATH
fi
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/.claude"
  cp -r "$here/hooks" "$proj/hooks"
  cp "$here/$s/settings.json" "$proj/.claude/settings.json"
  if [[ -d $here/$s/files ]]; then cp -r "$here/$s/files/." "$proj/"; fi
  if [[ -z ${AGC_SARIF_STANDIN:-} ]]; then cp "$bin" "$proj/hooks/agc-sarif"; fi
  out=$(mktemp -d)
  "$replay" "$here/$s/scenario.json" "$proj" "$out" || echo "$s: claude exited $?" >&2
  cp "$out/stream.jsonl" "$here/$s/stream.jsonl"
  cp "$out/session.jsonl" "$here/$s/session.jsonl" 2>/dev/null || echo "$s: no session transcript" >&2
  # The reviewer-* scenarios also keep the stream as claude-code-action's execution_file writes it:
  # one JSON array of the stream's messages.
  if [[ $s == reviewer-* ]]; then
    python3 -c 'import json,sys; json.dump([json.loads(l) for l in open(sys.argv[1]) if l.strip()], open(sys.argv[2], "w"), indent=2)' \
      "$out/stream.jsonl" "$here/$s/execution.json"
  fi
  if [[ -f $proj/hook-log.jsonl ]]; then cp "$proj/hook-log.jsonl" "$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  # A scenario with change/ keeps the files the agent changed, as they stand after the run.
  if [[ -f $here/$s/change.list ]]; then
    while read -r f; do mkdir -p "$here/$s/change/$(dirname "$f")"; cp "$proj/$f" "$here/$s/change/$f"; done <"$here/$s/change.list"
  fi
  rm -rf "$out"
  echo "$s: done"
done
