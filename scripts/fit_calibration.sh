#!/usr/bin/env bash
# Fits the calibration shipped for the analysis and the default bot (the offsets that turn the
# searcher's values into Order's expected final score; docs/search.md, Calibration) from
# self-play games, in one command: crates/entropy-engine/weights/calibration-tables.txt for the
# line-pattern tables (`--eval tables`, the default bot's leaves), or calibration.txt for the
# linear evaluation alone (`search:eval=linear`). With the committed records it writes the
# shipped files byte for byte (node-limited searches are reproducible).
#
# Usage: scripts/fit_calibration.sh [tables|linear] [OUT.txt]
#   tables|linear  the evaluation searched [default: tables]
#   OUT            [default: the shipped file for it]
# Two sets of self-play games, weighted to count alike (docs/search.md, Calibration); they are
# the linear evaluation's games (the default before the tables), whose final scores stand for
# play between two such searchers:
#   the web page's strength: results/matches/selfplay-web.jsonl.gz (search:nodes=100000 against
#     itself, 200 games): every decision searched at 20,000 nodes (the evaluation graph's
#     budget), every 3rd at 300,000 and every 7th at 1,500,000 (about the Hint's second);
#   30 s per game: results/matches/memo-30s.jsonl.gz, selfplay-30s.jsonl.gz and selfplay-30s-seed2.jsonl.gz
#     (77 distinct games): every decision at 20,000 nodes, every 3rd at 300,000; weight 2.6.
# About 30 minutes on 2 cores for the linear evaluation, 40 for the tables; samples go to
# target/calibration/ (target/calibration/tables/) and are reused when there.
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
eval=${1:-tables}
case $eval in
  tables) shipped=calibration-tables.txt work=$root/target/calibration/tables ;;
  linear) shipped=calibration.txt work=$root/target/calibration ;;
  *)
    echo "fit_calibration.sh: unknown evaluation $eval: use tables or linear" >&2
    exit 2
    ;;
esac
out=${2:-$root/crates/entropy-engine/weights/$shipped}
entropy=$root/target/release/entropy
[ -x "$entropy" ] || cargo build --release --manifest-path "$root/Cargo.toml" >&2
mkdir -p "$work"
matches=$root/results/matches
gzip -dc "$matches/memo-30s.jsonl.gz" "$matches/selfplay-30s.jsonl.gz" "$matches/selfplay-30s-seed2.jsonl.gz" \
  >"$work/games-30s.jsonl"

# samples NAME RECORDS NODES EVERY: every EVERY-th decision of RECORDS searched at NODES.
samples() {
  local file=$work/$1.csv
  if [ ! -s "$file" ]; then
    echo "fit_calibration.sh: $1: every decision $4 of $2 at $3 nodes" >&2
    "$entropy" calibrate "$2" --eval "$eval" --nodes "$3" --every "$4" --calibration none \
      --samples "$file.partial" >/dev/null
    mv "$file.partial" "$file"
  fi
}
samples web-20k "$matches/selfplay-web.jsonl.gz" 20000 1
samples web-300k "$matches/selfplay-web.jsonl.gz" 300000 3
samples web-1500k "$matches/selfplay-web.jsonl.gz" 1500000 7
samples 30s-20k "$work/games-30s.jsonl" 20000 1
samples 30s-300k "$work/games-30s.jsonl" 300000 3
cd "$work"
"$entropy" calibrate --from-samples web-20k.csv web-300k.csv web-1500k.csv \
  30s-20k.csv@2.6 30s-300k.csv@2.6 --calibration none --fit "$out" >/dev/null
echo "fit_calibration.sh: wrote $out" >&2
