#!/usr/bin/env python3
# Factory Droid guard of testdata/droid: answers PreToolUse/PostToolUse by the command (or the file
# Create writes) with AGC responses of gate "repo-policy", in every answer form Droid was seen to read
# or ignore (docs/runtimes-droid.md). Commands are harmless if a form lets them run.
import json, sys
ev = json.loads(sys.stdin.read())
event = ev.get('hook_event_name')
tool = ev.get('tool_name') or ''
ti = ev.get('tool_input') or {}
text = ti.get('command') or ti.get('file_path') or ''
target = tool + ('.command' if 'command' in ti else '.file_path')
def agc(verdict, rule, msg):
    return json.dumps({"agc": "0.1", "gate": {"id": "repo-policy", "kind": "runtime"}, "verdict": verdict,
                       "findings": [{"rule": rule, "message": msg, "target": target}]})
def line(rule, msg):
    return 'AGC block: repo-policy/' + rule + '/' + target + ' — ' + msg
def out(hso, **top):
    hso['hookEventName'] = event
    print(json.dumps(dict(top, hookSpecificOutput=hso)))
if event == 'PostToolUse':
    if 'git log' in text:
        out({'additionalContext': agc('block', 'history-is-private', 'do not quote commit history')},
            decision='block', reason=line('history-is-private', 'do not quote commit history'))
    elif 'cat README' in text:
        out({'additionalContext': agc('steer', 'docs-are-stale', 'README.md is out of date; read docs/ instead')})
    sys.exit(0)
if 'rm -rf node_modules' in text:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'not in this repository',
         'additionalContext': agc('block', 'keep-vendored', 'node_modules is vendored here')})
elif text.startswith('sed -i'):
    sys.stderr.write(agc('repaired', 'no-inplace-edit', 'edit with a patch instead of sed -i') + '\n'); sys.exit(2)
elif 'git clean' in text:
    sys.stderr.write(agc('steer', 'keep-untracked', 'untracked files may be wanted') + '\n'); sys.exit(2)
elif 'push --force' in text:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': line('no-force-push', 'force pushes rewrite shared history'),
         'additionalContext': agc('block', 'no-force-push', 'force pushes rewrite shared history')})
elif text.endswith('.env'):
    out({'permissionDecision': 'deny', 'permissionDecisionReason': line('no-env-file', 'secrets files are not written by agents')})
elif 'npm publish' in text:
    sys.stderr.write(line('no-publish', 'publishing is done by the release job') + '\n'); sys.exit(2)
elif 'terraform apply' in text:
    sys.stderr.write(agc('block', 'no-apply', 'infrastructure changes go through review') + '\n'); sys.exit(2)
elif 'pip install' in text:
    out({'updatedInput': dict(ti, command='echo pip install needs a lock file'),
         'additionalContext': agc('repaired', 'pinned-installs', 'install replaced: use the lock file')})
elif 'docker run' in text:
    out({'permissionDecision': 'allow', 'updatedInput': dict(ti, command='echo docker run skipped'),
         'additionalContext': agc('repaired', 'no-containers', 'container run replaced by a no-op')})
elif 'make lint' in text:
    out({'additionalContext': agc('steer', 'lint-in-ci', 'lint runs in CI; run make test instead')})
elif 'chmod 777' in text:
    print(json.dumps({'decision': 'block', 'reason': line('no-world-writable', 'world-writable files are refused')}))
elif 'uname' in text:
    out({'permissionDecision': 'ask', 'permissionDecisionReason': 'confirm the host query',
         'additionalContext': agc('steer', 'host-info', 'a person should confirm host queries')})
elif 'git reset --hard' in text:
    print(json.dumps({'continue': False, 'stopReason': line('no-hard-reset', 'uncommitted work would be lost')}))
elif 'kubectl delete' in text:
    sys.stderr.write(line('no-cluster-delete', 'cluster objects are deleted by the platform team') + '\n'); sys.exit(3)
elif text.startswith('date'):
    raise KeyError('policy table missing')
