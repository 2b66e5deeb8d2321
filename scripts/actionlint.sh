#!/usr/bin/env bash
# actionlint: lint the example workflow (testdata/action/workflow.yml), which uses this repository's
# action.yml with every input, with rhysd/actionlint installed from the Go module proxy.
# actionlint checks a local action's inputs (uses: ./) only inside a project, i.e. a folder with
# .github/workflows in a git repository, so the workflow, action.yml and the Dockerfile it names are
# copied into a scratch repository of that shape.
# usage: scripts/actionlint.sh   (exit 1 on findings)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ACTIONLINT:-}
if [[ -z $bin ]]; then
  gobin=$(go env GOPATH)/bin
  bin=$gobin/actionlint
  [[ -x $bin ]] || GOBIN=$gobin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.github/workflows"
cp action.yml Dockerfile "$work/"
git init -q "$work"
cp testdata/action/workflow.yml "$work/.github/workflows/agc.yml"
(cd "$work" && "$bin" -no-color .github/workflows/agc.yml) | sed "s|\.github/workflows/agc\.yml|testdata/action/workflow.yml|"
status=${PIPESTATUS[0]}
((status == 0)) || exit "$status"
echo "actionlint: testdata/action/workflow.yml is clean"
