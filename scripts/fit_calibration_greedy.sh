#!/usr/bin/env bash
# Fits the two calibrations the searching bot uses while it reads its opponent as greedy
# (docs/search.md, Calibration), in one command:
#   crates/entropy-engine/weights/calibration-hand-greedy.txt: as Chaos, the hand weights'
#     values (search:handgreedy=1) against an Order read as greedy;
#   crates/entropy-engine/weights/calibration-greedy-chaos.txt: as Order, the shipped weights'
#     values against a Chaos read as greedy.
# The games: the default bot against `greedy`, deals 0-199 at 20,000 nodes a move, deals 0-99
# at 300,000 and deals 0-19 at 1,000,000 (searches of several depths, so that every horizon
# has samples), each deal once as Chaos and once as Order (examples/expected_samples.rs);
# node-limited, so the same command writes the same tables byte for byte.
#
# Usage: scripts/fit_calibration_greedy.sh [OUT_DIR]
#   OUT_DIR  [default: crates/entropy-engine/weights]
# About 30 minutes on 2 cores (the three sets at once);
# samples go to target/calibration/ and are reused when there.
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=${1:-$root/crates/entropy-engine/weights}
[ -d "$out" ] || { echo "fit_calibration_greedy.sh: no folder $out" >&2; exit 2; }
cargo build --release --manifest-path "$root/Cargo.toml" -p entropy-cli -p entropy-engine \
  --bin entropy --example expected_samples >&2
entropy=$root/target/release/entropy
work=$root/target/calibration
mkdir -p "$work"

# samples NAME DEALS NODES: the decisions of DEALS deals against greedy at NODES a move.
samples() {
  if [ ! -s "$work/$1-hand.csv" ]; then
    echo "fit_calibration_greedy.sh: $1: $2 deals against greedy at $3 nodes a move" >&2
    "$root/target/release/examples/expected_samples" "$2" "$3" 0 "$work/$1.partial" \
      >/dev/null 2>&1
    for kind in hand greedy weak none; do
      mv "$work/$1.partial-$kind.csv" "$work/$1-$kind.csv"
    done
  fi
}
samples greedy-20k 200 20000 &
samples greedy-300k 100 300000 &
samples greedy-1m 20 1000000 &
wait
cd "$work"
for set in greedy-20k greedy-300k greedy-1m; do
  [ -s "$set-hand.csv" ] || { echo "fit_calibration_greedy.sh: the games of $set failed" >&2; exit 1; }
done
"$entropy" calibrate --from-samples greedy-20k-hand.csv greedy-300k-hand.csv greedy-1m-hand.csv \
  --calibration none --fit "$out/calibration-hand-greedy.txt" >/dev/null
"$entropy" calibrate --from-samples greedy-20k-greedy.csv greedy-300k-greedy.csv \
  greedy-1m-greedy.csv --calibration none --fit "$out/calibration-greedy-chaos.txt" >/dev/null
echo "fit_calibration_greedy.sh: wrote $out/calibration-hand-greedy.txt and calibration-greedy-chaos.txt" >&2
