import json, sys
e = json.load(sys.stdin)
post = e.get('hookName') == 'tool_result'
call = (e.get('tool_result') if post else e.get('tool_call')) or {}
cmd = ' '.join((call.get('input') or {}).get('commands') or [])
def agc(v, r, m, **kw):
    return json.dumps({'agc': '0.1', 'gate': {'id': 'vguard', 'kind': 'runtime'}, 'verdict': v, 'findings': [dict({'rule': r, 'target': 'run_commands.commands', 'message': m}, **kw)]})
if post:
    if 'cat ' in cmd:
        sys.stderr.write('AGC steer: vguard/post-exit/run_commands.commands — exit 2 after\n'); sys.exit(2)
    sys.exit(0)
if 'terraform apply' in cmd:
    print(json.dumps({'contextModification': agc('block', 'no-apply', 'apply is refused.')}))
elif 'pip install' in cmd:
    new = [c.replace('pip install', 'pip download --no-deps') for c in call['input']['commands']]
    print('HOOK_CONTROL\t' + json.dumps({'overrideInput': {'commands': new}, 'context': agc('repaired', 'no-install', 'download only.', repair={'before': cmd, 'after': ' '.join(new)})}))
elif 'make deploy' in cmd:
    print(json.dumps({'cancel': True, 'errorMessage': agc('block', 'no-deploy', 'deploys need a review.')}))
