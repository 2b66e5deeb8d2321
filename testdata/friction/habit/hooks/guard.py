#!/usr/bin/env python3
"""Guard hook of the friction habit replay (testdata/friction/habit): one PreToolUse guard for Bash
with one rule, shell-ladder/python3-only, that blocks every `python …` (exit 2, text form of AGC).
Anything else gets no answer (exit 0)."""
import json, sys

inp = json.load(sys.stdin)
words = ((inp.get("tool_input") or {}).get("command") or "").split()
if words and words[0] == "python":
    sys.stderr.write("AGC block: shell-ladder/python3-only/Bash.command — use python3: python is not installed here\n")
    sys.exit(2)
sys.exit(0)
