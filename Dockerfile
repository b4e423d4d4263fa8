# flightserver container image: an MCP server over streamable HTTP.
#
#   docker build -t flightserver --build-arg VERSION=v1.2.3 .
#   docker run --rm -p 127.0.0.1:8080:8080 flightserver   # MCP at http://127.0.0.1:8080/mcp
#
# Publish the port on the host's loopback only, as above: the image listens
# without a token (see CMD), so -p 8080:8080 would offer the tools to every
# machine that can reach this host. To publish it further, set
# FLIGHTSERVER_AUTH_TOKEN (from a secret) or put an authenticating proxy in
# front.
#
# Two stages: a full Go toolchain compiles a static binary, and only that
# binary is copied into a minimal runtime image. The runtime image has no
# shell, no package manager and no libc, so there is very little to attack or
# to patch. Plain Dockerfile syntax only (no RUN --mount, no heredocs), so it
# builds with the classic docker builder, BuildKit, buildah and podman alike.

# Base images are build args so that CI can pin them (to a patch tag or an
# @sha256 digest) or point at a mirror without editing this file.
# ARGs declared before the first FROM are visible only in FROM lines.
ARG GO_IMAGE=golang:1.26-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

# ---------------------------------------------------------------- build stage
FROM ${GO_IMAGE} AS build

WORKDIR /src

# Dependencies first: go.mod/go.sum change rarely, so this layer (and the
# downloaded module cache in it) stays cached across source-only edits.
COPY go.mod go.sum ./
RUN go mod download

# Then the source (.dockerignore keeps .git, node_modules, binaries and docs
# out, which keeps the context small and the cache from busting needlessly).
COPY . .

# CGO_ENABLED=0: a fully static binary that needs no libc, so it runs on
#   distroless/static (or scratch).
# -trimpath: no local file system paths in the binary (reproducible builds,
#   nothing about the build machine leaks into stack traces).
# -ldflags "-s -w": drop the symbol table and DWARF debug info (smaller image).
# -X main.version=...: set the version variable in cmd/flightserver, reported
#   by `flightserver --version` and in the MCP serverInfo.
# The data files are embedded with go:embed, so the binary is self-contained.
#
# VERSION is declared here, just before its only use, and not at the top of
# the stage: a changed build arg invalidates the cache of every RUN after its
# ARG line, and `go mod download` should not be redone for a new version.
# (ARGs declared before the first FROM are not visible here, hence this line.)
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/flightserver ./cmd/flightserver

# -------------------------------------------------------------- runtime stage
# distroless static, nonroot tag: CA certificates, tzdata, /etc/passwd with
# the user nonroot (uid/gid 65532) and nothing else.
FROM ${RUNTIME_IMAGE}

ARG VERSION=dev

# OCI annotations shown by `docker inspect` and registries. Add
# org.opencontainers.image.source (the repository URL) once it is public.
LABEL org.opencontainers.image.title="flightserver" \
      org.opencontainers.image.description="MCP server that finds flights (streamable HTTP at /mcp, health at /healthz)" \
      org.opencontainers.image.version="${VERSION}"

# Only the binary: no sources, no toolchain, no module cache.
COPY --from=build /out/flightserver /flightserver

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

# Default arguments, replaceable at `docker run IMAGE ...`. Inside a container
# the server must listen on all interfaces (0.0.0.0), not on its loopback
# default, or the published port reaches nothing. On a non-loopback address
# the server refuses to start without a bearer token unless told otherwise:
# the image says so explicitly with --allow-unauthenticated, because the
# usual deployment puts it behind a proxy or an ingress that authenticates,
# and because a token baked into an image would be no secret. To require a
# token in the server itself, set FLIGHTSERVER_AUTH_TOKEN (from a secret);
# the warning in the log then goes away. Every flag also has an environment
# fallback (FLIGHTSERVER_<FLAG>), but flags given here win over the
# environment, so replace the arguments to drop --allow-unauthenticated.
CMD ["--transport", "http", "--addr", "0.0.0.0:8080", "--allow-unauthenticated"]
