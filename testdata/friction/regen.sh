#!/usr/bin/env bash
# Regenerate the friction replay records (see README.md): the real Claude Code runs scenario.json in
# /tmp/agc-replay/friction with the guard hooks/guard.py and a PermissionRequest hook, both wrapped
# by the real recorder agc-record (built from this checkout and put on PATH).
# usage: testdata/friction/regen.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${CLAUDE_REPLAY:-/work/shared/tools/claude-replay}
repo=$(cd "$here/../.." && pwd)
bin=$(mktemp -d)
(cd "$repo" && go build -o "$bin/agc-record" ./cmd/agc-record)
export PATH="$bin:$PATH"
proj=/tmp/agc-replay/friction
rm -rf "$proj"; mkdir -p "$proj/.claude"
cp -r "$here/hooks" "$proj/hooks"
cp -r "$here/files/." "$proj/"
cp "$here/settings.json" "$proj/.claude/settings.json"
out=$(mktemp -d)
"$replay" "$here/scenario.json" "$proj" "$out" || echo "friction: claude exited $?" >&2
cp "$out/stream.jsonl" "$here/stream.jsonl"
cp "$out/session.jsonl" "$here/session.jsonl"
cp "$proj/hook-log.jsonl" "$here/hook-log.jsonl"
rm -rf "$out" "$bin"
echo "friction: done"
