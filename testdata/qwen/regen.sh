#!/usr/bin/env bash
# Regenerate the Qwen Code replay records of testdata/qwen/<scenario>/ with the real qwen
# (../shared/tools/qwen-replay): stream-json, the chat transcript, the recorder's log, and what the
# scripted model received after each tool call (model-saw.jsonl).
# usage: testdata/qwen/regen.sh [SCENARIO...]   (default: every folder with a scenario.json)
# A folder with an `approval-mode` file runs in that mode instead of --yolo (the replay always passes
# --yolo, so a `node` shim on PATH swaps it for --approval-mode=MODE); one with a `permissions.json`
# has it merged into the project's settings (headless Qwen Code denies a tool that needs approval
# before any hook runs, so the other modes' runs allow run_shell_command and write_file there).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=${QWEN_REPLAY:-/work/shared/tools/qwen-replay}
repo=$(cd "$here/../.." && pwd)
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
(cd "$repo" && go build -o "$bindir/agc-record" ./cmd/agc-record)
realnode=$(command -v node)
mkdir -p "$bindir/shim"
cat >"$bindir/shim/node" <<SHIM
#!/usr/bin/env bash
args=()
for a in "\$@"; do
  if [[ \$a == --yolo && -n \${QWEN_APPROVAL_MODE:-} ]]; then a=--approval-mode=\$QWEN_APPROVAL_MODE; fi
  args+=("\$a")
done
exec "$realnode" "\${args[@]}"
SHIM
chmod +x "$bindir/shim/node"
cd "$here"
scenarios=("$@")
((${#scenarios[@]})) || mapfile -t scenarios < <(for d in */scenario.json; do dirname "$d"; done)
for s in "${scenarios[@]}"; do
  proj=/tmp/agc-qwen-replay/$s
  rm -rf "$proj"; mkdir -p "$proj/.qwen/hooks"
  if [[ -f $here/$s/permissions.json ]]; then
    jq -s '.[0] * .[1]' "$here/.qwen/settings.json" "$here/$s/permissions.json" >"$proj/.qwen/settings.json"
  else cp "$here/.qwen/settings.json" "$proj/.qwen/settings.json"; fi
  cp "$here/hooks/guard.py" "$bindir/agc-record" "$proj/.qwen/hooks/"
  out=$(mktemp -d)
  mode=$(cat "$here/$s/approval-mode" 2>/dev/null || true)
  # write_file wants absolute paths: the scenario writes <PROJECT>/… for the project folder.
  sed "s#<PROJECT>#$proj#g" "$here/$s/scenario.json" >"$bindir/scenario.json"
  PATH="$bindir/shim:$PATH" QWEN_APPROVAL_MODE=$mode FAKE_MODEL_FULL=1 \
    "$replay" "$bindir/scenario.json" "$proj" "$out" || echo "$s: qwen exited $?" >&2
  home=$(grep -o '/tmp/tmp\.[A-Za-z0-9]*' "$proj/hook-log.jsonl" 2>/dev/null | head -1 || true)
  # Paths of this machine become <PROJECT> and <HOME> (the replay's throwaway home).
  scrub() { sed -e "s#$proj#<PROJECT>#g" ${home:+-e "s#$home#<HOME>#g"} "$@"; }
  scrub "$out/stream.jsonl" >"$here/$s/stream.jsonl"
  rm -rf "$here/$s/chats"; mkdir -p "$here/$s/chats"
  for f in "$out"/session/projects/*/chats/*.jsonl; do [[ -f $f ]] && scrub "$f" >"$here/$s/chats/$(basename "$f")"; done
  if [[ -f $proj/hook-log.jsonl ]]; then scrub "$proj/hook-log.jsonl" >"$here/$s/hook-log.jsonl"; else rm -f "$here/$s/hook-log.jsonl"; fi
  # The evidence of what reached the model: for each main request, the messages after the model's
  # last turn (the tool results of its calls, with what Qwen Code appended to them).
  jq -c 'select(.main and .tool_results > 0) | .body.messages as $m
         | ([$m | to_entries[] | select(.value.role == "assistant") | .key] | last // -1) as $a
         | {tool_results, after: [$m[($a + 1):][] | {role, tool_call_id, content}]}' \
    "$out/model-requests.jsonl" | scrub >"$here/$s/model-saw.jsonl"
  # What the project holds afterwards (write_file's real effect).
  (cd "$proj" && for f in notes.txt plain.txt; do [[ -f $f ]] && printf '%s: %s\n' "$f" "$(jq -Rs . "$f")"; done; true) >"$here/$s/files.txt"
  cp "$out/exit-status" "$here/$s/exit-status"
  rm -rf "$out"
  echo "$s: done ($(cat "$here/$s/exit-status"))"
done
