#!/usr/bin/env python3
"""Test guard hook for the agc-sarif replay scenarios: answers a Claude Code PreToolUse or
PostToolUse hook the way MODE says, taking one binding path (good or broken) of the AGC contract.

usage: gate.py MODE   (hook input JSON on stdin, as Claude Code sends it)
"""
import json, sys

mode = sys.argv[1] if len(sys.argv) > 1 else "pass"
inp = json.load(sys.stdin)
event = inp.get("hook_event_name", "PreToolUse")
tool = inp.get("tool_name", "Bash")
cmd = (inp.get("tool_input") or {}).get("command", "")
subject = {"runtime": "claude-code", "event": event, "tool": tool,
           "tool_use_id": inp.get("tool_use_id", ""), "session_id": inp.get("session_id", "")}


def agc(verdict, rule, message, gate="workstream-isolation", kind="runtime", target="Bash.command", **extra):
    f = {"rule": rule, "message": message, "target": target}
    f.update(extra)
    return json.dumps({"agc": "0.1", "gate": {"id": gate, "kind": kind, "version": "1.0.0"},
                       "verdict": verdict, "findings": [f], "subject": subject})


def out(obj, code=0, err=""):
    if obj is not None:
        sys.stdout.write(json.dumps(obj))
    if err:
        sys.stderr.write(err)
    sys.exit(code)


fixed = cmd.replace("cd /srv/main-checkout && ", "")
repaired = agc("repaired", "main-checkout-access", "The command now runs in the workstream, not the main checkout.")
blocked = agc("block", "force-push", "Force-pushing rewrites shared history; push a new branch instead.", gate="git-safety")

if mode == "pre-repair":            # good: updatedInput, no permissionDecision, AGC JSON in additionalContext
    out({"hookSpecificOutput": {"hookEventName": event, "updatedInput": {"command": fixed}, "additionalContext": repaired}})
elif mode == "pre-repair-allow":    # broken: repair sent with allow
    out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "allow",
                                "updatedInput": {"command": fixed}, "additionalContext": repaired}})
elif mode == "pre-repair-exit2":    # broken: repaired signalled by exit 2 (AGC JSON on stderr)
    out(None, 2, repaired)
elif mode == "pre-repaired-no-input":  # broken: repaired verdict without updatedInput
    out({"hookSpecificOutput": {"hookEventName": event, "additionalContext": repaired}})
elif mode == "pre-deny":            # good: block via JSON deny, AGC JSON in additionalContext
    out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                "permissionDecisionReason": "AGC block: git-safety/force-push/Bash.command — Force-pushing rewrites shared history; push a new branch instead.",
                                "additionalContext": blocked}})
elif mode == "pre-exit2-agc":       # good: block via exit 2 with the AGC JSON on stderr
    out(None, 2, blocked)
elif mode == "pre-exit2-plain":     # unstructured: exit 2 with plain stderr, no AGC
    out(None, 2, "force-push is not allowed here\n")
elif mode == "pre-block-through":   # broken: block verdict, exit 0 without deny
    out({"hookSpecificOutput": {"hookEventName": event, "additionalContext": blocked}})
elif mode == "pre-steer":           # good: steer via the text form in additionalContext
    out({"hookSpecificOutput": {"hookEventName": event, "additionalContext":
         "AGC steer: test-hygiene/prefer-make-target/Bash.command — Run `make test` so the race detector is on."}})
elif mode == "pre-event-mismatch":  # broken: hookEventName does not match the event
    out({"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny",
                                "permissionDecisionReason": "force-push", "additionalContext": blocked}})
elif mode == "pre-crash":           # broken: the guard crashes (exit 1) and fails open
    sys.stderr.write("Traceback (most recent call last):\n  File \"gate.py\", line 1\nKeyError: 'policy'\n")
    sys.exit(1)
elif mode == "post-repair":         # good: updatedToolOutput + AGC JSON in additionalContext
    out({"hookSpecificOutput": {"hookEventName": event,
                                "updatedToolOutput": {"stdout": "API_KEY=[redacted]\n", "stderr": "", "interrupted": False, "isImage": False},
                                "additionalContext": agc("repaired", "secret-in-output", "A secret in the command output was redacted before the model saw it.", gate="secret-scan")}})
elif mode == "post-repair-no-output":  # broken: repaired without updatedToolOutput
    out({"hookSpecificOutput": {"hookEventName": event,
                                "additionalContext": agc("repaired", "secret-in-output", "A secret in the command output was redacted before the model saw it.", gate="secret-scan")}})
