#!/usr/bin/env python3
# kguard: a Claude-shaped guard run by agc-hooks.js under Kilo Code.
import json, sys
e = json.load(sys.stdin)
ev = e.get('hook_event_name')
cmd = (e.get('tool_input') or {}).get('command') or ''
def agc(v, r, m, **kw):
    return json.dumps({'agc': '0.1', 'gate': {'id': 'kguard', 'kind': 'runtime'}, 'verdict': v,
                       'findings': [dict({'rule': r, 'target': 'bash.command', 'message': m}, **kw)]})
if ev == 'PostToolUse':
    if 'uname' in cmd:
        print(json.dumps({'decision': 'block', 'reason': 'AGC steer: kguard/post-uname/bash.command — platform noted'}))
    sys.exit(0)
if 'kill -9' in cmd:
    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'ask', 'permissionDecisionReason': 'AGC block: kguard/no-kill/bash.command — ask first'}}))
elif cmd.startswith('scp '):
    new = 'echo would-copy'
    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'updatedInput': {'command': new}, 'additionalContext': agc('repaired', 'no-scp', 'no copies out.', repair={'before': cmd, 'after': new})}}))
elif 'shred' in cmd:
    sys.stderr.write(agc('block', 'no-shred', 'shred is refused.') + '\n'); sys.exit(2)
elif 'history' in cmd:
    print('not json at all')
