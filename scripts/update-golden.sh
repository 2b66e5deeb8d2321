#!/usr/bin/env bash
# update-golden.sh: rewrite the golden files and generated README sections after an intended change,
# in every package whose tests define the -update flag (a plain `go test ./... -update` fails in the
# packages that do not). Review the diff afterwards.
# usage: scripts/update-golden.sh [go test flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t pkgs < <(git grep -l 'flag.Bool("update"' -- '*_test.go' | xargs -n1 dirname | sort -u | sed 's|^|./|')
if ((${#pkgs[@]} == 0)); then echo "update-golden: no package defines -update" >&2; exit 1; fi
echo "update-golden: ${pkgs[*]}" >&2
go test "$@" "${pkgs[@]}" -update
