#!/usr/bin/env python3
import json, sys
try:
    e = json.load(sys.stdin)
    cmd = (e.get("tool_input") or {}).get("command", "")
except Exception:
    sys.exit(0)
def agc(verdict, rule, msg, repair=None):
    f = {"rule": rule, "target": "Bash.command", "message": msg}
    if repair: f["repair"] = repair
    return json.dumps({"agc": "0.1", "gate": {"id": "nu-guard", "kind": "runtime"}, "verdict": verdict, "findings": [f]})
if cmd.startswith("docker system prune"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": agc("block", "no-prune", "Pruning docker wipes other jobs' caches.")}}))
elif cmd.startswith("pip install ") and "--require-hashes" not in cmd:
    new = cmd + " --require-hashes"
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": new},
        "additionalContext": agc("repaired", "hashes", "pip installs pinned hashes.", {"before": cmd, "after": new})}}))
sys.exit(0)
