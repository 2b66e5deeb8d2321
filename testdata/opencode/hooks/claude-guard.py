#!/usr/bin/env python3
# cguard: a guard written for Claude Code (its tool names and fields: Bash.command, Write/Read
# .file_path), run unchanged by agc-hooks.js under OpenCode and Kilo Code.
import json, sys
e = json.load(sys.stdin)
ev = e.get('hook_event_name')
tool = e.get('tool_name')
inp = e.get('tool_input') or {}
def agc(v, r, m, target, **kw):
    return json.dumps({'agc': '0.1', 'gate': {'id': 'cguard', 'kind': 'runtime'}, 'verdict': v,
                       'findings': [dict({'rule': r, 'target': target, 'message': m}, **kw)]})
def out(**hso):
    print(json.dumps({'hookSpecificOutput': dict({'hookEventName': ev}, **hso)}))
if ev == 'PostToolUse':
    if tool == 'Bash' and inp.get('command', '').startswith('ls '):
        out(additionalContext=agc('steer', 'listing-noted', 'the listing was read.', 'Bash.command'))
    sys.exit(0)
if tool == 'Bash':
    cmd = inp.get('command') or ''
    if '| sh' in cmd:
        out(permissionDecision='deny', permissionDecisionReason='AGC block: cguard/no-pipe-to-shell/Bash.command — piping a download into a shell is refused')
    elif cmd.startswith('rm -rf '):
        new = cmd.replace('rm -rf ', 'echo would-remove ', 1)
        out(permissionDecision='allow', updatedInput={'command': new},
            additionalContext=agc('repaired', 'no-rm-rf', 'nothing is removed.', 'Bash.command', repair={'before': cmd, 'after': new}))
elif tool == 'Write':
    fp = inp.get('file_path') or ''
    if fp.endswith('.env'):
        sys.stderr.write('AGC block: cguard/no-env-write/Write.file_path — secrets files are not written\n'); sys.exit(2)
    elif fp.endswith('/draft.txt'):
        new = fp[:-len('draft.txt')] + 'final.txt'
        out(permissionDecision='allow', updatedInput={'file_path': new, 'content': inp.get('content', '')},
            additionalContext=agc('repaired', 'draft-path', 'drafts are written as final.txt.', 'Write.file_path', repair={'before': fp, 'after': new}))
elif tool == 'Read':
    out(additionalContext=agc('steer', 'read-seen', 'read ' + (inp.get('file_path') or '?'), 'Read.file_path'))
