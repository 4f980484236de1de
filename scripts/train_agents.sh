#!/usr/bin/env bash
# Trains the network-only agents' models from scratch, in one command, and prints the matches
# that measure them against the learned-agent targets:
#   1. net7.bin: `net`'s values, distilled from the searcher (`entropy train-net`; Chaos's);
#   2. net7-order.bin: Order's values by temporal differences against a one-move lookahead
#      over the linear evaluation and against `net`'s Chaos over the model of step 1;
#   3. net7-greedy-order.bin: Order's values against greedy;
#   4. pnet-chaos-greedy.onnx: a Chaos policy network imitating `spoiler` against greedy
#      (spoiler answers greedy's exact reply), from scratch (`python -m hyle_entropy.placement_net`).
# Steps 1-3 are the commands of the shipped weights (with the default seeds they give the same
# files, byte for byte); step 4 trains from scratch where the shipped policy was fine-tuned from
# the main Chaos policy (scripts/train_pnet.sh makes both, in about two hours).
#
#   scripts/train_agents.sh [DIR]      # models in DIR (default: agents-run)
#
# Settings from the environment: JOBS (threads: the CPUs), GREEDY_EPOCHS (1), PYTHON (python3).
# About 30 minutes on 2 cores. Step 4 needs torch and onnx (pip install torch onnx) and the
# package itself (pip install -e python, or maturin develop); playing the policy needs a build
# with `--features onnx`.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-agents-run}
jobs=${JOBS:-$(nproc)}
mkdir -p "$dir"
cargo build --release --quiet -p entropy-cli
entropy=target/release/entropy
$entropy train-net --jobs "$jobs" --out "$dir/net7.bin" --curve "$dir/net-curve.csv" --quiet
$entropy train-net --method td --chaos search:depth=1,watch=0,tt=1 \
  --chaos "net:model=$dir/net7.bin" --games 300000 --eval-every 50000 --eval-deals 100 \
  --jobs "$jobs" --out "$dir/net7-order.bin" --curve "$dir/net-order-curve.csv" --quiet
$entropy train-net --method td --greedy-chaos --games 300000 --eval-every 50000 \
  --eval-deals 200 --jobs "$jobs" --out "$dir/net7-greedy-order.bin" \
  --curve "$dir/net-greedy-order-curve.csv" --quiet
$entropy policy-data --role chaos --games 6000 --teacher spoiler --opponent greedy \
  --first-seed 40000 --out "$dir/greedy" --jobs "$jobs"
${PYTHON:-python3} -m hyle_entropy.placement_net train --data "$dir/greedy" --lr 2e-3 \
  --epochs "${GREEDY_EPOCHS:-1}" --seed 2026 --threads "$jobs" \
  --out "$dir/pnet-chaos-greedy.onnx"
net="net:model=$dir/net7.bin,order=$dir/net7-order.bin,against_greedy=$dir/net7-greedy-order.bin"
echo "trained in $dir; measure them:"
echo "  $entropy match $net search:depth=1 --deals 200    # paired margin >= +10"
echo "  $entropy match $net greedy --deals 500            # >= 110 as Order"
echo "  # with an onnx build (cargo build --release --features onnx), <= 30 conceded:"
echo "  $entropy match pnet:model=$dir/pnet-chaos-greedy.onnx,against_greedy=$dir/pnet-chaos-greedy.onnx greedy --deals 500"
