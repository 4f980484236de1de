#!/usr/bin/env bash
# Fits the calibrations of the values the searching bots reach in play where the shipped one
# (scripts/fit_calibration.sh) does not apply (docs/search.md, Calibration), in one command:
#   crates/entropy-engine/weights/calibration-hand.txt: `search-hand` in self-play;
#   crates/entropy-engine/weights/calibration-hand-greedy.txt: as Chaos, the hand weights'
#     values (search:handgreedy=1) against an Order read as greedy;
#   crates/entropy-engine/weights/calibration-tables-greedy-chaos.txt: as Order, the default
#     bot's values (the line-pattern tables at its leaves) against a Chaos read as greedy.
# (calibration-greedy-chaos.txt, the same for `search:eval=linear`, was made by this script
# at 823a9e9, when the linear evaluation was the default's.)
# The games (examples/expected_samples.rs; each deal once with our bot as Chaos and once as
# Order; searches of several depths, so that every horizon has samples): the default bot
# against `greedy`, deals 0-599 at 20,000 nodes a move, 0-99 at 300,000 and 0-19 at 1,000,000;
# `search-hand` against itself, deals 0-199 at 20,000, 0-29 at 300,000 and 0-5 at 1,000,000.
# Node-limited, so the same command writes the same tables byte for byte.
#
# Usage: scripts/fit_calibration_play.sh [OUT_DIR]
#   OUT_DIR  [default: crates/entropy-engine/weights]
# About 45 minutes on 2 cores (the six sets at once); samples go to target/calibration/ and
# are reused when made with the same arguments (delete them after a change to the bots' play).
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=${1:-$root/crates/entropy-engine/weights}
[ -d "$out" ] || { echo "fit_calibration_play.sh: no folder $out" >&2; exit 2; }
cargo build --release --manifest-path "$root/Cargo.toml" -p entropy-cli -p entropy-engine \
  --bin entropy --example expected_samples >&2
entropy=$root/target/release/entropy
work=$root/target/calibration
mkdir -p "$work"

# samples NAME DEALS NODES OPPONENT OURS: the decisions of OURS in DEALS deals against
# OPPONENT at NODES a move.
samples() {
  # The arguments the set was made with, so that a set of other deals or nodes is made afresh
  # (and `search`'s sets from before its leaves were the tables').
  local made="$2 $3 $4 $5"
  [ "$5" = search ] && made="$made tables"
  if [ ! -s "$work/$1-none.csv" ] || [ "$(cat "$work/$1.args" 2>/dev/null)" != "$made" ]; then
    echo "fit_calibration_play.sh: $1: $5, $2 deals against $4 at $3 nodes a move" >&2
    "$root/target/release/examples/expected_samples" "$2" "$3" 0 "$work/$1.partial" "$4" "$5" \
      >/dev/null 2>"$work/$1.log"
    for kind in hand greedy weak none; do
      mv "$work/$1.partial-$kind.csv" "$work/$1-$kind.csv"
    done
    echo "$made" >"$work/$1.args"
  fi
}
samples greedy-20k 600 20000 greedy search &
samples greedy-300k 100 300000 greedy search &
samples greedy-1m 20 1000000 greedy search &
samples hand-20k 200 20000 self search-hand &
samples hand-300k 30 300000 self search-hand &
samples hand-1m 6 1000000 self search-hand &
wait
cd "$work"
for set in greedy-20k greedy-300k greedy-1m hand-20k hand-300k hand-1m; do
  [ -s "$set-none.csv" ] || {
    echo "fit_calibration_play.sh: the games of $set failed (target/calibration/$set.log):" >&2
    tail -n 3 "$set.log" >&2
    exit 1
  }
done
# fit TABLE SET_KIND...: TABLE fitted on the named samples files.
fit() {
  local table=$1
  shift
  "$entropy" calibrate --from-samples "$@" --calibration none --fit "$out/$table" >/dev/null
}
fit calibration-hand.txt hand-20k-none.csv hand-300k-none.csv hand-1m-none.csv
# The 600 deals at 20,000 nodes count a third each (@0.333), so that the three budgets weigh
# in the fits as they did with 200: less noise, the same balance between short and long searches.
fit calibration-hand-greedy.txt greedy-20k-hand.csv@0.333 greedy-300k-hand.csv \
  greedy-1m-hand.csv
# As Order the model reads greedy's Chaos only from turn 7 on, so that table's first turns sit at
# the edge of its samples, where a kernel two turns wide pools only later turns and leaves a
# bias (2.3 points at turn 7 on 600 held-out deals; one turn wide: 1.8).
fit calibration-tables-greedy-chaos.txt greedy-20k-greedy.csv@0.333 greedy-300k-greedy.csv \
  greedy-1m-greedy.csv --bandwidth 1
echo "fit_calibration_play.sh: wrote calibration-hand.txt, calibration-hand-greedy.txt and" \
  "calibration-tables-greedy-chaos.txt in $out" >&2
