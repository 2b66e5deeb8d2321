#!/usr/bin/env python3
"""Print, for each call of a recorded Qwen Code replay, what the guard answered and what the model got.

usage: facts.py SCENARIO_DIR...   (e.g. testdata/qwen/run testdata/qwen/default)
Columns: call id; the command or file; PreToolUse answer; PostToolUse answer; ran (a PostToolUse hook
saw the call, or the result is the tool's own output); what the model received as the call's result (model-saw.jsonl);
whether each AGC response a hook sent in additionalContext reached the model (its JSON is in the result).
"""
import json, os, sys

def load(path):
    try:
        with open(path) as f:
            return [json.loads(l) for l in f if l.strip()]
    except FileNotFoundError:
        return []

def answer(rec):
    if rec is None:
        return '-'
    if rec['exit_code'] != 0:
        return 'exit %d %s' % (rec['exit_code'], rec['stderr'].strip().splitlines()[-1][:50] if rec['stderr'].strip() else '')
    if not rec['stdout'].strip():
        return 'empty'
    o = json.loads(rec['stdout'])
    h = o.get('hookSpecificOutput') or {}
    parts = [k + '=' + str(v) for k, v in o.items() if k in ('decision', 'continue')]
    parts += [h[k] for k in ('permissionDecision',) if k in h]
    parts += ['updatedInput' for k in ('updatedInput',) if k in h]
    parts += ['context' for k in ('additionalContext',) if k in h]
    return ' '.join(parts)

for d in sys.argv[1:]:
    mode = open(os.path.join(d, 'approval-mode')).read().strip() if os.path.exists(os.path.join(d, 'approval-mode')) else 'yolo'
    print('## %s (--approval-mode %s)' % (os.path.basename(d.rstrip('/')), mode))
    hooks = load(os.path.join(d, 'hook-log.jsonl'))
    saw = {}
    for r in load(os.path.join(d, 'model-saw.jsonl')):
        for m in r['after']:
            if m['role'] == 'tool':
                c = m['content']
                saw[m['tool_call_id']] = c if isinstance(c, str) else ''.join(p.get('text', '') for p in c)
    calls = []
    for r in load(os.path.join(d, 'stream.jsonl')):
        if r.get('type') == 'assistant':
            for c in r['message']['content']:
                if c.get('type') == 'tool_use':
                    calls.append(c)
    print('| call | input | PreToolUse | PostToolUse | ran | model got | contexts reached the model |')
    print('|---|---|---|---|---|---|---|')
    for c in calls:
        cid = c['id']
        pre = next((h for h in hooks if h['input'].get('tool_call_id') == cid and h['input']['hook_event_name'] == 'PreToolUse'), None)
        post = next((h for h in hooks if h['input'].get('tool_call_id') == cid and h['input']['hook_event_name'] == 'PostToolUse'), None)
        got = saw.get(cid, '')
        ctx = []
        for ev, h in (('pre', pre), ('post', post)):
            if h and h['exit_code'] == 0 and h['stdout'].strip():
                a = (json.loads(h['stdout']).get('hookSpecificOutput') or {}).get('additionalContext')
                if a:
                    rule = json.loads(a)['findings'][0]['rule']
                    reached = ('"rule": "%s"' % rule) in got
                    ctx.append('%s %s: %s' % (ev, rule, 'yes' if reached else 'no'))
        inp = c['input'].get('command') or c['input'].get('file_path', '').replace('<PROJECT>/', '')
        short = ' '.join(got.replace('|', '\\|').split())[:70]
        print('| %s | `%s` | %s | %s | %s | %s | %s |' % (cid, inp, answer(pre), answer(post), 'yes' if post or got.startswith(('Command:', 'Successfully')) else 'no', short, '; '.join(ctx) or '-'))
    files = os.path.join(d, 'files.txt')
    if os.path.exists(files) and os.path.getsize(files):
        print('\nfiles afterwards: ' + '; '.join(open(files).read().split('\n')).strip('; '))
    print()
