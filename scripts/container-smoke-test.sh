#!/usr/bin/env bash
# container-smoke-test: build the action's image and run it the way the GitHub runner does — no
# arguments, GITHUB_ACTIONS=true, inputs as INPUT_<NAME> (hyphens kept), the workspace mounted at
# /github/workspace — against testdata/action/workspace and a fake code scanning API on the
# loopback. Checks the exit status, the SARIF, the outputs, the job summary, the annotations and the
# upload the fake received. Then a second run, on a two-commit repository with the input base: the
# image has no git, so the diff is read in-process, and a Bash event of the recorded session must
# move from the hook's line onto a line the change added (docs/sarif.md, "Beside the session's edits").
#
# usage: scripts/container-smoke-test.sh        (from the repository root)
# env:   SMOKE=path/to/container-smoke (default ../shared/tools/container-smoke, else
#        /work/shared/tools/container-smoke); SMOKE_ARGS=extra arguments for the container
#        (default none: a bare run must be the action).
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=${SMOKE:-}
for c in ../shared/tools/container-smoke /work/shared/tools/container-smoke; do
  [[ -z $smoke && -x $c ]] && smoke=$c
done
[[ -n $smoke ]] || { echo "container-smoke-test: no container-smoke tool (set SMOKE)" >&2; exit 2; }

