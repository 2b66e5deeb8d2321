#!/usr/bin/env bash
# actionlint: lint every workflow of this repository with rhysd/actionlint (installed from the Go
# module proxy), with shellcheck on their run: scripts when it is installed (apt: shellcheck):
#   .github/workflows/*.yml     the release workflow
#   testdata/workflows/*.yml    the README's workflows (included in it verbatim)
#   testdata/action/workflow.yml  the example that uses every input
#   testdata/review/*.yml       docs/review.md's workflows (included in it verbatim)
# actionlint checks a local action's inputs (uses: ./…) only inside a project, i.e. a folder with
# .github/workflows in a git repository, so the workflows, action.yml, setup-record/ and the
# Dockerfile are copied into a scratch repository of that shape, with this repository's published
# names (agc-sarif/agc-sarif@v1, agc-sarif/agc-sarif/setup-record@v1) pointed at the local copies:
# every input a workflow gives the action or setup-record is checked against their action.yml.
# usage: scripts/actionlint.sh   (exit 1 on findings)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ACTIONLINT:-}
if [[ -z $bin ]]; then
  gobin=$(go env GOPATH)/bin
  bin=$gobin/actionlint
  [[ -x $bin ]] || GOFLAGS="" GOBIN=$gobin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi
if ! command -v shellcheck >/dev/null; then
  echo "actionlint: shellcheck is not installed: run: scripts are not checked (apt-get install shellcheck)" >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.github/workflows"
cp -r action.yml Dockerfile setup-record "$work/"
git init -q "$work"
declare -A origin=()
add() { # add FILE: copy a workflow into the scratch project under a unique name
  local name
  name=$(echo "$1" | tr '/' '_')
  sed -e 's#uses: agc-sarif/agc-sarif/setup-record@v[0-9.]*#uses: ./setup-record#' \
    -e 's#uses: agc-sarif/agc-sarif@v[0-9.]*#uses: ./#' "$1" >"$work/.github/workflows/$name"
  origin[$name]=$1
}
for f in .github/workflows/*.yml testdata/workflows/*.yml testdata/action/workflow.yml testdata/review/*.yml; do add "$f"; done
status=0
(cd "$work" && "$bin" -no-color .github/workflows/*.yml) >"$work/out" 2>&1 || status=$?
# name each finding by the file it came from
out=$(cat "$work/out")
for name in "${!origin[@]}"; do out=${out//.github\/workflows\/$name/${origin[$name]}}; done
[[ -n $out ]] && echo "$out"
((status == 0)) || exit "$status"
echo "actionlint: ${#origin[@]} workflows clean: ${origin[*]}"
if command -v shellcheck >/dev/null; then
  shellcheck setup-record/install.sh scripts/*.sh
  echo "shellcheck: setup-record/install.sh and scripts/*.sh clean"
fi
