#!/usr/bin/env python3
"""A second guard, written for this check: blocks writes of secrets, repairs `npm install`
to `npm ci`, steers `curl` downloads, and crashes on `make deploy`."""
import json, sys
inp = json.load(sys.stdin)
ev = inp.get("hook_event_name", "PreToolUse")
tool = inp.get("tool_name", "")
ti = inp.get("tool_input") or {}
cmd = ti.get("command", "")
def agc(verdict, rule, msg, target, **kw):
    f = {"rule": rule, "target": target, "message": msg}
    f.update(kw)
    return json.dumps({"agc": "0.1", "gate": {"id": "repo-guard", "kind": "runtime"}, "verdict": verdict, "findings": [f]})
if tool in ("Write", "Edit") and "API_TOKEN" in (ti.get("content", "") + ti.get("new_string", "")):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "permissionDecision": "deny",
        "permissionDecisionReason": agc("block", "no-inline-token", "The edit writes a token into source; read it from the environment.", tool + ".content",
                                        location={"path": ti.get("file_path", ""), "line": 2})}}))
    sys.exit(0)
if cmd.startswith("npm install"):
    fixed = "npm ci" + cmd[len("npm install"):]
    print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "permissionDecision": "allow", "updatedInput": {"command": fixed},
        "additionalContext": agc("repaired", "reproducible-install", "npm install became npm ci: the lock file decides.", "Bash.command", repair={"before": cmd, "after": fixed})}}))
    sys.exit(0)
if cmd.startswith("curl"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "additionalContext":
        agc("steer", "no-curl-pipe", "Download with the vendored script, not curl.", "Bash.command")}}))
    sys.exit(0)
if "make deploy" in cmd:
    raise RuntimeError("guard crashed on purpose")
sys.exit(0)