tag=localhost/agc-sarif:smoke
token=ghs_smoketoken_$RANDOM$RANDOM
sha=0123456789abcdef0123456789abcdef01234567
work=$(mktemp -d)
fakepid=
cleanup() { [[ -n $fakepid ]] && kill "$fakepid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "container-smoke-test: FAIL: $*" >&2; exit 1; }


# the workspace as actions/checkout leaves it, plus the runner's file-command files
ws=$work/ws
mkdir -p "$ws/.git" "$ws/_runner"
cp -r testdata/action/workspace/. "$ws/"
echo "$sha" >"$ws/.git/HEAD"
cp testdata/action/event-pull-request.json "$ws/_runner/event.json"
: >"$ws/_runner/output.txt"
: >"$ws/_runner/summary.md"

# the fake API, on the loopback (the container runs with --net host)
go build -o "$work/fakegh" ./upload/fakegh/cmd/fakegh
# the pull request adds lines 5-6 of src/app.go: only the finding there is annotated
printf '%s\n' 'diff --git a/src/app.go b/src/app.go' '--- a/src/app.go' '+++ b/src/app.go' '@@ -4,0 +5,2 @@' \
  '+	_ = query' '+	return' >"$work/pr.diff"
FAKEGH_TOKEN=$token "$work/fakegh" -pr-diff "7=$work/pr.diff" >"$work/fake.url" 2>"$work/fake.err" &
fakepid=$!
for _ in $(seq 50); do [[ -s $work/fake.url ]] && break; sleep 0.1; done
api=$(head -n1 "$work/fake.url")
[[ $api == http://127.0.0.1:* ]] || fail "fake API did not start: $(cat "$work/fake.err")"

set +e
# shellcheck disable=SC2086 # SMOKE_ARGS is a list of words
"$smoke" -t "$tag" -w "$ws" --net host \
  -e GITHUB_ACTIONS=true \
  -e GITHUB_OUTPUT=/github/workspace/_runner/output.txt \
  -e GITHUB_STEP_SUMMARY=/github/workspace/_runner/summary.md \
  -e GITHUB_EVENT_PATH=/github/workspace/_runner/event.json \
  -e GITHUB_EVENT_NAME=pull_request \
  -e GITHUB_REPOSITORY=octo/repo \
  -e GITHUB_SHA=$sha \
  -e GITHUB_REF=refs/pull/7/merge \
  -e GITHUB_SERVER_URL=https://github.com \
  -e GITHUB_API_URL="$api" \
  -e GITHUB_JOB=agc \
  -e GITHUB_WORKFLOW_REF=octo/repo/.github/workflows/agc.yml@refs/pull/7/merge \
  -e INPUT_PATHS=.agc \
  -e INPUT_FORMAT=auto \
  -e INPUT_CATEGORY= \
  -e INPUT_FAIL-ON=judgment-block,contract \
  -e INPUT_UPLOAD=true \
  -e INPUT_TOKEN="$token" \
  -e INPUT_SARIF-FILE=agc-results.sarif \
  -e INPUT_WAIT-FOR-PROCESSING=true \
  -e INPUT_MAX-ANNOTATIONS=10 \
  -e INPUT_SUMMARY=true \
  -e INPUT_ROOT= \
  -e INPUT_INCLUDE-UNSTRUCTURED=true \
  -e INPUT_DIFF-FILTER=added \
  -e INPUT_BASE= \
  -- ${SMOKE_ARGS:-} >"$work/stdout" 2>"$work/stderr"
status=$?
set -e
echo "--- container stdout"; cat "$work/stdout"; echo "--- container stderr"; cat "$work/stderr"; echo "---"
size=$(podman image inspect --format '{{.Size}}' "$tag" 2>/dev/null || echo unknown)
echo "container-smoke-test: image $tag is $size bytes"

[[ $status == 1 ]] || fail "exit status $status, want 1 (a reviewer's block and a contract breach with fail-on judgment-block,contract)"

# SARIF
sarif=$ws/agc-results.sarif
[[ -s $sarif ]] || fail "no SARIF at $sarif"
jq -e '.version == "2.1.0" and (.runs | length) == 1 and (.runs[0].results | length) > 0' "$sarif" >/dev/null ||
  fail "SARIF is not a 2.1.0 log with one run and results"
for v in ../shared/tools/sarif-validate /work/shared/tools/sarif-validate; do
  if [[ -x $v ]]; then "$v" "$sarif" || fail "sarif-validate rejected the SARIF"; echo "container-smoke-test: sarif-validate passed"; break; fi
done

# outputs, read as the runner reads GITHUB_OUTPUT (name<<DELIM ... DELIM)
declare -A out
name='' delim='' val=''
while IFS= read -r line; do
  if [[ -z $name ]]; then
    if [[ $line == *'<<'* ]]; then name=${line%%<<*}; delim=${line#*<<}; val=
    elif [[ -n $line ]]; then fail "output line neither name<<delimiter nor empty: $line"; fi
  elif [[ $line == "$delim" ]]; then out[$name]=$val; name=
  else val=${val:+$val$'\n'}$line; fi
done <"$ws/_runner/output.txt"
[[ -z $name ]] || fail "output $name never closed"
[[ $delim == ghadelimiter_* ]] || fail "delimiter $delim is not ghadelimiter_<random>"
for k in sarif-file findings blocks repairs steers contract-findings sarif-id uploaded; do
  [[ -v out[$k] ]] || fail "output $k missing"
done
[[ ${out[sarif-file]} == agc-results.sarif ]] || fail "sarif-file=${out[sarif-file]}"
[[ ${out[blocks]} == 2 && ${out[repairs]} == 1 && ${out[steers]} == 1 ]] || fail "counts blocks=${out[blocks]} repairs=${out[repairs]} steers=${out[steers]}"
[[ ${out[contract-findings]} -ge 1 ]] || fail "contract-findings=${out[contract-findings]}"
[[ ${out[uploaded]} == true && -n ${out[sarif-id]} ]] || fail "uploaded=${out[uploaded]} sarif-id=${out[sarif-id]}"

# summary
grep -q '^## AGC gates' "$ws/_runner/summary.md" || fail "no job summary"
grep -q '```mermaid' "$ws/_runner/summary.md" || fail "no pie in the summary"
# <br> is the summary's own line break inside a table cell or list item (agent text never starts
# a block), <details><summary> its own collapsed full texts; any other tag, or a mention that
# pings, would come from agent text.
! sed 's/<br>//g; s/<details><summary>//g; s|</summary>||g; s|</details>||g' "$ws/_runner/summary.md" | grep -qE '<[A-Za-z/!]|@[A-Za-z0-9]' ||
  fail "raw HTML or a pinging mention in the summary"

# annotations (only those on the pull request's added lines) and the token
grep -q '^::error .*file=src/app.go,line=5' "$work/stdout" || fail "no error annotation on src/app.go line 5"
! grep -q '^::notice .*title=style/naming' "$work/stdout" || fail "a finding outside the diff was annotated"
! grep -q 'could not read the diff' "$work/stdout" || fail "the diff filter could not read the pull request's diff"
# The summary lists every finding: those on the change's lines apart from the rest.
grep -q "^### On this change's lines (" "$ws/_runner/summary.md" || fail "the summary has no group of findings on the change's lines"
grep -q '^### Elsewhere in the repository (' "$ws/_runner/summary.md" || fail "the summary does not list the findings outside the diff"
sed -n '/^### Elsewhere in the repository/,/^### /p' "$ws/_runner/summary.md" | grep -q 'style/naming' || fail "the finding outside the diff is not listed under Elsewhere in the repository"
! grep -qE '^::(set-output|add-mask::x)' "$work/stdout" || fail "agent text started a workflow command"
[[ $(grep -c "$token" "$work/stdout" "$work/stderr" "$ws/_runner/summary.md" "$sarif" | awk -F: '{s+=$2} END {print s}') == 1 ]] ||
  fail "the token appears somewhere other than its ::add-mask:: line"
grep -qx "::add-mask::$token" "$work/stdout" || fail "token not masked"

# what the fake API received
report=$(curl -fsS "$api/_fake/report")
jq -e '.violations == null or (.violations | length) == 0' <<<"$report" >/dev/null || fail "API violations: $(jq -c .violations <<<"$report")"
jq -e --arg sha $sha '(.uploads | length) == 1 and .uploads[0].ref == "refs/pull/7/merge" and .uploads[0].commit_sha == $sha
  and .uploads[0].checkout_uri == "file:///github/workspace"' <<<"$report" >/dev/null || fail "upload: $(jq -c '.uploads | map(del(.sarif))' <<<"$report")"

# second run: base on a two-commit repository (the real Claude Code session of
# testdata/claude/session-anchor), no API: the diff comes from the image alone
repo=$work/repo
mkdir -p "$repo/src" "$repo/.claude" "$repo/_runner"
sa=testdata/claude/session-anchor
cp $sa/files/src/app.py "$repo/src/app.py"
cp $sa/files/README.md "$repo/README.md"
cp $sa/settings.json "$repo/.claude/settings.json"
printf '_runner/\n' >"$repo/.gitignore"
g() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com \
  GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com git -C "$repo" "$@"; }
g init -q -b main && g add -A && g commit -q -m base
cp $sa/change/src/app.py "$repo/src/app.py"
cp $sa/change/src/util.py "$repo/src/util.py"
g add -A && g commit -q -m change
cp $sa/session.jsonl "$repo/_runner/session.jsonl"
head2=$(g rev-parse HEAD)
# the lines of src/app.py the change added, as git itself says
mapfile -t added < <(g diff -U0 HEAD~1 HEAD -- src/app.py | sed -n 's/^@@ -[0-9,]* +\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} @@.*/\1 \3/p' |
  while read -r start n; do n=${n:-1}; for ((i = start; i < start + n; i++)); do echo "$i"; done; done)
((${#added[@]})) || fail "the two-commit repository's change adds no line to src/app.py"
: >"$repo/_runner/output.txt"
: >"$repo/_runner/summary.md"
cp testdata/action/event-push.json "$repo/_runner/event.json"
set +e
"$smoke" -t "$tag" -w "$repo" --net none \
  -e GITHUB_ACTIONS=true \
  -e GITHUB_OUTPUT=/github/workspace/_runner/output.txt \
  -e GITHUB_STEP_SUMMARY=/github/workspace/_runner/summary.md \
  -e GITHUB_EVENT_PATH=/github/workspace/_runner/event.json \
  -e GITHUB_EVENT_NAME=push \
  -e GITHUB_REPOSITORY=octo/repo \
  -e GITHUB_SHA="$head2" \
  -e GITHUB_REF=refs/heads/main \
  -e GITHUB_JOB=agc \
  -e INPUT_PATHS=_runner/session.jsonl \
  -e INPUT_FAIL-ON=none \
  -e INPUT_UPLOAD=false \
  -e INPUT_SARIF-FILE=base.sarif \
  -e INPUT_DIFF-FILTER=added \
  -e INPUT_SESSION-ANCHOR=edit \
  -e INPUT_BASE=HEAD~1 \
  -- >"$work/base.stdout" 2>"$work/base.stderr"
status=$?
set -e
echo "--- base run stdout"; cat "$work/base.stdout"; echo "--- base run stderr"; cat "$work/base.stderr"; echo "---"
[[ $status == 0 ]] || fail "base run: exit status $status, want 0 (fail-on none)"
! grep -q 'executable file not found' "$work/base.stdout" "$work/base.stderr" || fail "base run: the image looked for a git binary"
! grep -q 'could not read the diff' "$work/base.stdout" || fail "base run: the diff against HEAD~1 could not be read in the image"
bsarif=$repo/base.sarif
[[ -s $bsarif ]] || fail "base run: no SARIF"
# a Bash event (no file of its own) placed beside the session's edit: on src/app.py, on an added line
moved=$(jq -r '.runs[0].results[] | select(.message.text | test("Anchored beside the agent.s edit of src/app.py"))
  | .locations[0].physicalLocation | "\(.artifactLocation.uri) \(.region.startLine)"' "$bsarif")
[[ -n $moved ]] || fail "base run: no result anchored beside the edit of src/app.py: $(jq -c '[.runs[0].results[].locations[0].physicalLocation | [.artifactLocation.uri, .region.startLine]]' "$bsarif")"
while read -r uri line; do
  [[ $uri == src/app.py ]] || fail "base run: moved event placed on $uri"
  printf '%s\n' "${added[@]}" | grep -qx "$line" || fail "base run: moved event on src/app.py:$line, not an added line (${added[*]})"
done <<<"$moved"
jq -e '[.runs[0].results[] | select(.message.text | test("Anchored beside")) | .relatedLocations[0].physicalLocation.artifactLocation.uri] | all(. == ".claude/settings.json")' "$bsarif" >/dev/null ||
  fail "base run: the hook's settings line is not the related location of a moved event"
echo "container-smoke-test: base HEAD~1 in the image moved $(wc -l <<<"$moved") command event(s) onto added lines: $(tr '\n' ' ' <<<"$moved")"

echo "container-smoke-test: PASS (image $size bytes)"
