#!/usr/bin/env bash
# Measures flightserver against its floors with the peers' own load driver,
# in one run, and prints the four ratios of the performance goals:
#
#   findBestFlight vs mcp-go replaying it  HTTP c=8 calls/s, both eras  >= 0.85x
#     (the mcp-go peer's --replay tool returns findBestFlight's own result,
#      captured from one tools/call of this build at the start of the run:
#      the same answer bytes, none of the work)
#   noop vs mcp-go's noop                  HTTP c=8 calls/s, both eras  >= 0.9x
#   peak RSS under load (legacy, c=8) vs the floor build at its first
#     answer (cmd/flightserver/testdata/noopserver -tags floor: every
#     library flightserver ships linked in, none used)               <= 1.25x
#   cold start over stdio vs mcp-go        exec -> first answer           <= 1.4x
#
# and, beside them, the floors' own figures: the floor build's no-op over
# HTTP (its calls/s against mcp-go's, ours against it, its RSS under that
# load) and its cold start against mcp-go's.
#
# Before that it runs the peer kit's whole comparison (../shared/peers/
# run-all.sh: mcp-go, go-sdk and the TypeScript SDK ranking the same
# flights), unless --floors-only. The peers are the bar: read ratios, not
# absolute figures, which move with the machine.
#
#   scripts/peers.sh                 # everything (~12 min on 2 cores)
#   scripts/peers.sh --quick         # a short run of both (~3 min): a smoke test
#   scripts/peers.sh --floors-only   # only the four ratios (~4 min; --quick: ~1 min)
#   scripts/peers.sh --rounds 5      # more rounds of the floor cells (default 3)
#   other options go to run-all.sh, e.g. --tp-roles "noop rank"
#
# PEERS is the peer kit's folder (default ../shared/peers, beside this repo).
# The floor cells' raw JSON lines (the driver's) are kept and their path is
# printed; the run-all.sh report goes to the peer kit's results/.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
peers=${PEERS:-../shared/peers}
[ -x "$peers/run-all.sh" ] || { echo "peers.sh: no peer kit at $peers (set PEERS)" >&2; exit 2; }
peers=$(cd "$peers" && pwd)

floors_only=0 quick=0 rounds=3 runall=()
while [ $# -gt 0 ]; do
  case "$1" in
    --floors-only) floors_only=1; shift ;;
    --quick) quick=1; runall+=(--quick); shift ;;
    --rounds) rounds=$2; shift 2 ;;
    *) runall+=("$1"); shift ;;
  esac
done
duration=6s cold=10 warmup=300
if [ "$quick" = 1 ]; then duration=2s cold=3 warmup=100; [ "$rounds" = 3 ] && rounds=1; fi

