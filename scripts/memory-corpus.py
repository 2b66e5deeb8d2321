#!/usr/bin/env python3
# memory-corpus.py KIND N OUT: N hook-log records as agc-sarif record writes them, for the
# memory measurements of docs/performance.md ("Memory flat in the number of records").
import sys, json

# one: N events (distinct tool_use_id and time) of one rule at one place.
# distinct: N events, each its own rule, command and message: N distinct results.
kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, 'w') as f:
    for i in range(n):
        # varied: every record different (call, command, message, time), rules from 50 gates' rules.
        rule = {'one': 'force-push', 'distinct': 'rule-%07d' % i, 'varied': 'rule-%02d' % (i % 50)}[kind]
        cmd = 'git push --force origin main' if kind == 'one' else 'git push --force origin branch-%07d' % i
        msg = 'Force-pushing rewrites shared history; push a new branch instead.' if kind == 'one' else 'Force-pushing branch-%07d rewrites shared history.' % i
        rec = {"time": "2026-11-30T09:%02d:%02d.%06dZ" % (i // 60000 % 60, i // 1000 % 60, i % 1000000), "runtime": "claude-code",
               "command": ["/repo/hooks/gate.py", "pre"],
               "input": {"session_id": "96261345-235a-4dd1-a62d-684369d8bf53", "cwd": "/repo", "hook_event_name": "PreToolUse",
                         "tool_name": "Bash", "tool_input": {"command": cmd}, "tool_use_id": "toolu_%020d" % i},
               "exit_code": 2, "stdout": "", "stderr": "AGC block: git-safety/%s/Bash.command \u2014 %s" % (rule, msg)}
        f.write(json.dumps(rec, separators=(',', ':')) + '\n')
