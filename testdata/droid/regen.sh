#!/usr/bin/env bash
# Regenerate the Factory Droid records of testdata/droid/<scenario>/ with the real droid
# (../shared/tools/droid-replay): the stream-json output, the session transcript (the hooks'
# transcript_path), the recorder's log, Droid's hook log lines and what the scripted model received
# after each tool call (model-saw.jsonl).
# usage: testdata/droid/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
# A folder with a `hooks.json.src` file runs with that hooks file (relative to this folder) instead
# of .factory/hooks.json: bare/ runs the guard without agc-record in front of it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${DROID_REPLAY:-/work/shared/tools/droid-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
(cd "$repo" && go build -o "$bindir/agc-record" ./cmd/agc-record)
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-droid-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/.factory/hooks"
  hooks=$here/.factory/hooks.json
  [[ -f $here/$s/hooks.json.src ]] && hooks=$here/$(cat "$here/$s/hooks.json.src")
  cp "$hooks" "$proj/.factory/hooks.json"
  cp "$here/hooks/guard.py" "$bindir/agc-record" "$proj/.factory/hooks/"
  out=$(mktemp -d)
  # Create wants absolute paths: the scenario writes <PROJECT>/… for the project folder.
  sed "s#<PROJECT>#$proj#g" "$here/$s/scenario.json" >"$bindir/scenario.json"
  "$replay" "$bindir/scenario.json" "$proj" "$out" || echo "$s: droid exited $?" >&2
  slug=${proj//\//-}
  home=$(grep -aoh '/tmp/tmp\.[A-Za-z0-9]*/\.factory' "$proj/hook-log.jsonl" "$out/droid.log" 2>/dev/null | head -1 | sed 's#/\.factory##' || true)
  # Paths of this machine become <PROJECT>, <PROJECT-SLUG> and <HOME> (the replay's throwaway home).
  scrub() { sed -e "s#$proj#<PROJECT>#g" -e "s#$slug#<PROJECT-SLUG>#g" ${home:+-e "s#$home#<HOME>#g"} "$@"; }
  scrub "$out/stream.jsonl" >"$here/$s/stream.jsonl"
  rm -rf "$here/$s/sessions"; mkdir -p "$here/$s/sessions"
  for f in "$out"/session/*/*.jsonl; do [[ -f $f ]] && scrub "$f" >"$here/$s/sessions/$(basename "$f")"; done
  if [[ -f $proj/hook-log.jsonl ]]; then scrub "$proj/hook-log.jsonl" >"$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  grep -a '\[Hooks\] \(Command completed\|Tool input modified\|PreToolUse warning\)\|\[Tools\] Hook' "$out/droid.log" | cut -c1-600 | scrub >"$here/$s/droid-hooks.log" || true
  # What reached the model: the messages of its last request (tool results and the user messages
  # Droid added), without the system prompt.
  scrub "$out/model-history.json" >"$here/$s/model-history.json"
  (cd "$proj" && for f in README.md .env build.sh; do [[ -f $f ]] && printf '%s: %s\n' "$f" "$(jq -Rs . "$f")"; done; true) >"$here/$s/files.txt"
  cp "$out/exit-status" "$here/$s/exit-status"
  rm -rf "$out"
  echo "$s: done ($(cat "$here/$s/exit-status"))"
done
