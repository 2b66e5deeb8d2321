#!/usr/bin/env python3
# Qwen Code PreToolUse/PostToolUse guard for the replay: answers by the command text (or the file
# content of write_file), with AGC responses, as the Codex, Gemini and Copilot replays do.
import json, sys
ev = json.loads(sys.stdin.read())
event = ev.get('hook_event_name')
tool = ev.get('tool_name') or ''
ti = ev.get('tool_input') or {}
field = 'content' if tool == 'write_file' else 'command'
text = ti.get(field) or ''
target = tool + '.' + field
def agc(verdict, rule, msg):
    return json.dumps({"agc": "0.1", "gate": {"id": "qwen-guard", "kind": "runtime"}, "verdict": verdict,
                       "subject": {"runtime": "qwen-code", "event": event, "tool": tool, "tool_use_id": ev.get('tool_call_id')},
                       "findings": [{"rule": rule, "message": msg, "target": target}]})
def out(hso, **top):
    hso['hookEventName'] = event
    print(json.dumps(dict(top, hookSpecificOutput=hso)))
if event == 'PostToolUse':
    if 'POSTBLOCK' in text:
        out({'additionalContext': agc('block', 'post-block', 'the output of this call is refused')},
            decision='block', reason='AGC block: qwen-guard/post-block/' + target + ' — the output of this call is refused')
    elif 'POSTSTOP' in text:
        out({'additionalContext': agc('block', 'post-stop', 'stopped after the call')},
            **{'continue': False, 'stopReason': 'AGC block: qwen-guard/post-stop/' + target + ' — stopped after the call'})
    elif 'AFTERCODE2' in text:
        sys.stderr.write('AGC block: qwen-guard/post-exit-two/' + target + ' — blocked after the call by exit code 2\n'); sys.exit(2)
    elif 'POSTCONTEXT' in text or tool == 'write_file':
        out({'additionalContext': agc('steer', 'post-note', 'review what this call changed')})
    sys.exit(0)
if 'rm -rf' in text:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'AGC block: qwen-guard/no-rm-rf/' + target + ' — rm -rf is not allowed here',
         'additionalContext': agc('block', 'no-rm-rf', 'rm -rf is not allowed here')})
elif 'curl ' in text:
    out({'permissionDecision': 'allow', 'permissionDecisionReason': 'repaired', 'updatedInput': dict(ti, command='echo download skipped'),
         'additionalContext': agc('repaired', 'no-download', 'download replaced by a no-op')})
elif 'wget ' in text:
    out({'updatedInput': dict(ti, command='echo download skipped'), 'additionalContext': agc('repaired', 'no-download', 'download replaced by a no-op')})
elif 'ASKREPAIR' in text:
    out({'permissionDecision': 'ask', 'permissionDecisionReason': 'confirm the repair', 'updatedInput': dict(ti, command='echo ask-repaired'),
         'additionalContext': agc('repaired', 'ask-repair', 'repaired, a person should confirm')})
elif 'DRAFT' in text:
    out({'permissionDecision': 'allow', 'permissionDecisionReason': 'repaired', 'updatedInput': dict(ti, content='REPAIRED by the guard\n'),
         'additionalContext': agc('repaired', 'no-draft', 'draft content replaced')})
elif 'CONTEXT' in text:
    out({'additionalContext': agc('steer', 'prefer-make', 'use make check instead')})
elif 'REPAIREXIT2' in text:
    sys.stderr.write(agc('repaired', 'exit-two-repair', 'a repair cannot ride on exit 2') + '\n'); sys.exit(2)
elif 'EXITTEXT' in text:
    sys.stderr.write('AGC block: qwen-guard/exit-two-text/' + target + ' — blocked by exit code 2 with a text reason\n'); sys.exit(2)
elif 'EXIT2' in text:
    sys.stderr.write(agc('block', 'exit-two', 'blocked by exit code 2') + '\n'); sys.exit(2)
elif 'CRASH' in text:
    raise RuntimeError('guard bug')
elif 'NOINPUT' in text:
    out({'permissionDecision': 'allow', 'permissionDecisionReason': 'ok', 'additionalContext': agc('repaired', 'lost-repair', 'repaired without the new input')})
elif 'LETTHROUGH' in text:
    out({'additionalContext': agc('block', 'soft-block', 'a block that does not deny')})
elif 'HEAVIER' in text:
    out({'permissionDecision': 'deny', 'permissionDecisionReason': 'denied on a steer', 'additionalContext': agc('steer', 'only-a-hint', 'a hint that blocked')})
elif 'ASKME' in text:
    out({'permissionDecision': 'ask', 'permissionDecisionReason': 'confirm', 'additionalContext': agc('steer', 'ask-first', 'a person should confirm this')})
