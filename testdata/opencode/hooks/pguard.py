#!/usr/bin/env python3
# pguard: a Claude Code guard, unchanged, run by agc-hooks.js under OpenCode and Kilo Code.
import json, sys
e = json.load(sys.stdin)
ev = e.get('hook_event_name')
inp = e.get('tool_input') or {}
cmd = inp.get('command') or ''
tool = e.get('tool_name')
def agc(v, r, m, target='bash.command', **kw):
    return json.dumps({'agc': '0.1', 'gate': {'id': 'pguard', 'kind': 'runtime'}, 'verdict': v,
                       'findings': [dict({'rule': r, 'target': target, 'message': m}, **kw)]})
def out(hso, **top):
    print(json.dumps(dict(top, hookSpecificOutput=dict({'hookEventName': ev}, **hso))))
if ev == 'PostToolUse':
    if 'du -sh' in cmd:
        out({'additionalContext': agc('steer', 'size-noted', 'the size was read.')})
    sys.exit(0)
if tool == 'write':
    out({'additionalContext': agc('steer', 'write-seen', 'a file was written.', target='write.filePath')})
elif 'git reset --hard' in cmd:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'AGC block: pguard/no-hard-reset/bash.command — hard reset loses work'})
elif cmd.startswith('wget '):
    new = cmd.replace('wget ', 'echo would-get ')
    out({'permissionDecision': 'allow', 'updatedInput': {'command': new}, 'additionalContext': agc('repaired', 'no-wget', 'no downloads.', repair={'before': cmd, 'after': new})})
elif 'dd if=' in cmd:
    sys.stderr.write('AGC block: pguard/no-dd/bash.command — dd is refused\n'); sys.exit(2)
elif 'BOOM' in cmd:
    raise SystemExit(5)
