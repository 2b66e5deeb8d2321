#!/usr/bin/env python3
# Copilot CLI preToolUse guard for the replay: answers by the command text, with AGC responses.
import json, sys
ev = json.loads(sys.stdin.read())
ta = ev.get('toolArgs') or {}
cmd = ta.get('command') or ''
def agc(verdict, rule, msg, target='bash.command'):
    return json.dumps({"agc": "0.1", "gate": {"id": "copilot-guard", "kind": "runtime"}, "verdict": verdict,
                       "findings": [{"rule": rule, "message": msg, "target": target}]})
def out(o):
    print(json.dumps(o))
if ev.get('toolName') in ('edit', 'create'):
    out({'additionalContext': agc('steer', 'edit-seen', 'an edit the guard saw', ev.get('toolName') + '.path')})
elif 'rm -rf' in cmd:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'AGC block: copilot-guard/no-rm-rf/bash.command — rm -rf is not allowed here',
         'additionalContext': agc('block', 'no-rm-rf', 'rm -rf is not allowed here')})
elif 'curl ' in cmd:
    out({'permissionDecision': 'allow', 'modifiedArgs': dict(ta, command='echo download skipped'),
         'additionalContext': agc('repaired', 'no-download', 'download replaced by a no-op')})
elif 'CONTEXT' in cmd:
    out({'additionalContext': agc('steer', 'prefer-make', 'use make check instead')})
elif 'CLAUDESTYLE' in cmd:
    out({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'deny', 'permissionDecisionReason': 'claude-style deny',
         'additionalContext': agc('block', 'claude-style', 'a Claude Code answer')}})
elif 'CLAUDEREPAIR' in cmd:
    out({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'allow', 'updatedInput': dict(ta, command='echo repaired'),
         'additionalContext': agc('repaired', 'claude-repair', 'a Claude Code repair')}})
elif 'EXIT2' in cmd:
    sys.stderr.write(agc('block', 'exit-two', 'blocked by exit code 2') + '\n'); sys.exit(2)
elif 'CRASH' in cmd:
    raise RuntimeError('guard bug')
