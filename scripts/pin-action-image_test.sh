#!/usr/bin/env bash
# Test of scripts/pin-action-image.sh, the release workflow's rewrite of action.yml: on a copy of
# this repository's action.yml, the one change is `image: Dockerfile` → `image: docker://…:TAG`,
# the result still passes actionlint as a local action, and bad tags, a second run and an
# action.yml without the line are refused without touching the file. CI runs this.
# usage: scripts/pin-action-image_test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pin=$PWD/scripts/pin-action-image.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "pin-action-image_test: FAIL: $*" >&2; fails=$((fails + 1)); }

# 1. the rewrite: exactly one line changes, to the image reference
cp action.yml "$work/action.yml"
"$pin" ghcr.io/agc-sarif/agc-sarif:v1.2.3 "$work/action.yml" >/dev/null || fail "refused a good tag"
diff -u action.yml "$work/action.yml" >"$work/diff" || true
removed=$(grep -c '^-[^-]' "$work/diff" || true)
added=$(grep -c '^+[^+]' "$work/diff" || true)
[[ $removed == 1 && $added == 1 ]] || fail "want one line changed, got -$removed +$added: $(cat "$work/diff")"
grep -qx -e '-  image: Dockerfile' "$work/diff" || fail "the removed line is not image: Dockerfile"
grep -qx '+  image: docker://ghcr.io/agc-sarif/agc-sarif:v1.2.3' "$work/diff" || fail "the added line is not the image"
grep -qx '  image: Dockerfile' action.yml || fail "main's action.yml no longer builds the Dockerfile"

# 2. the pinned action.yml is still a valid docker action for actionlint
if [[ -n ${ACTIONLINT:-} || -x $(go env GOPATH)/bin/actionlint ]]; then
  bin=${ACTIONLINT:-$(go env GOPATH)/bin/actionlint}
  proj=$work/proj
  mkdir -p "$proj/.github/workflows"
  git init -q "$proj"
  cp "$work/action.yml" "$proj/action.yml"
  printf '%s\n' 'on: push' 'jobs:' '  agc:' '    runs-on: ubuntu-latest' '    steps:' \
    '      - uses: actions/checkout@v4' '      - uses: ./' '        with:' '          paths: .agc' \
    '          ref: refs/pull/1/head' '          sha: 0123456789abcdef0123456789abcdef01234567' >"$proj/.github/workflows/w.yml"
  (cd "$proj" && "$bin" -no-color .github/workflows/w.yml) || fail "actionlint rejects the pinned action.yml"
else
  echo "pin-action-image_test: actionlint not installed (scripts/actionlint.sh installs it); step 2 not run" >&2
  fail "actionlint missing"
fi

# 3. refusals leave the file as it was
for bad in "ghcr.io/agc-sarif/agc-sarif:latest" "ghcr.io/agc-sarif/agc-sarif" "ghcr.io/Agc/agc-sarif:v1.2.3" \
  "ghcr.io/a/b:v1.2.3 # x" 'ghcr.io/a/b:v1.2.3|sed' "ghcr.io/a/b:v1.2" ""; do
  cp action.yml "$work/a.yml"
  if "$pin" "$bad" "$work/a.yml" 2>/dev/null; then fail "accepted the reference '$bad'"; fi
  cmp -s action.yml "$work/a.yml" || fail "'$bad' changed the file"
done
cp "$work/action.yml" "$work/again.yml"
if "$pin" ghcr.io/agc-sarif/agc-sarif:v1.2.4 "$work/again.yml" 2>/dev/null; then fail "pinned an action.yml twice"; fi
cmp -s "$work/action.yml" "$work/again.yml" || fail "a refused second run changed the file"
printf 'runs:\n  using: composite\n  steps: []\n' >"$work/composite.yml"
if "$pin" ghcr.io/a/b:v1.0.0 "$work/composite.yml" 2>/dev/null; then fail "pinned a composite action"; fi

if ((fails)); then echo "pin-action-image_test: $fails failures" >&2; exit 1; fi
echo "pin-action-image_test: ok"
