#!/usr/bin/env bash
# make bench: engine-relative benchmarks, written to bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(swift build -c release --show-bin-path)
"$BIN/cove-bench" --out bench/RESULTS.md "$@"
