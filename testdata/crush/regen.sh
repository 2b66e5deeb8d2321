#!/usr/bin/env bash
# Regenerate the Crush records of testdata/crush/<scenario>/ with the real crush
# (../shared/tools/crush-replay, Crush 0.90.0 built from source: ../shared/runtimes/crush/README.md): its
# SQLite store (crush.db, each tool result's hook metadata), the messages dumped from it (messages.jsonl),
# `crush session last --json`, the hook lines of its log, the recorder's log, stdout and the exit status.
# usage: testdata/crush/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
# A folder with a `crush.json.src` file runs with that config (relative to this folder) instead of
# crush.json: bare/ runs the guard without agc-record in front of it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${CRUSH_REPLAY:-/work/shared/tools/crush-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
(cd "$repo" && go build -o "$bindir/agc-record" ./cmd/agc-record)
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-crush-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/hooks"
  cfg=$here/crush.json
  [[ -f $here/$s/crush.json.src ]] && cfg=$here/$(cat "$here/$s/crush.json.src")
  cp "$cfg" "$proj/crush.json"
  cp "$here/hooks/guard.py" "$bindir/agc-record" "$proj/hooks/"
  git -C "$proj" init -q
  out=$(mktemp -d)
  # write wants absolute paths: the scenario writes <PROJECT>/… for the project folder.
  sed "s#<PROJECT>#$proj#g" "$here/$s/scenario.json" >"$bindir/scenario.json"
  KEEP_HOME=1 "$replay" "$bindir/scenario.json" "$proj" "$out" || echo "$s: crush exited $?" >&2
  home=$(cat "$out/home-path")
  scrub() { sed -e "s#$proj#<PROJECT>#g" -e "s#$home#<HOME>#g" "$@"; }
  # The store, compacted, with this machine's paths replaced as in the other files.
  rm -f "$here/$s/crush.db"
  python3 - "$home/data/crush.db" "$here/$s/crush.db" "$proj" <<'PY'
import sqlite3, sys
src, dst, proj = sys.argv[1:]
db = sqlite3.connect(src)
db.execute("VACUUM INTO ?", (dst,))
db.close()
db = sqlite3.connect(dst)
db.execute("UPDATE messages SET parts = replace(parts, ?, '<PROJECT>')", (proj,))
db.commit()
db.execute("VACUUM")
db.close()
PY
  scrub "$out/messages.jsonl" >"$here/$s/messages.jsonl"
  scrub "$out/session.json" >"$here/$s/session.json"
  grep -a '"msg":"Hook' "$out/crush.log" | cut -c1-600 | scrub >"$here/$s/crush-hooks.log" || true
  if [[ -f $proj/hook-log.jsonl ]]; then scrub "$proj/hook-log.jsonl" >"$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  scrub "$out/stdout.txt" >"$here/$s/stdout.txt"
  (cd "$proj" && for f in NOTES.md .env build.sh; do [[ -f $f ]] && printf '%s: %s (%s)\n' "$f" "$(jq -Rs . "$f")" "$(stat -c %a "$f")"; done; true) >"$here/$s/files.txt"
  cp "$out/exit-status" "$here/$s/exit-status"
  rm -rf "$out" "$home"
  echo "$s: done ($(cat "$here/$s/exit-status"))"
done
