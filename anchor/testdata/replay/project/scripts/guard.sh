#!/usr/bin/env bash
# Steers every Edit with an AGC response in additionalContext.
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PROJECT_DIR/hook-inputs.jsonl"
tool=$(printf '%s' "$input" | python3 -c 'import sys,json; print(json.load(sys.stdin)["tool_name"])')
if [ "$tool" = "Bash" ]; then
  echo "AGC block: guard/no-secrets/Bash.command — the command carries a token." >&2
  exit 2
fi
cat <<'JSON'
{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"{\"agc\":\"0.1\",\"gate\":{\"id\":\"guard\",\"kind\":\"runtime\"},\"verdict\":\"steer\",\"findings\":[{\"rule\":\"edit-review\",\"message\":\"Edits to src need a review.\",\"target\":\"Edit.file_path\"}]}"}}
JSON
