#!/bin/sh
cat >/dev/null
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"{\"agc\":\"0.1\",\"gate\":{\"id\":\"output-check\",\"kind\":\"runtime\"},\"verdict\":\"pass\",\"findings\":[]}"}}'