elif mode == "post-block":          # good: decision block + reason, AGC JSON in additionalContext
    out({"decision": "block", "reason": "AGC block: secret-scan/secret-in-output/Bash.command — The output holds a secret; rotate it.",
         "hookSpecificOutput": {"hookEventName": event,
                                "additionalContext": agc("block", "secret-in-output", "The output holds a secret; rotate it.", gate="secret-scan")}})
elif mode == "post-block-no-decision":  # broken: block verdict without top-level decision
    out({"hookSpecificOutput": {"hookEventName": event,
                                "additionalContext": agc("block", "secret-in-output", "The output holds a secret; rotate it.", gate="secret-scan")}})
elif mode == "post-no-agc":         # broken: blocks without any AGC JSON in additionalContext
    out({"decision": "block", "reason": "The output holds a secret; rotate it."})
elif mode == "pre-deny-bare":       # unstructured: JSON deny with a reason, no AGC anywhere
    out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                "permissionDecisionReason": "Force-pushing is not allowed in this repository."}})
elif mode == "pre-event-missing":   # broken: hookSpecificOutput without hookEventName
    out({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "force-push", "additionalContext": blocked}})
elif mode == "pre-timeout":         # broken: the guard hangs past its timeout and fails open
    import time
    time.sleep(30)
    out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "additionalContext": blocked}})
elif mode == "pre-edit-block":      # good: block an Edit via JSON deny, AGC finding with a location
    path = (inp.get("tool_input") or {}).get("file_path", "")
    out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                "permissionDecisionReason": "AGC block: generated-code/edit-generated/Edit.file_path — gen/api.go is generated; edit api.yaml and run make gen.",
                                "additionalContext": agc("block", "edit-generated", "gen/api.go is generated; edit api.yaml and run make gen.",
                                                         gate="generated-code", target="Edit.file_path",
                                                         location={"path": "gen/api.go", "line": 1})}})
elif mode == "pre-steer-deny":      # broken: a steer verdict whose answer denies the call
    out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                "permissionDecisionReason": "Push a new branch instead.",
                                "additionalContext": agc("steer", "force-push", "Push a new branch instead of force-pushing.", gate="git-safety")}})
elif mode == "session-edit":        # session-anchor: edits pass, an edit that leaves a TODO is steered
    if "TODO" in json.dumps(inp.get("tool_input") or {}):
        out({"hookSpecificOutput": {"hookEventName": event, "additionalContext":
             "AGC steer: code-hygiene/todo-left/Edit.new_string — Open an issue instead of leaving a TODO in the code."}})
    out({"hookSpecificOutput": {"hookEventName": event, "additionalContext": agc("pass", "todo-left", "ok", gate="code-hygiene", target="Edit.new_string")}})
elif mode == "session-bash":        # session-anchor: one guard answers each command of a session its own way
    if cmd.startswith("rm -rf"):
        out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                    "permissionDecisionReason": "AGC block: destructive/rm-rf/Bash.command — rm -rf is not run by agents here.",
                                    "additionalContext": agc("block", "rm-rf", "rm -rf is not run by agents here.", gate="destructive")}})
    elif cmd.startswith("cd /srv/main-checkout && "):
        out({"hookSpecificOutput": {"hookEventName": event, "updatedInput": {"command": fixed}, "additionalContext": repaired}})
    elif "unittest" in cmd:
        out({"hookSpecificOutput": {"hookEventName": event, "additionalContext":
             "AGC steer: test-hygiene/prefer-make-target/Bash.command — Run `make test` so every suite runs."}})
    elif ".env" in cmd:              # broken: a block verdict whose answer lets the call through
        out({"hookSpecificOutput": {"hookEventName": event, "additionalContext":
             agc("block", "env-file", "Reading .env files exposes secrets.", gate="secret-scan")}})
    elif "push --force" in cmd:
        out(None, 2, blocked)
    out({"hookSpecificOutput": {"hookEventName": event, "additionalContext": agc("pass", "main-checkout-access", "ok")}})
elif mode == "pre-fold":            # good: one gate and rule repair one call and block another; both
    # stand at the hook's settings line, where GitHub would merge them into one alert
    if cmd.startswith("cd /srv/main-checkout && "):
        out({"hookSpecificOutput": {"hookEventName": event, "updatedInput": {"command": fixed}, "additionalContext": repaired}})
    elif "push --force" in cmd:
        why = "Force-pushing from the main checkout rewrites the shared branch; push from the workstream."
        out({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": why,
                                    "additionalContext": agc("block", "main-checkout-access", why)}})
    out(None)
elif mode == "pass":
    out({"hookSpecificOutput": {"hookEventName": event, "additionalContext": agc("pass", "main-checkout-access", "ok")}})
else:
    sys.stderr.write("gate.py: unknown mode %r\n" % mode)
    sys.exit(1)
