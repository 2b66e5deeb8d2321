#!/usr/bin/env python3
# Crush guard of testdata/crush: answers PreToolUse by the command (or the file write writes) with AGC
# responses of gate "ship-check", in Crush's own envelope (decision, reason, context, updated_input, halt),
# Claude Code's hookSpecificOutput, exit 2 and exit 49 (docs/runtimes-crush.md). Commands are harmless if
# a form lets them run.
import json, sys
ev = json.loads(sys.stdin.read())
tool = ev.get('tool_name') or ''
ti = ev.get('tool_input') or {}
text = ti.get('command') or ti.get('file_path') or ''
target = tool + ('.command' if 'command' in ti else '.file_path')
def agc(verdict, rule, msg):
    return json.dumps({"agc": "0.1", "gate": {"id": "ship-check", "kind": "runtime"}, "verdict": verdict,
                       "findings": [{"rule": rule, "message": msg, "target": target}]})
def line(rule, msg):
    return 'AGC block: ship-check/' + rule + '/' + target + ' — ' + msg
def say(**kw):
    print(json.dumps(kw))
def claude(**hso):
    hso['hookEventName'] = 'PreToolUse'
    say(hookSpecificOutput=hso)
if 'rm -rf node_modules' in text:
    say(decision='deny', reason='not in this repository', context=agc('block', 'keep-vendored', 'node_modules is vendored here'))
elif text.startswith('sed -i'):
    sys.stderr.write(agc('repaired', 'no-inplace-edit', 'edit with a patch instead of sed -i') + '\n'); sys.exit(2)
elif 'git clean' in text:
    sys.stderr.write(agc('steer', 'keep-untracked', 'untracked files may be wanted') + '\n'); sys.exit(2)
elif 'push --force' in text:
    say(decision='deny', reason=line('no-force-push', 'force pushes rewrite shared history'),
        context=agc('block', 'no-force-push', 'force pushes rewrite shared history'))
elif text.endswith('.env'):
    claude(permissionDecision='deny', permissionDecisionReason=line('no-env-file', 'secrets files are not written by agents'))
elif 'npm publish' in text:
    sys.stderr.write(line('no-publish', 'publishing is done by the release job') + '\n'); sys.exit(2)
elif 'terraform apply' in text:
    sys.stderr.write(agc('block', 'no-apply', 'infrastructure changes go through review') + '\n'); sys.exit(2)
elif 'pip install' in text:
    say(updated_input={'command': 'echo pip install needs a lock file'},
        context=agc('repaired', 'pinned-installs', 'install replaced: use the lock file'))
elif 'docker run' in text:
    claude(permissionDecision='allow', updatedInput={'command': 'echo docker run skipped'},
           additionalContext=agc('repaired', 'no-containers', 'container run replaced by a no-op'))
elif 'make lint' in text:
    say(context=[agc('steer', 'lint-in-ci', 'lint runs in CI; run make test instead')])
elif 'chmod 777' in text:
    say(decision='block', reason=line('no-world-writable', 'world-writable files are refused'))
elif 'uname' in text:
    print('{"decision": "deny", ')
elif 'git reset --hard' in text:
    say(halt=True, reason=line('no-hard-reset', 'uncommitted work would be lost'))
elif 'kubectl delete' in text:
    sys.stderr.write(line('no-cluster-delete', 'cluster objects are deleted by the platform team') + '\n'); sys.exit(49)
elif text.startswith('date'):
    raise KeyError('policy table missing')
