#!/usr/bin/env bash
# Regenerate the Gemini CLI replay records of testdata/gemini/<scenario>/ with the real gemini
# (../shared/tools/gemini-replay): the session JSONL, stream-json, telemetry log and the recorder's log.
# usage: testdata/gemini/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${GEMINI_REPLAY:-/work/shared/tools/gemini-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
(cd "$repo" && go build -o "$bindir/agc-sarif" ./cmd/agc-sarif)
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-gemini-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/.gemini/hooks"
  cp "$here/settings.json" "$proj/.gemini/settings.json"
  cp "$here/hooks/guard.py" "$bindir/agc-sarif" "$proj/.gemini/hooks/"
  out=$(mktemp -d)
  # "ask" hangs a headless Gemini run: that scenario is cut short on purpose.
  if [[ $s == ask ]]; then export REPLAY_TIMEOUT=30; else unset REPLAY_TIMEOUT; fi
  "$replay" "$here/$s/scenario.json" "$proj" "$out" || echo "$s: gemini exited $?" >&2
  cp "$out/stream.jsonl" "$here/$s/stream.jsonl" 2>/dev/null || true
  # The telemetry log (the only Gemini file with hook runs) is ~1.6 MB, mostly model requests and
  # spans: keep only the records a reader needs, unchanged (jq prints them as Gemini does, objects
  # of two-space indented JSON one after another). KEEP_TELEMETRY=1 keeps the whole log.
  if [[ -n ${KEEP_TELEMETRY:-} ]]; then cp "$out/telemetry.log" "$here/$s/telemetry.log" 2>/dev/null || true
  elif [[ -s $out/telemetry.log ]]; then
    jq 'select(.attributes["event.name"] // "" | IN("gemini_cli.hook_call", "gemini_cli.tool_call", "gemini_cli.user_prompt"))' \
      "$out/telemetry.log" >"$here/$s/telemetry.log"
  else rm -f "$here/$s/telemetry.log"; fi
  find "$out/session" -name 'session-*.jsonl' -exec cp {} "$here/$s/session.jsonl" \; 2>/dev/null || true
  if [[ -f $proj/hook-log.jsonl ]]; then cp "$proj/hook-log.jsonl" "$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  rm -rf "$out"
  echo "$s: done"
done
