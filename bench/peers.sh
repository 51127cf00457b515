#!/usr/bin/env bash
# bench/peers.sh: Cove against its peers (issue 4) through the shared harness ../shared/tools/peer-bench/run.sh.
#
#   COVE_BIN=/abs/path/to/release/cove bash bench/peers.sh [--reps N] [--quick] [--scenarios a,b] [--peers p,q]
#                                                          [--warmup N] [--md FILE] [--cove-bench FILE]
#
#   --reps N          measured repetitions per peer and scenario (default 5)
#   --warmup N        extra leading repetitions run first and dropped from the medians (default 1)
#   --quick           --reps 2 (development)
#   --scenarios LIST  subset of: startup-p0,startup-p1,teaser-p0,teaser-p2,seek-p2,stepdown-p4,play20-p0,startup-dash-p0,
#                     seek-dash-p2 (default: all). play20-p0 plays 20 s of s30 on loopback, Cove against raw playbin3
#                     only: issue 14's CPU and peak-RSS target is for 20 s of playback.
#   --peers LIST      default cove,gst-playbin3,hlsjs,vhs,native (the HLS scenarios)
#   --dash-peers LIST default cove,gst-playbin3,mpv,vhs for startup-dash-p0 and cove,mpv for seek-dash-p2 (the DASH
#                     scenarios: hls.js and Chromium have no DASH; gst-launch cannot seek in bench.py; the harness's VHS
#                     page declares every source HLS, so VHS is run once per rep at startup only to show it)
#   --md FILE         where to write the Markdown peer section (default: <results folder>/peers.md)
#   --cove-bench FILE cove-bench's output, so the summary can quote its playlist-transition row
#
# Every scenario runs run.sh (which runs bench.py) with peers interleaved within each repetition and writes its
# own JSONL into a fresh results folder under $PERF_ROOT (default /tmp/cove-peer-bench, where run.sh also keeps
# the generated streams and the browser players). Throttled scenarios run inside a private network namespace
# created here and deleted on exit; the host's loopback is never shaped. Needs root (apt, ip netns, tc).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
PEER_BENCH=${PEER_BENCH:-$(cd "$REPO/../shared/tools/peer-bench" && pwd)}
RUN_SH=$PEER_BENCH/run.sh
export PERF_ROOT=${PERF_ROOT:-/tmp/cove-peer-bench}

ALL_SCENARIOS=startup-p0,startup-p1,teaser-p0,teaser-p2,seek-p2,stepdown-p4,play20-p0,startup-dash-p0,seek-dash-p2
REPS=5; WARMUP=1; SCENARIOS=$ALL_SCENARIOS; PEERS=cove,gst-playbin3,hlsjs,vhs,native; MD=""; COVE_BENCH_MD=""
DASH_PEERS=
# Step-down profile (P4): seconds after each single-run bench.py call starts, and the rates.
STEP_AT=${STEP_AT:-10}; STEP_FOR=${STEP_FOR:-10}; RATE_HIGH=6mbit; RATE_LOW=800kbit; TBF="burst 16kb latency 300ms"

while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --quick) REPS=2; shift ;;
    --scenarios) SCENARIOS=$2; shift 2 ;;
    --peers) PEERS=$2; shift 2 ;;
    --dash-peers) DASH_PEERS=$2; shift 2 ;;
    --md) MD=$2; shift 2 ;;
    --cove-bench) COVE_BENCH_MD=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "peers.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for s in ${SCENARIOS//,/ }; do
  case ",$ALL_SCENARIOS," in *",$s,"*) ;; *) echo "peers.sh: unknown scenario $s (known: $ALL_SCENARIOS)" >&2; exit 2 ;; esac
done
[ "$(id -u)" = 0 ] || { echo "peers.sh: needs root (apt-get in run.sh, ip netns, tc)" >&2; exit 1; }
[ -x "$RUN_SH" ] || { echo "peers.sh: $RUN_SH not found (set PEER_BENCH)" >&2; exit 1; }
if [ -z "${COVE_BIN:-}" ]; then COVE_BIN="$(cd "$REPO" && swift build -c release --show-bin-path)/cove"; fi
[ -x "$COVE_BIN" ] || { echo "peers.sh: no cove binary at $COVE_BIN (build the release first, or set COVE_BIN)" >&2; exit 1; }
export COVE_BIN
TOTAL=$((REPS + WARMUP))

