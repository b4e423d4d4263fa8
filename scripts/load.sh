#!/usr/bin/env bash
# Runs the load test and prints the report: the load figures in
# docs/BENCHMARKS.md (throughput, p50/p99 latency against the noop baseline of
# the same run, the server's memory and goroutines under load).
#   scripts/load.sh [calls]     (default 100000 measured calls)
# It builds the server, and cmd/flightload starts it on free loopback ports
# and drives 16 clients of mixed traffic (noop, deterministic and sampling
# calls, in both protocol eras) against it. The driver shares the machine
# with the server, so run it on a quiet machine and compare ratios, not
# absolute times, across machines. It exits non-zero if any call failed.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-100000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bin="$dir/flightserver"
go build -o "$bin" ./cmd/flightserver
go run ./cmd/flightload --server "$bin" --calls "$calls" --warmup 2000 --concurrency 16 --duration 10m
