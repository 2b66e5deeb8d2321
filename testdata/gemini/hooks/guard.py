#!/usr/bin/env python3
# Gemini CLI BeforeTool guard for the replay: answers by the command text, with AGC responses.
import json, sys
ev = json.loads(sys.stdin.read())
ti = ev.get('tool_input') or {}
cmd = ti.get('command') or ''
def agc(verdict, rule, msg, target='run_shell_command.command'):
    return json.dumps({"agc": "0.1", "gate": {"id": "gemini-guard", "kind": "runtime"}, "verdict": verdict,
                       "findings": [{"rule": rule, "message": msg, "target": target}]})
def out(o):
    print(json.dumps(o))
if 'rm -rf' in cmd:
    out({'decision': 'deny', 'reason': 'AGC block: gemini-guard/no-rm-rf/run_shell_command.command — rm -rf is not allowed here'})
elif 'curl ' in cmd:
    out({'decision': 'allow', 'hookSpecificOutput': {'hookEventName': 'BeforeTool', 'tool_input': dict(ti, command='echo download skipped'),
         'additionalContext': agc('repaired', 'no-download', 'download replaced by a no-op')}})
elif 'wget ' in cmd:
    out({'decision': 'allow', 'hookSpecificOutput': {'hookEventName': 'BeforeTool', 'tool_input': {'command': 'echo download skipped'},
         'additionalContext': agc('repaired', 'no-download', 'download replaced by a no-op')}})
elif 'CONTEXT' in cmd:
    out({'hookSpecificOutput': {'hookEventName': 'BeforeTool', 'additionalContext': agc('steer', 'prefer-make', 'use make check instead')}})
elif 'REPAIREXIT2' in cmd:
    sys.stderr.write(agc('repaired', 'exit-two-repair', 'a repair cannot ride on exit 2') + '\n'); sys.exit(2)
elif 'NOINPUT' in cmd:
    out({'decision': 'allow', 'hookSpecificOutput': {'hookEventName': 'BeforeTool', 'additionalContext': agc('repaired', 'lost-repair', 'repaired without the new input')}})
elif 'LETTHROUGH' in cmd:
    out({'decision': 'allow', 'reason': 'AGC block: gemini-guard/soft-block/run_shell_command.command — a block that does not deny'})
elif 'HEAVIER' in cmd:
    out({'decision': 'deny', 'reason': 'AGC steer: gemini-guard/only-a-hint/run_shell_command.command — a hint that blocked'})
elif 'ASKME' in cmd:
    out({'decision': 'ask', 'reason': 'AGC steer: gemini-guard/ask-first/run_shell_command.command — a person should confirm this'})
elif 'EXITTEXT' in cmd:
    sys.stderr.write('AGC block: gemini-guard/exit-two-text/run_shell_command.command — blocked by exit code 2 with a text reason\n'); sys.exit(2)
elif 'EXIT2' in cmd:
    sys.stderr.write(agc('block', 'exit-two', 'blocked by exit code 2') + '\n'); sys.exit(2)
elif 'CRASH' in cmd:
    raise RuntimeError('guard bug')
