# syntax=docker/dockerfile:1
#
# The orderengine image: one binary, /usr/local/bin/orderengine, run as the
# unprivileged user 65532 on a distroless base (glibc and CA certificates,
# no shell). `serve` by default; the same image runs the shared dev chain
# (`devnet serve`) in docker-compose.yml. The health check is the binary's
# own `probe` command (GET /readyz on http.listen): the image has no curl
# or shell. docs/cluster.md explains the compose file; docker is not
# available where this repository is tested, so the Dockerfile and the
# compose file are checked by TestComposeFile (cmd/orderengine) only, not
# built.
#
#   docker build -t orderengine --build-arg VERSION=$(git describe --tags --always --dirty) \
#       --build-arg COMMIT=$(git rev-parse HEAD) .

# GO_VERSION is the toolchain of go.mod and the Makefile (GOTOOLCHAIN).
ARG GO_VERSION=1.27.3

FROM golang:${GO_VERSION}-bookworm AS build
ARG GO_VERSION
ARG VERSION=dev
ARG COMMIT=
ENV GOTOOLCHAIN=go${GO_VERSION} CGO_ENABLED=1
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# cgo on: the signature checks use libsecp256k1 (chain/secp_cgo.go).
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -o /out/orderengine \
      -ldflags "-X github.com/orderengine/orderengine/internal/buildinfo.version=${VERSION} -X github.com/orderengine/orderengine/internal/buildinfo.commit=${COMMIT}" \
      ./cmd/orderengine \
 && mkdir -p /out/data /out/shared

FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /out/orderengine /usr/local/bin/orderengine
# The data folder and the folder the chain service shares with the nodes,
# owned by the user the process runs as (a named volume takes them over).
COPY --from=build --chown=65532:65532 /out/data /data
COPY --from=build --chown=65532:65532 /out/shared /shared
USER 65532:65532
WORKDIR /data
ENV ORDERENGINE_DATA_DIR=/data ORDERENGINE_HTTP_LISTEN=0.0.0.0:8080
VOLUME ["/data"]
# public API; NATS routes, actor messages and membership of a cluster
# node; the dev chain's JSON-RPC (devnet serve).
EXPOSE 8080 6222 7222 7322 8545
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["/usr/local/bin/orderengine", "probe"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/orderengine"]
CMD ["serve"]
