#!/usr/bin/env python3
"""A sample PreToolUse guard that climbs the ladder of block, steer and rewrite, answering in AGC
0.1 for Claude Code and OpenAI Codex CLI (the other runtimes: it stays out of the way).

Rungs, weakest cost to the agent last:
  block   a force push, `rm -rf` of / or ~, a write to a .env file: the call does not run;
  steer   `npm install`: the call runs, and the agent is told to use `npm ci` next time (not a
          rewrite: the two do different things);
  rewrite an absolute path to a script of this project, run from the project folder, becomes
          the relative path: the same script in the same folder, so behaviour is preserved.
Fail open: anything unexpected (no input, not JSON, a tool or event it does not judge, an
error of its own) and it exits 0 with no answer. Standard library only.

Wire it in .claude/settings.json:
  {"hooks": {"PreToolUse": [{"matcher": "Bash|Edit|Write", "hooks": [{"type": "command",
    "command": "python3 \"$CLAUDE_PROJECT_DIR\"/examples/guards/ladder.py"}]}]}}
and in .codex/hooks.json the same under "PreToolUse" (matcher "Bash").
Check it before it ships: agc-sarif probe -- python3 examples/guards/ladder.py
"""
import json
import os
import re
import sys

GATE = {"id": "ladder-guard", "kind": "runtime", "version": "1"}

FORCE_PUSH = re.compile(r"\bgit\s+push\b.*(\s--force\b|\s-f\b|\s--force-with-lease\b)")
RM_ROOT = re.compile(r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*f?[a-zA-Z]*\s+(/|~|\$HOME)(\s|$)")
NPM_INSTALL = re.compile(r"^\s*npm\s+(install|i)(\s|$)")


def agc(verdict, rule, message, target, **extra):
    """One AGC 0.1 response with one finding."""
    finding = {"rule": rule, "message": message, "target": target}
    finding.update(extra)
    return {"agc": "0.1", "gate": GATE, "verdict": verdict, "findings": [finding]}


def text_form(resp):
    """The one-line form a reason carries: AGC <verdict>: <gate>/<rule>/<target> — <message>."""
    f = resp["findings"][0]
    return "AGC %s: %s/%s/%s \u2014 %s" % (resp["verdict"], GATE["id"], f["rule"], f["target"], f["message"])


def answer(event, **fields):
    """Print the hook answer (hookSpecificOutput) and exit 0."""
    out = {"hookEventName": event}
    out.update(fields)
    sys.stdout.write(json.dumps({"hookSpecificOutput": out}) + "\n")
    sys.exit(0)


def block(event, resp):
    answer(event, permissionDecision="deny", permissionDecisionReason=text_form(resp),
           additionalContext=json.dumps(resp))


def judge(inp):
    event = inp.get("hook_event_name")
    tool = inp.get("tool_name")
    args = inp.get("tool_input")
    if event != "PreToolUse" or not isinstance(args, dict):
        return
    codex = "turn_id" in inp  # Codex's input names the turn; Claude Code's does not
    if tool in ("Write", "Edit") and not codex:
        path = args.get("file_path")
        if isinstance(path, str) and os.path.basename(path) == ".env":
            block(event, agc("block", "no-env-writes", "Secrets stay out of the repository: keep them in the environment, not in .env.",
                             tool + ".file_path"))
        return
    if tool != "Bash":
        return
    cmd = args.get("command")
    if not isinstance(cmd, str):
        return
    if FORCE_PUSH.search(cmd) or RM_ROOT.search(cmd):
        block(event, agc("block", "destructive-command", "This command destroys history or files beyond the project; do it by hand if it is meant.",
                         "Bash.command"))
    if NPM_INSTALL.search(cmd):
        answer(event, additionalContext=json.dumps(agc("steer", "use-npm-ci",
               "Use `npm ci` to install from the lock file; `npm install` may change it.", "Bash.command")))
    # Codex sets no project-folder variable; every runtime runs its hooks from the project folder.
    project = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    cwd = inp.get("cwd")
    # Run from the project folder, "<project>/scripts/x" and "./scripts/x" are the same script.
    prefix = next((p for p in (project.rstrip("/") + "/", "$CLAUDE_PROJECT_DIR/", '"$CLAUDE_PROJECT_DIR"/')
                   if project and cmd.startswith(p + "scripts/")), None)
    if prefix and isinstance(cwd, str) and os.path.realpath(cwd) == os.path.realpath(project):
        fixed = "./" + cmd[len(prefix):]
        resp = agc("repaired", "relative-script-path", "Scripts of this project run by their relative path (the same script, the same folder).",
                   "Bash.command", repair={"before": cmd, "after": fixed})
        rewritten = dict(args, command=fixed)
        if codex:  # Codex applies updatedInput only with allow
            answer(event, permissionDecision="allow", updatedInput=rewritten, additionalContext=json.dumps(resp))
        # Claude Code: never allow with a repair, so the person's permission settings still decide
        answer(event, updatedInput=rewritten, additionalContext=json.dumps(resp))


def main():
    try:
        raw = sys.stdin.buffer.read()
        inp = json.loads(raw.decode("utf-8"))
        if isinstance(inp, dict):
            judge(inp)
    except SystemExit:
        raise
    except Exception:  # fail open: any problem of the guard's own lets the call through
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
