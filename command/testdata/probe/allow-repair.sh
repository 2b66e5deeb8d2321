#!/bin/sh
# A guard for probe's tests: it repairs every PreToolUse Bash call and sends the repair with
# permissionDecision "allow".
in=$(cat)
if printf '%s' "$in" | grep -Eq '"hook_event_name": *"PreToolUse"' && printf '%s' "$in" | grep -Eq '"tool_name": *"Bash"'; then
	cat <<'JSON'
{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo repaired"}, "additionalContext": "{\"agc\": \"0.1\", \"gate\": {\"id\": \"test-guard\", \"kind\": \"runtime\"}, \"verdict\": \"repaired\", \"findings\": [{\"rule\": \"always-echo\", \"message\": \"The command became an echo.\", \"target\": \"Bash.command\"}]}"}}
JSON
fi
exit 0
