#!/usr/bin/env bash
# make bench: Cove's own micro-benchmarks (cove-bench) plus the peer scenarios of issue 4 (bench/peers.sh),
# written together to bench/RESULTS.md.
#
#   bash bench/run.sh [--quick] [--reps N] [--scenarios a,b] [--no-peers] [--no-cove-bench] [-- cove-bench options]
#
#   --quick           cove-bench --reps 4 and peers.sh --quick (2 measured reps + 1 warm-up): a faster, rougher run
#   --reps N          measured repetitions per peer and scenario (default 5, plus 1 warm-up)
#   --scenarios LIST  only these peer scenarios (see bench/peers.sh)
#   --no-peers        skip the peer scenarios; their section is carried over from the current RESULTS.md
#   --no-cove-bench   skip cove-bench; its section is carried over from the current RESULTS.md
#   --no-offline      skip the download benchmark (bench/offline.py); its section is carried over
#   --no-view         skip the player view benchmark (cove-bench --view); its section is carried over
#   --no-protected    skip the protected-content benchmark (cove-bench --protected); its section is carried over
#   BIN=DIR           directory with the release `cove` and `cove-bench` (default: swift build -c release --show-bin-path)
#   BENCH_SOURCE=TEXT what those binaries were built from, for the header (default: this tree's commit)
#   OUT=FILE          result file (default bench/RESULTS.md)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$(swift build -c release --show-bin-path)}
OUT=${OUT:-bench/RESULTS.md}
PEER_ARGS=(); CB_ARGS=(); RUN_PEERS=1; RUN_CB=1; RUN_OFFLINE=1; RUN_VIEW=1; RUN_PROTECTED=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) PEER_ARGS+=(--quick); CB_ARGS+=(--reps 4); shift ;;
    --reps) PEER_ARGS+=(--reps "$2"); shift 2 ;;
    --scenarios) PEER_ARGS+=(--scenarios "$2"); shift 2 ;;
    --no-peers) RUN_PEERS=0; shift ;;
    --no-cove-bench) RUN_CB=0; shift ;;
    --no-offline) RUN_OFFLINE=0; shift ;;
    --no-view) RUN_VIEW=0; shift ;;
    --no-protected) RUN_PROTECTED=0; shift ;;
    --) shift; CB_ARGS+=("$@"); break ;;
    *) CB_ARGS+=("$1"); shift ;;   # anything else goes to cove-bench, as before
  esac
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
T0=$(date +%s)
ASSEMBLE=(--out "$OUT")
if [ "$RUN_CB" = 1 ]; then
  echo "== cove-bench ($BIN/cove-bench)" >&2
  "$BIN/cove-bench" --out "$TMP/cove-bench.md" "${CB_ARGS[@]}"
  ASSEMBLE+=(--cove-bench "$TMP/cove-bench.md")
fi
if [ "$RUN_PEERS" = 1 ]; then
  echo "== peers (bench/peers.sh)" >&2
  CB_MD=$TMP/cove-bench.md
  [ -f "$CB_MD" ] || { CB_MD=$TMP/old.md; [ -f "$OUT" ] && cp "$OUT" "$CB_MD" || : > "$CB_MD"; }
  COVE_BIN="$BIN/cove" bash bench/peers.sh "${PEER_ARGS[@]}" --md "$TMP/peers.md" --cove-bench "$CB_MD"
  ASSEMBLE+=(--peers "$TMP/peers.md")
fi
if [ "$RUN_OFFLINE" = 1 ]; then
  echo "== downloads (bench/offline.py)" >&2
  PERF_ROOT=${PERF_ROOT:-/tmp/cove-peer-bench}
  # The harness's own 120 s stream, made by its generator when the peer run has not made it yet.
  [ -f "$PERF_ROOT/media/s120/master.m3u8" ] || bash ../shared/tools/peer-bench/gen.sh "$PERF_ROOT/media/s120" 120
  command -v wget >/dev/null || { sudo=$([ "$(id -u)" = 0 ] || echo sudo); $sudo apt-get install -y -qq --no-install-recommends wget; }
  python3 bench/offline.py --cove "$BIN/cove" --media "$PERF_ROOT/media/s120" --md "$TMP/offline.md"
fi
if [ "$RUN_VIEW" = 1 ]; then
  echo "== player view (cove-bench --view)" >&2
  "$BIN/cove-bench" --view 5 > "$TMP/view.md"
fi
if [ "$RUN_PROTECTED" = 1 ]; then
  echo "== protected content (cove-bench --protected)" >&2
  "$BIN/cove-bench" --protected 7 > "$TMP/protected.md"
