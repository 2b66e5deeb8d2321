#!/usr/bin/env python3
"""The essay's guard: a script run by its absolute path is rewritten to the ./ spelling the
allowlist names, so the call runs without a prompt (the seed's ladder: a rewrite that keeps
behaviour). It answers in AGC and fails open on anything it does not understand."""
import json, os, sys

try:
    e = json.load(sys.stdin)
    cmd = e["tool_input"]["command"]
    root = os.environ.get("CLAUDE_PROJECT_DIR") or e.get("cwd") or ""
except Exception:
    sys.exit(0)
prefix = root.rstrip("/") + "/scripts/"
if not root or not cmd.startswith(prefix):
    sys.exit(0)
new = "./scripts/" + cmd[len(prefix):]
agc = {"agc": "0.1", "gate": {"id": "spelling-guard", "kind": "runtime"}, "verdict": "repaired",
       "findings": [{"rule": "allowlisted-spelling", "target": "Bash.command",
                     "message": "A project script runs by the ./ spelling the allowlist names.",
                     "repair": {"before": cmd, "after": new}}]}
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "updatedInput": {"command": new},
                                         "additionalContext": json.dumps(agc)}}))
