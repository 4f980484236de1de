#!/usr/bin/env bash
# Builds the `entropy` binary of a git revision (once; later calls reuse it) and prints the
# `entropy match` player that runs it through the CodeCup protocol, so that "this working tree
# against main" is one command:
#
#   entropy match search "$(scripts/baseline.sh main)" --sprt 0,5
#
# Usage: scripts/baseline.sh REV [CODECUP-OPTIONS...]
#   REV              any git revision: a commit, a branch, a tag, HEAD~3
#   CODECUP-OPTIONS  appended to `entropy codecup`, e.g. --bot search:nodes=20000, or
#                    --time-budget 3 for a match played with --clock 3 (the program keeps its
#                    own clock, 30 s by default)
# The binary goes to target/baselines/COMMIT/entropy (ENTROPY_BASELINES overrides the folder);
# build output goes to standard error, the player alone to standard output.
set -euo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 2
fi
rev=$1
shift

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
if ! commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}"); then
  echo "baseline.sh: $rev is not a revision of $root (try a commit hash, a branch or HEAD~1)" >&2
  exit 2
fi
cache=${ENTROPY_BASELINES:-$root/target/baselines}
bin=$cache/$commit/entropy

if [ ! -x "$bin" ]; then
  echo "baseline.sh: building $rev ($commit) into $bin" >&2
  # The revision's files alone (no worktree bookkeeping), always in the same folder so that
  # one build folder serves every baseline and only the changed crates rebuild.
  src=$cache/src
  rm -rf "$src"
  mkdir -p "$src"
  # -m: the files get the time of extraction, not the commit's. With the commit's time, a
  # revision older than the last one built here looks older than its build and cargo keeps
  # the other revision's binary.
  git -C "$root" archive "$commit" | tar -x -m -C "$src"
  cargo build --release --locked --manifest-path "$src/Cargo.toml" --target-dir "$cache/build" \
    -p entropy-cli --bin entropy >&2
  mkdir -p "$cache/$commit"
  cp "$cache/build/release/entropy" "$bin.partial"
  mv "$bin.partial" "$bin"
fi

printf 'cmd:%s codecup' "$bin"
for option in "$@"; do
  printf ' %q' "$option"
done
printf '\n'
