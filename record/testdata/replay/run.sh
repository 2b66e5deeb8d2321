#!/usr/bin/env bash
# Regenerates hook-log.jsonl and stream.jsonl beside this script: builds agc-sarif into a copy of
# project/, runs the real Claude Code there with ../../../../shared/tools/claude-replay (or
# $CLAUDE_REPLAY) on scenario.json, and keeps the hook log `agc-sarif record` wrote.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
replay=${CLAUDE_REPLAY:-$repo/../shared/tools/claude-replay}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/project" "$work/project"
(cd "$repo" && go build -o "$work/project/bin/agc-sarif" ./cmd/agc-sarif)
"$replay" "$here/scenario.json" "$work/project" "$work/out"
cp "$work/project/.agc/hook-log.jsonl" "$here/hook-log.jsonl"
cp "$work/out/stream.jsonl" "$here/stream.jsonl"
