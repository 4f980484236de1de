#!/usr/bin/env bash
# The whole test suite: the Rust workspace, then the Python package built into a fresh
# virtual environment (optional libraries it finds are tested, absent ones are skipped).
# Needs only the Rust toolchain, Python 3 and pip (packages come from PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace
# The networks' bots (`wnet`, `pnet`, `ppo`) are behind a feature (tract is a large build):
# their Rust/Python same-move tests, and every bot of the build playing legally.
cargo test -p entropy-engine --features onnx --test wnet --test ppo --test bots

# A dev-profile wheel builds much faster than a release one; the tests do not time anything.
build=target/test-venv-build
rm -rf "$build" target/test-wheels
python3 -m venv "$build"
"$build/bin/pip" install --quiet "maturin>=1.5,<2"
"$build/bin/maturin" build --quiet --profile dev --out target/test-wheels

# PufferLib 3.0.0 cannot be pip-installed here (its build needs torch and downloads raylib); its
# Python code runs unbuilt, so the oldest-pins run tests the adapter through pufferlib.vector
# from the sdist (its modules import gym and psutil). The newest run installs pufferlib-core
# (PufferLib's trainer and vector module, prebuilt; it pins torch 2.9.0), and trains PPO with it.
python3 scripts/fetch_pufferlib.py target/pufferlib-src

# pytest in a fresh virtual environment with the wheel and these requirements, PYTHONPATH set
# to the first argument.
python_tests() {
  local venv=$1 pythonpath=$2
  shift 2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "$@" pytest gym psutil target/test-wheels/*.whl
  local started=$venv/pytest-started
  touch "$started"
  PYTHONPATH="$pythonpath" "$venv/bin/python" -m pytest -q -rs python/tests || {
    local status=$?
    ray_logs "$started"
    return $status
  }
}
# Ray's own logs of its last session, if this pytest run started it (newer than the file $1): a
# driver whose raylet dies leaves by _exit(1) with no traceback, so a failed run shows what Ray
# saw (the raylet, its control store, the driver).
ray_logs() {
  local logs=/tmp/ray/session_latest/logs file
  [ -d "$logs" ] && [ "$logs" -nt "$1" ] || return 0
  for file in "$logs"/raylet.out "$logs"/raylet.err "$logs"/gcs_server.out "$logs"/python-core-driver-*.log; do
    [ -s "$file" ] || continue
    echo "--- $file (last 25 lines)" >&2
    tail -n 25 "$file" >&2
  done
}
# The newest numpy, gymnasium, pettingzoo, Ray (the cluster tests) and the PPO trainer's
# requirements (the package's [puffer] extra), then the oldest we support, which are PufferLib
# 3.0.0's pins (without Ray and torch: their tests skip there).
python_tests target/test-venv "" numpy gymnasium pettingzoo ray \
  "pufferlib-core==3.0.23" "torch==2.9.0" "onnx>=1.15" "matplotlib>=3.5"
python_tests target/test-venv-pins "$PWD/target/pufferlib-src" "numpy<2" "gymnasium==0.29.1" "pettingzoo==1.24.3"

# The web page end to end in headless Chromium (tests/e2e). Skipped, with a message, where
# Node.js or Chromium is missing, except under CI (CI set), where that fails: .ci/run installs
# both; locally `apt-get install chromium nodejs npm`.
if command -v node >/dev/null && command -v npm >/dev/null; then
  (cd tests/e2e && npm ci --silent --no-audit --no-fund)
  ENTROPY_BIN=target/debug/entropy node tests/e2e/web.test.mjs
elif [ -n "${CI:-}" ]; then
  echo "FAIL web end-to-end test: no Node.js under CI (.ci/run installs it)" >&2
  exit 1
else
  echo "SKIP web end-to-end test: no Node.js (the web API itself is tested by cargo test)"
fi
