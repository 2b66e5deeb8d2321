#!/bin/sh
# PreToolUse guard for the record replay: steer by default, block rm -rf, hang on "slow".
input=$(cat)
case "$input" in
*"rm -rf"*)
  echo 'AGC block: workstream-guard/no-recursive-delete/Bash.command — rm -rf is refused in this project.' >&2
  exit 2 ;;
*slow*)
  sleep 10 ;;
esac
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"AGC steer: workstream-guard/prefer-make/Bash.command — use make targets instead of raw commands."}}'
