#!/bin/sh
# Deploy the example service: build, tag and push the release branch.
set -eu

version=${1:?usage: deploy.sh VERSION}

go build -o bin/billing ./src/billing
git tag -a "v$version" -m "release $version"
git push origin "v$version"
git push origin HEAD:release
