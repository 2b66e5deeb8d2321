# agc-sarif: the GitHub Action's container. Build stage: a static Go binary, cross-compiled on the
# build machine's platform for each target (no emulation); final stage: distroless, which runs as
# root by default (GitHub requires root for container actions to write the workspace).
FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
# Module and build caches survive between builds (BuildKit and Buildah cache mounts): a rebuild
# after a source change recompiles only what changed, and go.mod/go.sum changes fetch only new modules.
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download
COPY . .
ARG VERSION=dev
ARG TARGETOS=linux
ARG TARGETARCH
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -tags urfave_cli_no_docs -ldflags "-s -w -X github.com/agc-sarif/agc-sarif/internal/version.Version=${VERSION}" \
    -o /agc-sarif ./cmd/agc-sarif

FROM gcr.io/distroless/static-debian12
COPY --from=build /agc-sarif /agc-sarif
# no USER and no WORKDIR: the runner mounts the workspace and sets --workdir itself; a bare run
# inside Actions (GITHUB_ACTIONS=true, no arguments) is `agc-sarif action`
ENTRYPOINT ["/agc-sarif"]
