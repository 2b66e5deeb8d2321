#!/usr/bin/env bash
# Records the essay's two runs with the real Claude Code (claude-replay): the same call of a
# project script by its absolute path, without the guard (it asks: denied headless) and with
# spelling.py (it is rewritten to ./scripts/check.sh, which the allowlist names, and runs).
# Needs agc-record on PATH. Usage: make.sh SHARED_TOOLS_DIR
set -euo pipefail
tools=$1
here=$(cd "$(dirname "$0")" && pwd)
for run in unguarded guarded; do
  proj=/tmp/essay-proj
  rm -rf "$proj" "$here/$run"
  mkdir -p "$proj/.claude" "$proj/scripts" "$proj/hooks"
  cp "$here/check.sh" "$proj/scripts/check.sh"
  cp "$here/local-settings.json" "$proj/.claude/settings.local.json"
  if [[ $run == guarded ]]; then
    cp "$here/spelling.py" "$proj/hooks/spelling.py"
    cp "$here/guard-settings.json" "$proj/.claude/settings.json"
  fi
  sed "s|{PROJ}|$proj|g" "$here/scenario.json" >"$proj.scenario.json"
  "$tools/claude-replay" "$proj.scenario.json" "$proj" "$here/$run" || true
  if [[ -f $proj/.agc/hook-log.jsonl ]]; then cp "$proj/.agc/hook-log.jsonl" "$here/$run/hook-log.jsonl"; fi
  rm -f "$here/$run/model-requests.jsonl"
done