work=$(mktemp -d)
trap 'rm -rf "$work/bin"' EXIT
mkdir -p "$work/bin"
bin=$work/bin/flightserver floor=$work/bin/floorserver
driver=$work/bin/driver mcpgo=$work/bin/mcpgo
echo "== build (release flags: -trimpath -ldflags '-s -w')" >&2
# Built like the release: no paths, no symbols; the floor and the peer alike.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin" ./cmd/flightserver
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -tags floor -o "$floor" ./cmd/flightserver/testdata/noopserver
(cd "$peers/driver" && go build -trimpath -o "$driver" .)
(cd "$peers/mcpgo" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$mcpgo" .)

# The driver declares no client capabilities, so findBestFlight takes its
# deterministic path; no server-side LLM key, or the run measures an LLM.
# The key leaves this script's environment rather than each command's: a
# command spawned through env(1) would time a second exec in every cold
# start (1-4 ms here), which the peers' commands do not pay.
# --load-test-tools adds the no-op tool the noop rows call; no rate or
# in-flight limit, as the peers have none.
unset OPENAI_API_KEY
date=$(date -u -d '+14 days' +%F)
args="{\"origin\":\"SFO\",\"destination\":\"JFK\",\"date\":\"$date\"}"
fs_stdio="$bin --load-test-tools"
fs_http="$bin --transport http --addr {ADDR} --rate-limit 0 --max-inflight 0 --load-test-tools"

if [ "$floors_only" = 0 ]; then
  (cd "$peers" && ./run-all.sh --extra flightserver \
    --extra-stdio "$fs_stdio" --extra-http "$fs_http" \
    --extra-tool findBestFlight --extra-args "$args" --extra-noop noop \
    --tp-roles rank "${runall[@]}") || echo "peers.sh: run-all.sh reported failures (above)" >&2
fi

# ---- the floors ---------------------------------------------------------
# findBestFlight's own answer, the result of one tools/call over stdio
# (2025-11-25: a result without resultType, which mcp-go adds itself for
# 2026-07-28 clients), is what the mcp-go peer replays. Sent as a client
# sends it: the rest only once initialize has been answered (a call that
# overtakes it finds no negotiated session, and its answer says so).
answer=$work/answer.json
{
  printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peers.sh","version":"1"}}}'
  sleep 0.5
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"findBestFlight\",\"arguments\":$args}}"
  sleep 1
} | "$bin" 2>/dev/null | jq -c 'select(.id == 1) | .result' >"$answer"
jq -e '[.structuredContent.attempts[] | select(.why == "unknown_client")] | length == 0' "$answer" >/dev/null ||
  { echo "peers.sh: the captured answer did not see an initialized session: $(head -c 300 "$answer")" >&2; exit 1; }
jq -e '.structuredContent.flights | length > 0' "$answer" >/dev/null ||
  { echo "peers.sh: findBestFlight gave no flights to replay: $(head -c 300 "$answer")" >&2; exit 1; }

raw=$work/floors.raw
: >"$raw"
failed=0
drv() { # one measurement; a failure is recorded and counted, never fatal
  "$driver" --out "$raw" --quiet "$@" || { failed=$((failed + 1)); echo "   (driver failed: $*)" >&2; }
}
http() { # label port command tool role era [args]
  local label=$1 port=$2 cmd=$3 tool=$4 role=$5 era=$6 a=${7:-}
  drv --label "$label" --url "http://127.0.0.1:$port/mcp" --spawn "${cmd//\{ADDR\}/127.0.0.1:$port}" \
    --era "$era" --tool "$tool" ${a:+--args "$a"} --role "$role" --c 8 --duration "$duration" --warmup "$warmup"
}
echo "== floors: $rounds round(s), HTTP c=8 cells of $duration, $cold cold starts; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$driver" calibrate --label before --out "$raw" 2>/dev/null
for ((r = 1; r <= rounds; r++)); do
  echo "-- round $r/$rounds" >&2
  for era in modern legacy; do
    # Ours and its floor one after the other, so that both see the same machine.
    http flightserver 18301 "$fs_http" findBestFlight rank "$era" "$args"
    http mcpgo-replay 18302 "$mcpgo --http {ADDR} --replay $answer" replay rank "$era"
    http flightserver 18301 "$fs_http" noop noop "$era"
    http mcpgo 18302 "$mcpgo --http {ADDR}" noop noop "$era"
    # The floor build's own no-op: what linking the libraries costs a call
    # and holds under load, beside mcp-go's and ours.
    http floor 18303 "$floor --http {ADDR}" noop noop "$era"
    drv --label flightserver --server-cmd "$fs_stdio" --era "$era" --cold "$cold"
    drv --label mcpgo --server-cmd "$mcpgo" --era "$era" --cold "$cold"
    drv --label floor --server-cmd "$floor" --era "$era" --cold "$cold"
  done
done
"$driver" calibrate --label after --out "$raw" 2>/dev/null
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the four ratios ----------------------------------------------------
# Medians over the rounds; "busy" is the CPU the rest of the machine used
# during the throughput cells (the driver's other_cpu_pct), the noise.
jq -rs --arg load "$load_after" --arg rounds "$rounds" --arg duration "$duration" --arg cold "$cold" '
  def med: map(select(. != null)) | sort | if length == 0 then null else (if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end) end;
  def cells(l; k; e; r): [.[] | select(.label == l and .kind == k and .era == e and (r == null or .role == r))];
  def tp(l; e; r): cells(l; "throughput"; e; r) | map(.throughput_rps) | med;
  def cpu(l; e; r): cells(l; "throughput"; e; r) | map(.server_cpu_us_per_call) | med;
  def f0: if . == null then "–" else (. * 10 | round / 10 | tostring) end;
  def n0: if . == null then "–" else (round | tostring) end;
  def ratio(a; b): if a == null or b == null or b == 0 then null else a / b end;
  def x: if . == null then "–" else ((. * 100 | round) / 100 | tostring) + "x" end;
  def met(ok): if ok then "met" else "not met" end;
  . as $all |
  [tp("flightserver"; "modern"; "rank"), tp("flightserver"; "legacy"; "rank"),
   tp("mcpgo-replay"; "modern"; "rank"), tp("mcpgo-replay"; "legacy"; "rank")] as [$fm, $fl, $rm, $rl] |
  [tp("flightserver"; "modern"; "noop"), tp("flightserver"; "legacy"; "noop"),
   tp("mcpgo"; "modern"; "noop"), tp("mcpgo"; "legacy"; "noop")] as [$nm, $nl, $pm, $pl] |
  (cells("flightserver"; "throughput"; "legacy"; "rank") | map(.rss_peak_kb / 1024) | med) as $rss |
  (cells("floor"; "cold"; "legacy"; null) + cells("floor"; "cold"; "modern"; null) | map(.rss_peak_kb / 1024) | med) as $floorrss |
  ([cells("flightserver"; "cold"; "legacy"; null), cells("flightserver"; "cold"; "modern"; null),
    cells("mcpgo"; "cold"; "legacy"; null), cells("mcpgo"; "cold"; "modern"; null)] | map(map(.cold_median_ms) | med)) as [$cl, $cm, $ml, $mm] |
  [ratio($fm; $rm), ratio($fl; $rl), ratio($nm; $pm), ratio($nl; $pl), ratio($rss; $floorrss), ratio($cl; $ml), ratio($cm; $mm)] as [$r1, $r2, $r3, $r4, $r5, $r6, $r7] |
  ([$all[] | select(.kind == "throughput") | .other_cpu_pct] | med) as $busy |
  ([$all[] | select(.kind == "calibrate") | .ns_per_op]) as $cal |
  "",
  "## flightserver against its floors (\($rounds) round(s); HTTP c=8, \($duration) cells; \($cold) cold starts a round)",
  "",
  "| | flightserver | floor | ratio | goal |",
  "|---|---|---|---|---|",
  "| findBestFlight vs mcp-go replaying it, modern / legacy | \($fm | n0) / \($fl | n0) calls/s | \($rm | n0) / \($rl | n0) | \($r1 | x) / \($r2 | x) | >= 0.85x: \(met($r1 != null and $r2 != null and $r1 >= 0.85 and $r2 >= 0.85)) |",
  "| noop vs mcp-go noop, modern / legacy | \($nm | n0) / \($nl | n0) | \($pm | n0) / \($pl | n0) | \($r3 | x) / \($r4 | x) | >= 0.9x: \(met($r3 != null and $r4 != null and $r3 >= 0.9 and $r4 >= 0.9)) |",
  "| peak RSS under load (legacy) vs the floor build at its first answer | \($rss | f0) MiB | \($floorrss | f0) MiB | \($r5 | x) | <= 1.25x: \(met($r5 != null and $r5 <= 1.25)) |",
  "| cold start over stdio vs mcp-go, legacy / modern | \($cl | f0) / \($cm | f0) ms | \($ml | f0) / \($mm | f0) ms | \($r6 | x) / \($r7 | x) | <= 1.4x: \(met($r6 != null and $r7 != null and $r6 <= 1.4 and $r7 <= 1.4)) |",
  "",
  "Server CPU per call (from /proc, moves less than throughput on a busy machine), modern / legacy: findBestFlight \(cpu("flightserver"; "modern"; "rank") | f0) / \(cpu("flightserver"; "legacy"; "rank") | f0) µs against the replay'"'"'s \(cpu("mcpgo-replay"; "modern"; "rank") | f0) / \(cpu("mcpgo-replay"; "legacy"; "rank") | f0) (\(ratio(cpu("flightserver"; "modern"; "rank"); cpu("mcpgo-replay"; "modern"; "rank")) | x) / \(ratio(cpu("flightserver"; "legacy"; "rank"); cpu("mcpgo-replay"; "legacy"; "rank")) | x)); noop \(cpu("flightserver"; "modern"; "noop") | f0) / \(cpu("flightserver"; "legacy"; "noop") | f0) against \(cpu("mcpgo"; "modern"; "noop") | f0) / \(cpu("mcpgo"; "legacy"; "noop") | f0) (\(ratio(cpu("flightserver"; "modern"; "noop"); cpu("mcpgo"; "modern"; "noop")) | x) / \(ratio(cpu("flightserver"; "legacy"; "noop"); cpu("mcpgo"; "legacy"; "noop")) | x)).",
  "The floor build serving its no-op over HTTP, in this run: \(tp("floor"; "modern"; "noop") | n0) / \(tp("floor"; "legacy"; "noop") | n0) calls/s, \(ratio(tp("floor"; "modern"; "noop"); $pm) | x) / \(ratio(tp("floor"; "legacy"; "noop"); $pl) | x) mcp-go'"'"'s no-op (what linking the libraries costs a call), and flightserver'"'"'s no-op \(ratio($nm; tp("floor"; "modern"; "noop")) | x) / \(ratio($nl; tp("floor"; "legacy"; "noop")) | x) the floor build'"'"'s; under that load the floor build holds \(cells("floor"; "throughput"; "legacy"; "noop") | map(.rss_peak_kb / 1024) | med | f0) MiB at its peak (mcp-go \(cells("mcpgo"; "throughput"; "legacy"; "noop") | map(.rss_peak_kb / 1024) | med | f0) MiB), and flightserver under findBestFlight'"'"'s is \(ratio($rss; cells("floor"; "throughput"; "legacy"; "noop") | map(.rss_peak_kb / 1024) | med) | x) that.",
  "The floors themselves, in this run: the floor build starts in \(cells("floor"; "cold"; "legacy"; null) | map(.cold_median_ms) | med | f0) / \(cells("floor"; "cold"; "modern"; null) | map(.cold_median_ms) | med | f0) ms, \(ratio(cells("floor"; "cold"; "legacy"; null) | map(.cold_median_ms) | med; $ml) | x) / \(ratio(cells("floor"; "cold"; "modern"; null) | map(.cold_median_ms) | med; $mm) | x) mcp-go (what linking the required libraries costs before any code of ours runs; the cold-start goal is 1.4x); flightserver holds \(cells("flightserver"; "cold"; "legacy"; null) + cells("flightserver"; "cold"; "modern"; null) | map(.rss_peak_kb / 1024) | med | f0) MiB at its first answer, \(ratio(cells("flightserver"; "cold"; "legacy"; null) + cells("flightserver"; "cold"; "modern"; null) | map(.rss_peak_kb / 1024) | med; $floorrss) | x) the floor build at its first.",
  "Same answer: " + ([["modern", "legacy"][] as $e | [cells("flightserver"; "throughput"; $e; "rank")[], cells("mcpgo-replay"; "throughput"; $e; "rank")[] | .result.structured_sha + "/" + .result.text_sha] | unique | if length == 1 then "\($e) identical (\(.[0]))" else "\($e) DIFFERENT (\(join(", ")))" end] | join("; ")),
  "Noise: the rest of the machine used \($busy | f0)% CPU during the throughput cells (median); driver calibrate \($cal | map(tostring) | join(" -> ")) ns/op; load average at the end \($load)."
' "$raw"
echo >&2
echo "== raw: $raw; failed measurements: $failed" >&2
[ "$failed" -eq 0 ]
