# agc-sarif: the GitHub Action's container. Build stage: a static Go binary; final stage: distroless,
# which runs as root by default (GitHub requires root for container actions to write the workspace).
FROM golang:1.26 AS build
WORKDIR /src
# the module download layer is cached until go.mod or go.sum change
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/agc-sarif/agc-sarif/command.Version=${VERSION}" \
    -o /agc-sarif ./cmd/agc-sarif

FROM gcr.io/distroless/static-debian12
COPY --from=build /agc-sarif /agc-sarif
# no USER and no WORKDIR: the runner mounts the workspace and sets --workdir itself; a bare run
# inside Actions (GITHUB_ACTIONS=true, no arguments) is `agc-sarif action`
ENTRYPOINT ["/agc-sarif"]
