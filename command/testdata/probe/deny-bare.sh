#!/bin/sh
# A guard for probe's tests: it denies every call that runs rm -rf with a reason and no AGC
# response.
in=$(cat)
if printf "%s" "$in" | grep -q "rm -rf"; then
	echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}'
fi
exit 0
