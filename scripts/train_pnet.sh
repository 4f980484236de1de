#!/usr/bin/env bash
# Trains the Chaos policy networks of `pnet` from scratch, in one command: the searcher's
# placements as teacher data (`entropy policy-data`), then the network
# (`python -m hyle_entropy.placement_net train`, torch on the CPU), exported as ONNX; then the
# policy it plays against a greedy Order: spoiler's placements against greedy (spoiler answers
# greedy's exact reply; seconds of data), learned by fine-tuning the first network.
#
#   scripts/train_pnet.sh [DIR]        # data and models in DIR (default: pnet-run)
#
# Settings from the environment: GAMES (6000 teacher games), FIRST_SEED (0: their deal seeds
# follow from it), NODES (20000 per teacher move), EPOCHS (8), SEED (2026: the network's), JOBS
# (the CPUs), GREEDY_GAMES (6000, deal seeds from 40000) and GREEDY_EPOCHS (3) for the policy
# against greedy. Every step can be interrupted: rerunning resumes the data where it stopped
# (the training starts again). On 2 cores, with the defaults (the shipped models): about 65
# minutes of data and 40 of training, then 7 minutes for the policy against greedy.
# Needs torch and onnx in the Python that runs it (pip install torch onnx), and the package
# itself (pip install -e python, or maturin develop).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-pnet-run}
games=${GAMES:-6000}
mkdir -p "$dir"
cargo build --release --quiet -p entropy-cli
jobs=()
if [ -n "${JOBS:-}" ]; then jobs=(--jobs "$JOBS"); fi
target/release/entropy policy-data --role chaos --games "$games" --nodes "${NODES:-20000}" \
  --first-seed "${FIRST_SEED:-0}" --out "$dir/chaos" "${jobs[@]}"
${PYTHON:-python3} -m hyle_entropy.placement_net train --data "$dir/chaos" \
  --epochs "${EPOCHS:-8}" --seed "${SEED:-2026}" --threads "${JOBS:-$(nproc)}" \
  --out "$dir/pnet-chaos.onnx"
target/release/entropy policy-data --role chaos --games "${GREEDY_GAMES:-6000}" \
  --teacher spoiler --opponent greedy --first-seed 40000 --out "$dir/greedy" "${jobs[@]}"
${PYTHON:-python3} -m hyle_entropy.placement_net train --data "$dir/greedy" \
  --init "$dir/pnet-chaos.onnx" --lr 2e-3 --epochs "${GREEDY_EPOCHS:-3}" \
  --seed "${SEED:-2026}" --threads "${JOBS:-$(nproc)}" --out "$dir/pnet-chaos-greedy.onnx"
echo "trained: $dir/pnet-chaos.onnx and $dir/pnet-chaos-greedy.onnx; play them with an onnx build:"
echo "  target/release/entropy match pnet:model=$dir/pnet-chaos.onnx search:depth=1 --deals 200"
echo "  target/release/entropy match pnet:model=$dir/pnet-chaos.onnx,against_greedy=$dir/pnet-chaos-greedy.onnx greedy --deals 500"