fi
# What the binaries were built from; set BENCH_SOURCE when BIN points at binaries built from another tree.
if [ -z "${BENCH_SOURCE:-}" ]; then
  BENCH_SOURCE="commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  git diff --quiet HEAD -- Sources Package.swift 2>/dev/null || BENCH_SOURCE="$BENCH_SOURCE + uncommitted changes"
fi
# Which run measured each section: a section not re-run is carried over from the current file, with the origin
# recorded there (an origin comment per section; for a file without them, its header's run).
NOW_STAMP="$(date -u '+%Y-%m-%d %H:%M UTC') from $BENCH_SOURCE"
ORIGINS=$(python3 - "$OUT" "$NOW_STAMP" "cove-bench=$RUN_CB" "peers=$RUN_PEERS" "downloads=$RUN_OFFLINE" "view=$RUN_VIEW" "protected=$RUN_PROTECTED" <<'PY'
import os, re, sys
out, now, runs = sys.argv[1], sys.argv[2], [a.split('=') for a in sys.argv[3:]]
text = open(out).read() if os.path.exists(out) else ''
recorded = dict(re.findall(r'<!-- origin (\S+): (.+?) -->', text))
header = re.search(r'on (\S+ \S+ UTC) from (.+?), \d+ cores', re.sub(r'\s+', ' ', text))
fallback = '%s from %s' % header.groups() if header else 'an earlier run'
origin = {name: now if ran == '1' else recorded.get(name, fallback) for name, ran in runs}
carried = ['%s (%s)' % (name, origin[name]) for name, ran in runs if ran != '1']
print('\n'.join('<!-- origin %s: %s -->' % kv for kv in origin.items()))
if carried:
    print('Not re-run here, carried over with their numbers from earlier runs: ' + '; '.join(carried) + '.')
PY
)
HEADER="# Cove benchmark results

Generated by \`make bench\` (\`bench/run.sh\`) on $NOW_STAMP, $(nproc) cores,
load average at the end $(cut -d' ' -f1-3 /proc/loadavg). Numbers are medians from one run on this shared machine;
compare the ratios, not the absolute times. The first section is Cove's own micro-benchmark (\`cove-bench\`), the
second Cove against its peers through the shared peer benchmark (\`bench/peers.sh\`). This run took $(( ($(date +%s) - T0) / 60 )) min.
How Cove is timed: its \`firstFrame\` is when the start frame is shown — at preroll, as a display sink shows it and as
Media3's onRenderedFirstFrame and Chromium's frame callbacks count it — not at its clock time (about one frame plus the
audio's head start later: ~83 ms on these streams, which the gst-playbin3 peer's first \`chain\` in PLAYING includes).
\`cove probe\` starts loading GStreamer's plugins at exec (\`GStreamerEngine.warmUp()\`, what an app does at launch) and its first request waits for them, so
that cost (cold libav alone: 70–400 ms) is in its \`init\` column, as a browser's media stack is in the browsers' \`init\`.
$ORIGINS"
# The download section (bench/offline.py): kept aside before assembling, then the new one, else the old one.
python3 - extract "$OUT" "$TMP/previous-offline.md" "$TMP/previous-view.md" "$TMP/previous-protected.md" <<'PY'
import os, re, sys
_, out, keep_offline, keep_view, keep_protected = sys.argv[1:]
text = open(out).read() if os.path.exists(out) else ''
for name, keep in (('offline', keep_offline), ('view', keep_view), ('protected', keep_protected)):
    m = re.search(r'<!-- %s:begin -->.*?<!-- %s:end -->\n?' % (name, name), text, re.S)
    if m: open(keep, 'w').write(m.group(0))
PY
python3 bench/peer_results.py assemble "${ASSEMBLE[@]}" --header "$HEADER"
python3 - "$OUT" "$TMP/offline.md" "$TMP/previous-offline.md" "$TMP/view.md" "$TMP/previous-view.md" "$TMP/protected.md" "$TMP/previous-protected.md" <<'PY'
import os, sys
out, new_offline, old_offline, new_view, old_view, new_protected, old_protected = sys.argv[1:]
for new, old in ((new_offline, old_offline), (new_view, old_view), (new_protected, old_protected)):
    section = next((open(p).read() for p in (new, old) if os.path.exists(p)), None)
    if section:
        text = open(out).read().rstrip('\n') + '\n\n' + section
        open(out, 'w').write(text)
PY
