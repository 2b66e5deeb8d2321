#!/usr/bin/env python3
# lguard: a second guard for Cline's PreToolUse/PostToolUse hook files, other rules than the harness example.
import json, sys
e = json.load(sys.stdin)
post = e.get('hookName') == 'tool_result'
call = (e.get('tool_result') if post else e.get('tool_call')) or {}
tool = call.get('name') or ''
inp = call.get('input') or {}
cmds = inp.get('commands') or []
cmd = ' '.join(cmds) if isinstance(cmds, list) else str(cmds)
def agc(v, r, m, target='run_commands.commands', **kw):
    return json.dumps({'agc': '0.1', 'gate': {'id': 'lguard', 'kind': 'runtime'}, 'verdict': v,
                       'findings': [dict({'rule': r, 'target': target, 'message': m}, **kw)]})
if post:
    if 'wc -l' in cmd:
        print(json.dumps({'context': agc('steer', 'count-seen', 'the count was read; do not recount.')}))
    sys.exit(0)
if tool == 'read_files':
    print(json.dumps({'contextModification': agc('steer', 'read-scope', 'read only what the task needs.', target='read_files.file_paths')}))
elif 'git push --force' in cmd:
    sys.stderr.write('AGC block: lguard/no-force-push/run_commands.commands — force push is refused\n'); sys.exit(2)
elif cmd.startswith('curl '):
    new = [c.replace('curl ', 'echo would-fetch ') for c in cmds]
    print(json.dumps({'overrideInput': dict(inp, commands=new), 'contextModification': agc('repaired', 'no-network', 'no network in this task.', repair={'before': cmd, 'after': ' '.join(new)})}))
elif 'npm publish' in cmd:
    sys.stdout.write('HOOK_CONTROL\t' + json.dumps({'cancel': True, 'errorMessage': 'AGC block: lguard/no-publish/run_commands.commands — publishing is refused'}) + '\n')
elif 'TYPO' in cmd:
    print(json.dumps({'contextModification': 'plain advice without AGC'}) + ' trailing')
elif 'chmod' in cmd:
    sys.exit(3)
