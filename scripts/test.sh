#!/usr/bin/env bash
# The whole test suite: the Rust workspace, then the Python package built into a fresh
# virtual environment (optional libraries it finds are tested, absent ones are skipped).
# Needs only the Rust toolchain, Python 3 and pip (packages come from PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace

venv=target/test-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip
"$venv/bin/pip" install --quiet "maturin>=1.5,<2" numpy pytest gymnasium pettingzoo
# A dev-profile wheel builds much faster than a release one; the tests do not time anything.
rm -rf target/test-wheels
"$venv/bin/maturin" build --quiet --profile dev --out target/test-wheels
"$venv/bin/pip" install --quiet target/test-wheels/*.whl
"$venv/bin/python" -m pytest -q python/tests
