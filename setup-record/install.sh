#!/usr/bin/env bash
# install.sh: the step of setup-record. Installs agc-record into $RUNNER_TOOL_CACHE (else
# $RUNNER_TEMP) and adds its folder to $GITHUB_PATH.
#   release: download agc-record_<os>_<arch>[.exe] and checksums.txt from the GitHub release and
#            refuse a binary whose SHA-256 is not the one listed;
#   go:      go install github.com/agc-sarif/agc-sarif/cmd/agc-record@<version>;
#   auto:    go when a go command is on the PATH, else release.
# Environment (set by action.yml): AGC_VERSION, AGC_ACTION_REF, AGC_METHOD, AGC_REPOSITORY,
# AGC_SERVER_URL; AGC_DOWNLOAD_URL overrides <server>/<repository>/releases (tests).
set -euo pipefail
die() { echo "::error title=setup-record::$*"; exit 1; }

version=${AGC_VERSION:-}
if [[ -z $version ]]; then
  version=latest
  [[ ${AGC_ACTION_REF:-} =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] && version=$AGC_ACTION_REF
fi
[[ $version == latest || $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
  die "version '$version': want latest or a release tag vX.Y.Z"
repo=${AGC_REPOSITORY:-agc-sarif/agc-sarif}
[[ $repo =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || die "repository '$repo': want OWNER/NAME"
method=${AGC_METHOD:-auto}
if [[ $method == auto ]]; then
  method=release
  command -v go >/dev/null 2>&1 && method=go
fi

dest=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-$HOME/.cache}}/agc-record/$version/bin
mkdir -p "$dest"

case $method in
  go)
    GOBIN=$dest GOFLAGS=-mod=mod go install "github.com/$repo/cmd/agc-record@$version" ||
      die "go install github.com/$repo/cmd/agc-record@$version failed"
    ;;
  release)
    case $(uname -s) in
      Linux) os=linux ;; Darwin) os=darwin ;; MINGW* | MSYS* | CYGWIN*) os=windows ;;
      *) die "no agc-record release for $(uname -s)" ;;
    esac
    case $(uname -m) in
      x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;;
      *) die "no agc-record release for $(uname -m)" ;;
    esac
    ext=""
    [[ $os == windows ]] && ext=.exe
    asset=agc-record_${os}_${arch}${ext}
    base=${AGC_DOWNLOAD_URL:-${AGC_SERVER_URL:-https://github.com}/$repo/releases}
    if [[ $version == latest ]]; then base=$base/latest/download; else base=$base/download/$version; fi
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    curl -fsSL --retry 3 -o "$tmp/$asset" "$base/$asset" || die "could not download $base/$asset"
    curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$base/checksums.txt" || die "could not download $base/checksums.txt"
    want=$(awk -v a="$asset" '$2 == a || $2 == "*" a {print $1}' "$tmp/checksums.txt")
    [[ $want =~ ^[0-9a-f]{64}$ ]] || die "checksums.txt lists no SHA-256 for $asset"
    if command -v sha256sum >/dev/null 2>&1; then
      got=$(sha256sum "$tmp/$asset" | awk '{print $1}')
    else
      got=$(shasum -a 256 "$tmp/$asset" | awk '{print $1}')
    fi
    [[ $got == "$want" ]] || die "$asset: SHA-256 $got, but checksums.txt says $want; not installed"
    install -m 0755 "$tmp/$asset" "$dest/agc-record$ext"
    ;;
  *) die "method '$method': want auto, release or go" ;;
esac

bin=$dest/agc-record
[[ -x $bin || -x $bin.exe ]] || die "agc-record was not installed in $dest"
echo "$dest" >>"${GITHUB_PATH:-/dev/null}"
reported=$("$bin" --version 2>/dev/null || echo "agc-record $version")
{
  echo "path=$bin"
  echo "version=${reported#agc-record }"
} >>"${GITHUB_OUTPUT:-/dev/null}"
echo "setup-record: installed $reported ($method) in $dest"
