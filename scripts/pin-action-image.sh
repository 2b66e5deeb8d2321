#!/usr/bin/env bash
# pin-action-image.sh: point action.yml at a released image instead of the Dockerfile, for the
# release workflow: `image: Dockerfile` becomes `image: docker://IMAGE:TAG`, and nothing else
# changes, so a runner pulls the ~13 MB image instead of building it. main keeps the Dockerfile.
# usage: scripts/pin-action-image.sh IMAGE:TAG [ACTION_YML]    (default ACTION_YML: action.yml)
# Refuses (exit 2) an image reference that is not lower-case registry/path:vX.Y.Z, and an
# action.yml that does not have exactly one `image: Dockerfile` line under `runs:`.
set -euo pipefail
ref=${1:-}
file=${2:-action.yml}
die() { echo "pin-action-image: $*" >&2; exit 2; }
[[ -n $ref ]] || die "usage: pin-action-image.sh IMAGE:TAG [ACTION_YML]"
# a registry host, a lower-case path and a release tag (what the release workflow pushes)
[[ $ref =~ ^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+:v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
  die "$ref: want REGISTRY/OWNER/NAME:vX.Y.Z in lower case"
[[ -f $file ]] || die "$file: no such file"
n=$(grep -cE '^  image: ["'\'']?Dockerfile["'\'']?[[:space:]]*$' "$file" || true)
[[ $n == 1 ]] || die "$file: want exactly one '  image: Dockerfile' line under runs:, found $n"
grep -qE '^  using: ["'\'']?docker["'\'']?[[:space:]]*$' "$file" || die "$file: runs.using is not docker"
tmp=$(mktemp "$file.XXXXXX")
trap 'rm -f "$tmp"' EXIT
sed -E "s|^  image: [\"']?Dockerfile[\"']?[[:space:]]*\$|  image: docker://$ref|" "$file" >"$tmp"
chmod --reference="$file" "$tmp" 2>/dev/null || true
mv "$tmp" "$file"
trap - EXIT
echo "pin-action-image: $file runs docker://$ref"
