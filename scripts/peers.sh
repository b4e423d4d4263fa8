#!/usr/bin/env bash
# Measures flightserver beside the peer MCP servers (mcp-go, go-sdk and the
# TypeScript SDK doing the same ranking) with the peers' own load driver, in
# one run, and prints the report's path. The peers are the bar: read the
# "Against mcpgo" ratios, not absolute figures.
#   scripts/peers.sh [run-all.sh options...]   e.g. --quick, or --tp-roles "noop rank"
# PEERS is the peer kit's folder (default ../shared/peers, beside this repo).
set -euo pipefail
cd "$(dirname "$0")/.."
peers=${PEERS:-../shared/peers}
[ -x "$peers/run-all.sh" ] || { echo "peers.sh: no peer kit at $peers (set PEERS)" >&2; exit 2; }
bin=$(mktemp -d)/flightserver
# Built like the release: no paths, no symbols.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin" ./cmd/flightserver
# The driver declares no client capabilities, so findBestFlight takes its
# deterministic path; no server-side LLM key, or the run measures an LLM.
# --load-test-tools adds the no-op tool the noop rows call; no rate or
# in-flight limit, as the peers have none.
date=$(date -u -d '+14 days' +%F)
cd "$peers"
exec ./run-all.sh --extra flightserver \
  --extra-stdio "env -u OPENAI_API_KEY $bin --load-test-tools" \
  --extra-http "env -u OPENAI_API_KEY $bin --transport http --addr {ADDR} --rate-limit 0 --max-inflight 0 --load-test-tools" \
  --extra-tool findBestFlight \
  --extra-args "{\"origin\":\"SFO\",\"destination\":\"JFK\",\"date\":\"$date\"}" \
  --extra-noop noop \
  --tp-roles rank "$@"
