#!/usr/bin/env bash
# Regenerate the friction habit replay (see README.md): the real Claude Code runs scenario.json in
# /tmp/agc-replay/friction-habit twice, with the guard hooks/guard.py and a PermissionRequest hook
# both wrapped by the real recorder agc-record (built from this checkout and put on PATH): once with
# settings.json (the Write calls are prompted and denied), then again with the permissions.allow
# entry the friction report suggested (allowed.json) as .claude/settings.local.json, into allowed/.
# (Claude Code ignores permissions.allow in .claude/settings.json of a workspace nobody trusted, and
# claude-replay's HOME is new each run; settings.local.json takes the same entry and is read.)
# usage: testdata/friction/habit/regen.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${CLAUDE_REPLAY:-/work/shared/tools/claude-replay}
repo=$(cd "$here/../../.." && pwd)
bin=$(mktemp -d)
(cd "$repo" && go build -o "$bin/agc-record" ./cmd/agc-record)
export PATH="$bin:$PATH"
proj=/tmp/agc-replay/friction-habit
run() { # destination [settings.local.json]
  rm -rf "$proj"; mkdir -p "$proj/.claude" "$1"
  cp -r "$here/hooks" "$proj/hooks"
  cp -r "$here/files/." "$proj/"
  cp "$here/settings.json" "$proj/.claude/settings.json"
  [[ -z ${2:-} ]] || cp "$2" "$proj/.claude/settings.local.json"
  local out; out=$(mktemp -d)
  "$replay" "$here/scenario.json" "$proj" "$out" || echo "friction-habit: claude exited $?" >&2
  cp "$out/stream.jsonl" "$out/session.jsonl" "$1/"
  cp "$proj/hook-log.jsonl" "$1/hook-log.jsonl"
  rm -rf "$out"
}
run "$here"
run "$here/allowed" "$here/allowed.json"
rm -rf "$bin"
echo "friction-habit: done"
