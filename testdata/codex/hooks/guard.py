#!/usr/bin/env python3
# Codex PreToolUse guard for the replay: answers by the command text, with AGC responses.
import json, sys
ev = json.loads(sys.stdin.read())
ti = ev.get('tool_input') or {}
cmd = ti.get('command') or ''
def agc(verdict, rule, msg, target='Bash.command'):
    return {"agc": "0.1", "gate": {"id": "codex-guard", "kind": "runtime"}, "verdict": verdict,
            "subject": {"runtime": "codex", "event": "PreToolUse", "tool": "Bash", "tool_use_id": ev.get('tool_use_id')},
            "findings": [{"rule": rule,
                          "message": msg, "target": target}]}
def out(hso):
    hso['hookEventName'] = 'PreToolUse'
    print(json.dumps({'hookSpecificOutput': hso}))
if 'rm -rf' in cmd:
    r = agc('block', 'no-rm-rf', 'rm -rf is not allowed here')
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'AGC block: codex-guard/no-rm-rf/Bash.command — rm -rf is not allowed here',
         'additionalContext': json.dumps(r)})
elif 'curl ' in cmd:
    r = agc('repaired', 'no-download', 'download replaced by a no-op')
    out({'permissionDecision': 'allow', 'updatedInput': dict(ti, command='echo download skipped'), 'additionalContext': json.dumps(r)})
elif 'wget ' in cmd:
    r = agc('repaired', 'no-download', 'download replaced by a no-op')
    out({'updatedInput': dict(ti, command='echo download skipped'), 'additionalContext': json.dumps(r)})
elif 'CONTEXT' in cmd:
    out({'additionalContext': json.dumps(agc('steer', 'prefer-make', 'use make check instead'))})
elif 'REPAIREXIT2' in cmd:
    sys.stderr.write(json.dumps(agc('repaired', 'exit-two-repair', 'a repair cannot ride on exit 2')) + '\n'); sys.exit(2)
elif 'EXIT2' in cmd:
    sys.stderr.write(json.dumps(agc('block', 'exit-two', 'blocked by exit code 2')) + '\n'); sys.exit(2)
elif 'CRASH' in cmd:
    raise RuntimeError('guard bug')
elif 'NOINPUT' in cmd:
    out({'permissionDecision': 'allow', 'additionalContext': json.dumps(agc('repaired', 'lost-repair', 'repaired without the new input'))})
elif 'LETTHROUGH' in cmd:
    out({'additionalContext': json.dumps(agc('block', 'soft-block', 'a block that does not deny'))})
elif 'HEAVIER' in cmd:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'denied on a steer',
         'additionalContext': json.dumps(agc('steer', 'only-a-hint', 'a hint that blocked'))})
elif 'ASKME' in cmd:
    out({'permissionDecision': 'ask', 'permissionDecisionReason': 'confirm', 'additionalContext': json.dumps(agc('steer', 'ask-first', 'a person should confirm this'))})
