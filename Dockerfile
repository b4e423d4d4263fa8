# flightserver container image: an MCP server over streamable HTTP, or over
# stdio for hosts that start servers as containers.
#
#   docker build -t flightserver --build-arg VERSION=0.1.0 .
#   docker run --rm -p 127.0.0.1:8080:8080 flightserver          # MCP at http://127.0.0.1:8080/mcp
#   docker run -i --rm flightserver --transport stdio             # for a host's "command"
#   docker buildx build --platform linux/amd64,linux/arm64 .      # both, without emulation
#
# Publish the port on the host's loopback only, as above: the image listens
# without a token (see CMD), so -p 8080:8080 would offer the tools to every
# machine that can reach this host. To publish it further, set
# FLIGHTSERVER_AUTH_TOKEN (from a secret) or put an authenticating proxy in
# front.
#
# Two ways to the same image, which share every layer but the binary:
#   the default (last) stage compiles it here, cross-compiling for the target
#     platform on the build machine's own (FROM --platform=$BUILDPLATFORM),
#     so an arm64 image builds at native speed on amd64 and the other way
#     round, never under emulation;
#   --target release copies the one goreleaser already built for the target
#     platform ($TARGETPLATFORM/flightserver in its context; .goreleaser.yaml).
# Both start FROM the runtime stage: no shell, no package manager, no libc.
# BuildKit, buildah and podman build only the stages the target needs. Plain
# Dockerfile syntax otherwise (no RUN --mount, no heredocs).

# Base images are build args so that CI can pin them (to a patch tag or an
# @sha256 digest) or point at a mirror without editing this file.
# ARGs declared before the first FROM are visible only in FROM lines.
ARG GO_IMAGE=golang:1.26-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

# ----------------------------------------------- build stage: from source
FROM --platform=$BUILDPLATFORM ${GO_IMAGE} AS build

WORKDIR /src

# Dependencies first: go.mod/go.sum change rarely, so this layer (and the
# downloaded module cache in it) stays cached across source-only edits, and
# it is the same for every target platform.
COPY go.mod go.sum ./
RUN go mod download

# Then the source (.dockerignore keeps .git, node_modules, binaries and docs
# out, which keeps the context small and the cache from busting needlessly).
COPY . .

# CGO_ENABLED=0: a fully static binary that needs no libc, so it runs on
#   distroless/static (or scratch), and cross-compiles with no C toolchain.
# GOOS/GOARCH from TARGETOS/TARGETARCH, which the builder sets for each
#   --platform asked for (linux/amd64 when none is).
# -trimpath: no local file system paths in the binary (reproducible builds,
#   nothing about the build machine leaks into stack traces).
# -ldflags "-s -w": drop the symbol table and DWARF debug info (smaller image).
# -X main.version=...: the version `flightserver --version` prints and the
#   MCP serverInfo reports.
# The data files are embedded with go:embed, so the binary is self-contained.
#
# These ARGs are declared here, just before their only use, and not at the
# top of the stage: a changed build arg invalidates the cache of every RUN
# after its ARG line, and `go mod download` should not be redone for a new
# version or platform.
ARG TARGETOS=linux
ARG TARGETARCH=amd64
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/flightserver ./cmd/flightserver

# -------------------------------------------------------------- runtime stage
# distroless static, nonroot tag: CA certificates, tzdata, /etc/passwd with
# the user nonroot (uid/gid 65532) and nothing else. Everything but the
# binary, for both targets below.
FROM ${RUNTIME_IMAGE} AS runtime

ARG VERSION=dev

# OCI annotations shown by `docker inspect` and registries, and the label the
# MCP Registry reads to verify that this image belongs to the server.json of
# the same name (TestReleaseFilesAgree checks they match).
LABEL org.opencontainers.image.title="flightserver" \
      org.opencontainers.image.description="MCP server that finds flights in synthetic sample data (streamable HTTP at /mcp, or --transport stdio)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="https://github.com/flightserver/flightserver" \
      org.opencontainers.image.licenses="MIT" \
      io.modelcontextprotocol.server.name="io.github.flightserver/flightserver"

# Never run as root. This is distroless' nonroot:nonroot, written as numbers
# so that Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 65532:65532

# Documentation only: publish it with -p 127.0.0.1:8080:8080 (or a Service).
EXPOSE 8080

# No HEALTHCHECK: the image has no shell or curl to run one. Orchestrators
# should probe GET /healthz (liveness: 200 until the process exits) and
# GET /readyz (readiness: 503 from SIGTERM on, while calls drain) on port
# 8080. The image has no shell either for a preStop hook: use Kubernetes'
# native sleep action.

# Exec form: the server is PID 1 and receives SIGTERM directly, so it can shut
# down gracefully (it lets in-flight calls finish, see --shutdown-grace).
ENTRYPOINT ["/flightserver"]

# Default arguments, replaceable at `docker run IMAGE ...` (`--transport
# stdio` for a host that runs the container as its server's command, with
# -i). Inside a container the server must listen on all interfaces
# (0.0.0.0), not on its loopback default, or the published port reaches
# nothing. On a non-loopback address the server refuses to start without a
# bearer token unless told otherwise: the image says so explicitly with
# --allow-unauthenticated, because the usual deployment puts it behind a
# proxy or an ingress that authenticates, and because a token baked into an
# image would be no secret. To require a token in the server itself, set
# FLIGHTSERVER_AUTH_TOKEN (from a secret); the warning in the log then goes
# away. Every flag also has an environment fallback (FLIGHTSERVER_<FLAG>),
# but flags given here win over the environment, so replace the arguments to
# drop --allow-unauthenticated. Without a token the server answers only
# requests that call it by an IP address or localhost (DNS rebinding
# protection): a proxy that calls it by a name needs that name in
# FLIGHTSERVER_ALLOWED_HOSTS.
CMD ["--transport", "http", "--addr", "0.0.0.0:8080", "--allow-unauthenticated"]

# ------------------------------------------- target release: goreleaser's binary
FROM runtime AS release
ARG TARGETPLATFORM
COPY ${TARGETPLATFORM}/flightserver /flightserver

# ------------------------------------------- the default target: built above
# Only the binary: no sources, no toolchain, no module cache.
FROM runtime
COPY --from=build /out/flightserver /flightserver