mkdir -p "$PERF_ROOT"
OUT=$(mktemp -d "$PERF_ROOT/results.XXXXXX")
: "${MD:=$OUT/peers.md}"
log() { echo "[peers $(date +%H:%M:%S)] $*" >&2; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# ---- private network namespace for the shaped profiles (created lazily, always deleted on exit)
NS=""; TIMER=""
cleanup() {
  if [ -n "$TIMER" ]; then kill "$TIMER" 2>/dev/null || true; fi
  if [ -n "$NS" ]; then ip netns del "$NS" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
netns() {
  if [ -z "$NS" ]; then
    NS=covebench-$$
    ip netns add "$NS"
    ip netns exec "$NS" ip link set lo mtu 1500 up
    log "netns $NS created"
  fi
}
shape() { ip netns exec "$NS" tc qdisc replace dev lo root tbf rate "$1" $TBF; }
in_ns() { ip netns exec "$NS" "$@"; }

meta() {  # scenario, shaping description, extra, phase(start|end)
  local now; now=$(date +%s.%N)
  if [ "$4" = start ]; then
    printf '{"scenario":"%s","shaping":"%s","extra":"%s","t_start":%s,"load_before":"%s","reps":%d,"warmup":%d,"peers":"%s","rate_high":"%s","rate_low":"%s"}\n' \
      "$1" "$2" "$3" "$now" "$(loadavg)" "$REPS" "$WARMUP" "$PEERS" "$RATE_HIGH" "$RATE_LOW" >> "$OUT/meta.jsonl"
  else
    printf '{"scenario":"%s","t_end":%s,"load_after":"%s"}\n' "$1" "$now" "$(loadavg)" >> "$OUT/meta.jsonl"
  fi
}

# run.sh once with nothing to do, so apt installs, the browser players and the streams exist before timing starts
prepare() {
  if [ ! -f "$PERF_ROOT/bench/web/hls.mjs" ] || [ ! -f "$PERF_ROOT/media/s120/master.m3u8" ] || [ ! -f "$PERF_ROOT/media/s30/master.m3u8" ] \
     || ! command -v chromium >/dev/null; then
    log "preparing peers and streams (first run only)"
  fi
  bash "$RUN_SH" --peers cove --reps 0 --out /dev/null >/dev/null
}

# DASH copies of the harness's own streams (issue 16): the same H.264 and AAC remuxed without re-encoding into fMP4
# segments under one MPD (SegmentTemplate + SegmentTimeline, 2 s), so the DASH rows compare players on the bytes
# the HLS rows use. Representations keep the ladder's order (0–2 = 240p/480p/720p, 3 = audio).
make_dash() {  # name (s30 | s120)
  local src=$PERF_ROOT/media/$1 dst=$PERF_ROOT/media/$1-dash
  [ -f "$dst/manifest.mpd" ] && return 0
  log "remuxing $1 to DASH"
  rm -rf "$dst.tmp"; mkdir -p "$dst.tmp"
  ffmpeg -hide_banner -loglevel error -y -i "$src/v0/index.m3u8" -i "$src/v1/index.m3u8" -i "$src/v2/index.m3u8" \
    -map 0:v -map 1:v -map 2:v -map 0:a -c copy -tag:v avc1 -tag:a mp4a \
    -f dash -seg_duration 2 -use_template 1 -use_timeline 1 -adaptation_sets "id=0,streams=v id=1,streams=a" \
    "$dst.tmp/manifest.mpd"
  rm -rf "$dst"; mv "$dst.tmp" "$dst"
}

# bench.py through run.sh; "$1" = ns|host, rest = bench.py options
bench() {
  local where=$1; shift
  if [ "$where" = ns ]; then in_ns bash "$RUN_SH" "$@"; else bash "$RUN_SH" "$@"; fi
}

floor() {  # where(ns|host), scenario, floor options...
  local where=$1 scn=$2; shift 2
  local cmd=(python3 "$HERE/peer_results.py" floor --bench-dir "$PERF_ROOT/bench" --out "$OUT/floor-$scn.json" "$@")
  if [ "$where" = ns ]; then in_ns "${cmd[@]}" >&2 || log "floor for $scn failed"; else "${cmd[@]}" >&2 || log "floor for $scn failed"; fi
}

scenario() {  # name, where, shaping description, extra, bench.py options...
  local name=$1 where=$2 desc=$3 extra=$4; shift 4
  log "== $name ($TOTAL reps × $PEERS)"
  meta "$name" "$desc" "$extra" start
  local args=(--peers "$PEERS" --reps "$TOTAL" --tag "$name" --out "$OUT/$name.jsonl" "$@")
  [ -n "$extra" ] && args+=(--extra "$extra")
  bench "$where" "${args[@]}" >&2 || log "$name: run.sh failed, continuing"
  meta "$name" "" "" end
}

stepdown() {  # P4: one bench.py call per (rep, peer), qdisc changed on a timer from when that call starts
  local name=stepdown-p4
  log "== $name ($TOTAL reps × $PEERS, ${RATE_HIGH} → ${RATE_LOW} at ${STEP_AT}s for ${STEP_FOR}s)"
  meta "$name" "netns tbf ${RATE_HIGH} → ${RATE_LOW} at ${STEP_AT} s after each run starts, for ${STEP_FOR} s, then ${RATE_HIGH}" "" start
  local rep peer
  for rep in $(seq 0 $((TOTAL - 1))); do
    for peer in ${PEERS//,/ }; do
      shape "$RATE_HIGH"
      (
        sleep "$STEP_AT"; shape "$RATE_LOW"; echo "$(date +%s.%N) $name:r$rep $peer $RATE_LOW" >> "$OUT/stepdown-tc.log"
        sleep "$STEP_FOR"; shape "$RATE_HIGH"; echo "$(date +%s.%N) $name:r$rep $peer $RATE_HIGH" >> "$OUT/stepdown-tc.log"
      ) &
      TIMER=$!
      echo "$(date +%s.%N) $name:r$rep $peer start" >> "$OUT/stepdown-tc.log"
      bench ns --peers "$peer" --reps 1 --tag "$name:r$rep" --out "$OUT/$name.jsonl" \
        --stream s120/master.m3u8 --stop 40 --delay-ms 20 --timeout 120 >&2 \
        || log "$name rep $rep $peer: run.sh failed, continuing"
      kill "$TIMER" 2>/dev/null || true; wait "$TIMER" 2>/dev/null || true; TIMER=""
    done
  done
  shape "$RATE_HIGH"
  meta "$name" "" "" end
}

T0=$(date +%s)
log "results folder: $OUT; cove: $COVE_BIN; reps $REPS (+$WARMUP warm-up); load $(loadavg)"
prepare
python3 "$PERF_ROOT/bench/physlimit.py" > "$OUT/physlimit-loopback.txt" 2>&1 || true   # the harness's own loopback floor, for the record
for s in ${SCENARIOS//,/ }; do
  case "$s" in
    startup-p0)
      floor host "$s" --stream s30 --reps 20
      scenario "$s" host "loopback" "" --stream s30/master.m3u8 --stop 10 ;;
    startup-p1)
      floor host "$s" --stream s120 --rate-kbps 4000 --delay-ms 40 --reps 10 --where "server pacing 4 Mbit/s per connection + 40 ms"
      scenario "$s" host "" "" --stream s120/master.m3u8 --stop 10 --rate-kbps 4000 --delay-ms 40 ;;
    teaser-p0)
      scenario "$s" host "loopback" "" --stream s120/master.m3u8 --stop 5 ;;
    teaser-p2)
      netns; shape "$RATE_HIGH"
      scenario "$s" ns "netns tbf ${RATE_HIGH} burst 16kb latency 300ms" "" --stream s120/master.m3u8 --stop 5 --delay-ms 20 ;;
    seek-p2)
      netns; shape "$RATE_HIGH"
      floor ns "$s" --stream s120 --delay-ms 20 --reps 5 --seek-seg 45 --seek-reps 3 --where "netns tbf ${RATE_HIGH} + 20 ms"
      scenario "$s" ns "netns tbf ${RATE_HIGH} burst 16kb latency 300ms" "&seekat=3&seekto=90" \
        --stream s120/master.m3u8 --stop 10 --delay-ms 20 ;;
    stepdown-p4)
      netns; stepdown ;;
    play20-p0)
      PEERS=cove,gst-playbin3 scenario "$s" host "loopback" "" --stream s30/master.m3u8 --stop 20 ;;
    startup-dash-p0)
      make_dash s30
      PEERS=${DASH_PEERS:-cove,gst-playbin3,mpv,vhs} scenario "$s" host "loopback" "" --stream s30-dash/manifest.mpd --stop 10 --timeout 30 ;;
    seek-dash-p2)
      make_dash s120; netns; shape "$RATE_HIGH"
      PEERS=${DASH_PEERS:-cove,mpv} scenario "$s" ns "netns tbf ${RATE_HIGH} burst 16kb latency 300ms" "&seekat=3&seekto=90" \
        --stream s120-dash/manifest.mpd --stop 10 --delay-ms 20 ;;
  esac
done
python3 "$HERE/peer_results.py" report --results "$OUT" --warmup "$WARMUP" --out "$MD" ${COVE_BENCH_MD:+--cove-bench "$COVE_BENCH_MD"}
log "done in $(( $(date +%s) - T0 )) s; JSONL in $OUT; Markdown in $MD"
