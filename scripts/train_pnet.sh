#!/usr/bin/env bash
# Trains the Chaos policy network of `pnet` from scratch, in one command: the searcher's
# placements as teacher data (`entropy policy-data`), then the network
# (`python -m hyle_entropy.placement_net train`, torch on the CPU), exported as ONNX.
#
#   scripts/train_pnet.sh [DIR]        # data and models in DIR (default: pnet-run)
#
# Settings from the environment: GAMES (6000 teacher games), FIRST_SEED (0: their deal seeds
# follow from it), NODES (20000 per teacher move), EPOCHS (8), SEED (2026: the network's), JOBS
# (the CPUs). Both steps can be interrupted: rerunning resumes the data where it stopped (the
# training starts again). On 2 cores, with the defaults (the shipped model): about 65 minutes of
# data and 40 of training.
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
echo "trained: $dir/pnet-chaos.onnx; play it with a wnet build:"
echo "  target/release/entropy match pnet:model=$dir/pnet-chaos.onnx search:depth=1 --deals 200"
