#!/usr/bin/env python3
"""Guard hook of the friction replay (testdata/friction): one PreToolUse guard for Bash that takes
each rung of the ladder on its own kind of command.

  python …                      block (exit 2): "AGC block: … — use python3"
  pytest …                      steer: additionalContext "AGC steer: … — run make test"
  /…/scripts/check.sh (absolute) repair: updatedInput "bash scripts/check.sh" + AGC repaired JSON
  anything else                 no answer (exit 0)
"""
import json, sys

inp = json.load(sys.stdin)
event = inp.get("hook_event_name", "PreToolUse")
cmd = (inp.get("tool_input") or {}).get("command", "")
words = cmd.split()
prog = words[0] if words else ""

if prog == "python":
    sys.stderr.write("AGC block: interpreter/use-python3/Bash.command — use python3: python is not installed here\n")
    sys.exit(2)
if prog == "pytest":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext":
        "AGC steer: test-hygiene/use-make-test/Bash.command — run make test: it sets up the fixtures first"}}))
    sys.exit(0)
if prog.startswith("/") and prog.endswith("/scripts/check.sh"):
    fixed = "bash scripts/check.sh" + cmd[len(prog):]
    agc = {"agc": "0.1", "gate": {"id": "script-paths", "kind": "runtime"}, "verdict": "repaired",
           "findings": [{"rule": "relative-script", "target": "Bash.command",
                         "message": "The check script now runs by its allowlisted relative path.",
                         "repair": {"before": cmd, "after": fixed}}]}
    print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "updatedInput": {"command": fixed},
                                             "additionalContext": json.dumps(agc)}}))
    sys.exit(0)
sys.exit(0)
