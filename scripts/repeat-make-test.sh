#!/usr/bin/env bash
# Runs `CI=true make test` N times in a row at one commit, in a worktree of its own (so work can go on in this
# checkout meanwhile), and records one line per run: how issue 14's "20 consecutive make test runs with 0 crashes"
# was shown. A failing run does not stop the loop; a crash is counted from run-tests.sh's own crash lines.
#
#   bash scripts/repeat-make-test.sh [N=20] [COMMIT=HEAD] [DIR=/tmp/cove-repeat]
#   (start it with setsid … & to keep it going; results in DIR/runs.log, each run's output in DIR/run-K.log)
set -u
N=${1:-20}
COMMIT=$(git rev-parse --short "${2:-HEAD}")
DIR=${3:-/tmp/cove-repeat}
TREE="$DIR/tree"
mkdir -p "$DIR"
[ -d "$TREE" ] || git worktree add --detach "$TREE" "$COMMIT" >/dev/null
git -C "$TREE" checkout --detach -q "$COMMIT"
for i in $(seq 1 "$N"); do
  start=$(date +%s)
  (cd "$TREE" && CI=true make test) > "$DIR/run-$i.log" 2>&1
  rc=$?
  crashes=$(grep -c "CRASHED\|died from signal" "$DIR/run-$i.log")
  echo "run $i rc $rc crashed-lines $crashes $(( $(date +%s) - start ))s $(date -u +%H:%M) $COMMIT" >> "$DIR/runs.log"
done
echo done >> "$DIR/runs.log"
