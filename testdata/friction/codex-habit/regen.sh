#!/usr/bin/env bash
# Regenerate the Codex habit replay (see ../habit/README.md): the real Codex CLI runs scenario.json
# with guard.py (one rule, shell-ladder/python3-only) wrapped by the real recorder agc-record.
# usage: testdata/friction/codex-habit/regen.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${CODEX_REPLAY:-/work/shared/tools/codex-replay}
repo=$(cd "$here/../../.." && pwd)
proj=/tmp/agc-codex-replay/friction-habit
rm -rf "$proj"; mkdir -p "$proj/.codex/hooks" "$proj/scripts"
(cd "$repo" && go build -o "$proj/.codex/hooks/agc-record" ./cmd/agc-record)
cp "$here/guard.py" "$proj/.codex/hooks/guard.py"
cp "$here/../habit/files/scripts/"*.py "$proj/scripts/"
cat >"$proj/.codex/hooks.json" <<'JSON'
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".codex/hooks/agc-record --log hook-log.jsonl -- python3 .codex/hooks/guard.py", "timeout": 30}]}]}}
JSON
out=$(mktemp -d)
"$replay" "$here/scenario.json" "$proj" "$out" || echo "codex-habit: codex exited $?" >&2
cp "$out/rollout.jsonl" "$out/events.jsonl" "$proj/hook-log.jsonl" "$here/"
rm -rf "$out"
echo "codex-habit: done"
