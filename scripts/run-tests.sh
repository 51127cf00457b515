#!/usr/bin/env bash
# Runs every test the way `make test` (and so CI) does, after `swift build --build-tests`:
#   1. everything except the real-engine suites and the fuzz budgets, in one process (in parallel), then the
#      suites that measure against a child process (ALONE) in one of their own;
#   2. each real-engine suite (RealEngineTests/<Suite>) in a process of its own;
#   3. the time-budgeted parser fuzzing, alone.
#
# Why the real-engine suites get their own processes: a crash inside the engine kills the whole test
# process; alone, a suite that hits one cannot take the results of every other suite with it, and the
# crash is attributed to the suite that ran it (its crashed thread's full backtrace is in the output).
# A crash is a failure, never retried. (Until Cove owned its streaming, GStreamer 1.22.0's HLS
# network layer crashed now and then and a crashed suite got a second try; HLS no longer goes through it.)
#
# Environment: SWIFT (swift), SWIFT_FLAGS (passed to swift build), FUZZ_TESTS (fuzzForTheTimeBudget).
set -uo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FUZZ_TESTS=${FUZZ_TESTS:-fuzzForTheTimeBudget}
# Full frames of every thread if a test process crashes or its watchdog aborts it (the default elides library
# frames and shows only the crashed thread; a hang needs the others).
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-preset=full,threads=all,images=mentioned,registers=none}

# shellcheck disable=SC2086
bin="$($SWIFT build --show-bin-path ${SWIFT_FLAGS:-})/CovePackageTests.xctest"
if [ ! -x "$bin" ]; then
    echo "run-tests: $bin is missing; build the tests first (swift build --build-tests)" >&2
    exit 2
fi
xctest() { "$bin" --testing-library swift-testing "$@"; }

# A hang is a failure, and one that says where it is: each test process runs under a watchdog (PROCESS_LIMIT
# seconds, 900 by default; a whole run takes ~25 min). When it trips, the tests that started and never ended
# are listed, and the process gets SIGABRT, so the Swift runtime's backtracer prints every thread's stack
# (SWIFT_BACKTRACE below) before it dies.
PROCESS_LIMIT=${PROCESS_LIMIT:-900}
logdir=$(mktemp -d "${TMPDIR:-/tmp}/cove-run-tests.XXXXXX")
watched() {
    local label=$1
    shift
    local log="$logdir/$(tr -c 'A-Za-z0-9' '_' <<<"$label").log"
    "$bin" --testing-library swift-testing "$@" > >(tee "$log") 2>&1 &
    local pid=$!
    (
        trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
        sleep "$PROCESS_LIMIT" &
        sleeper=$!
        wait "$sleeper"
        if kill -0 "$pid" 2>/dev/null; then
            echo "!! run-tests: $label is still running after ${PROCESS_LIMIT}s: a hang. Tests started and never ended:"
            sed -nE 's/.*Test ([^ ]*\([^)]*\)) started.*/Test \1/p' "$log" | sort -u >"$log.started"
            sed -nE 's/.*Test ([^ ]*\([^)]*\))( with [0-9]+ test cases?)? (passed|failed|skipped).*/Test \1/p' "$log" | sort -u >"$log.ended"
            comm -23 "$log.started" "$log.ended" | sed 's/^/!!   /'
            kill -ABRT "$pid" 2>/dev/null
            # A minute for the backtracer to print every thread, then it is killed outright.
            for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 1; done
            kill -KILL "$pid" 2>/dev/null
        fi
    ) &
    local watchdog=$!
    wait "$pid"
    local status=$?
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    return "$status"
}

failed=()
crashes=()

echo "== unit, CLI and service tests (one process) =="
# Suites that measure bytes or time against a child process run alone after the shared process: the kill
# test counts what the origin sent, and a client starved by a busy shared process leaves more in socket
# buffers at each kill (50 kills measured 1.05-1.07x alone, up to 1.12x beside the rest).
ALONE="OfflineKillTests"
# At most UNIT_WIDTH tests run at once (swift-testing starts every test of the process together otherwise):
# on two cores a thousand tests started at once, with the fixtures' encoders among them, stretched waits
# that time out past their bounds (a 5 s licence window, a controls-hide delay). Twelve at a time took
# 77 s here against 74 s unbounded.
UNIT_WIDTH="${UNIT_WIDTH:-12}"
watched "unit, CLI and service tests" --skip RealEngineTests --skip "$FUZZ_TESTS" --skip "$ALONE" \
    --experimental-maximum-parallelization-width "$UNIT_WIDTH" || failed+=("everything but the real engine and fuzzing")
echo "== measured alone: $ALONE =="
watched "$ALONE" --filter "$ALONE" || failed+=("$ALONE")

suites=$(xctest --list-tests 2>/dev/null | sed -n 's|^CoveGStreamerTests\.RealEngineTests/\([A-Za-z0-9_]*\)/.*|\1|p' | sort -u)
if [ -z "$suites" ]; then
    echo "run-tests: found no real-engine suites in the test list" >&2
    exit 2
fi
for suite in $suites; do
    echo "== real engine: $suite (own process) =="
    watched "RealEngineTests/$suite" --filter "RealEngineTests/$suite/"
    status=$?
    if [ "$status" -gt 128 ]; then
        crashes+=("$suite (signal $((status - 128)))")
        echo "!! run-tests: the $suite process died from signal $((status - 128)): a crash (backtrace above)."
    fi
    [ "$status" -eq 0 ] || failed+=("RealEngineTests/$suite (exit $status)")
done

echo "== parser fuzzing, alone =="
watched "parser fuzzing" --filter "$FUZZ_TESTS" || failed+=("$FUZZ_TESTS")

rm -rf "$logdir"
if [ "${#crashes[@]}" -gt 0 ]; then
    echo "run-tests: CRASHED: ${crashes[*]}"
fi
if [ "${#failed[@]}" -gt 0 ]; then
    echo "run-tests: FAILED: ${failed[*]}"
    exit 1
fi
echo "run-tests: all passed"
