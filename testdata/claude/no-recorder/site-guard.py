#!/usr/bin/env python3
"""Never runs in this scenario: the hooks name agc-record, which is not installed, so every hook
exits 127 and Claude Code runs each call unguarded."""
import sys
sys.exit(0)
