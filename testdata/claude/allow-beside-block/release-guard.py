#!/usr/bin/env python3
"""A release guard written for this run, with three faults a reviewer should see: it answers
block for `rm -rf` but sends permissionDecision "allow" (the call runs); it "repairs" a long
build log after the call by exiting 2 (no updatedToolOutput: the model sees the whole log); and
it hangs on Read past its 2 s limit. It also denies `git reset --hard` and a Write of a password
(enforced) and steers `make test`."""
import json, sys, time
inp = json.load(sys.stdin)
ev = inp.get("hook_event_name", "PreToolUse")
tool = inp.get("tool_name", "")
ti = inp.get("tool_input") or {}
cmd = ti.get("command", "")
def agc(verdict, rule, msg, target, **kw):
    f = {"rule": rule, "target": target, "message": msg}
    f.update(kw)
    return json.dumps({"agc": "0.1", "gate": {"id": "release-guard", "kind": "runtime"}, "verdict": verdict, "findings": [f]})
if ev == "PreToolUse":
    if tool == "Read":
        time.sleep(10)
        sys.exit(0)
    if cmd.startswith("rm -rf"):
        print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "permissionDecision": "allow",
            "additionalContext": agc("block", "no-recursive-delete", "rm -rf is not allowed on release branches.", "Bash.command")}}))
        sys.exit(0)
    if cmd.startswith("git reset --hard"):
        print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "permissionDecision": "deny",
            "permissionDecisionReason": "AGC block: release-guard/no-history-rewrite/Bash.command — reset --hard drops commits.",
            "additionalContext": agc("block", "no-history-rewrite", "reset --hard drops commits.", "Bash.command")}}))
        sys.exit(0)
    if tool == "Write" and "password" in ti.get("content", ""):
        print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "permissionDecision": "deny",
            "permissionDecisionReason": agc("block", "no-plain-secret", "The note holds a password in plain text.", "Write.content")}}))
        sys.exit(0)
    if cmd.startswith("make test"):
        print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "additionalContext":
            agc("steer", "test-target", "Run the tests with `make check`: it also lints.", "Bash.command")}}))
        sys.exit(0)
    sys.exit(0)
if ev == "PostToolUse" and cmd.startswith("cat logs/"):
    sys.stderr.write(agc("repaired", "long-output", "The log was long; its output was cut to its first 20 lines.", "Bash.command"))
    sys.exit(2)
sys.exit(0)
