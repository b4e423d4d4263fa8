#!/usr/bin/env bash
# Runs the benchmarks and prints the tables for docs/BENCHMARKS.md.
#   scripts/bench.sh [count]     (default 5 runs of each benchmark)
# Each figure is reported against a baseline measured in the same run, so run
# it on a quiet machine and compare ratios, not absolute times, across machines.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5}
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
go test -run '^$' -bench . -benchmem -count "$count" ./fallback ./flights ./ranking/... ./tools ./cmd/flightserver | tee "$raw" >&2
go run ./scripts/benchreport < "$raw"
