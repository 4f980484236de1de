#!/usr/bin/env bash
# One rung of the test ladder (docs/testing.md): an SPRT of CANDIDATE against BASE at a preset
# clock and bounds, on paired deals, two games at a time, its records under results/matches/ (compressed once the test ends).
# Run the same command again to resume it where it stopped.
#
# Usage: scripts/sprt.sh CANDIDATE BASE stc|ltc|nonreg [ENTROPY-MATCH-OPTIONS...]
#   CANDIDATE, BASE  a git revision (a commit, branch or tag: built once by
#                    scripts/baseline.sh and played as a CodeCup program with the preset's
#                    clock), or a player as `entropy match` takes it (`search:unfinished=1`,
#                    `cmd:./mybot`), played by this tree's release build
#   stc     short clock: 3 s per game, SPRT [0, 1.5] points per deal
#   ltc     long clock: 10 s per game, SPRT [0, 1.5]
#   nonreg  for changes that only remove code or options: 3 s, SPRT [-1.5, 0.5]
# Options after the preset go to `entropy match` (e.g. --seed 2, --jobs 1). The test runs on the
# margins less each game's luck in the draws (`entropy match --luck`, docs/testing.md); a test
# recorded before luck was measured resumes on the margins as played.
# ENTROPY_CLUSTER=1 plays the games as Ray tasks (python -m hyle_entropy.cluster match) with
# the same records; ENTROPY_ADDRESS=HEAD:6379 names a cluster.
set -euo pipefail

if [ $# -lt 3 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && [ "$1" = -h -o "$1" = --help ] && exit 0 || exit 2
fi
candidate=$1 base=$2 preset=$3
shift 3

case $preset in
  stc) clock=3 bounds=0,1.5 ;;
  ltc) clock=10 bounds=0,1.5 ;;
  nonreg) clock=3 bounds=-1.5,0.5 ;;
  *)
    echo "sprt.sh: unknown preset $preset: use stc, ltc or nonreg" >&2
    exit 2
    ;;
esac

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
entropy=$root/target/release/entropy

. "$root/scripts/players.sh"

a=$(player "$candidate")
b=$(player "$base")
out=$root/results/matches/sprt-$preset-$(label "$candidate")-vs-$(label "$base").jsonl.gz
if [ "${ENTROPY_CLUSTER:-0}" = 1 ]; then
  runner=(python3 -m hyle_entropy.cluster match)
  [ -n "${ENTROPY_ADDRESS:-}" ] && runner+=(--address "$ENTROPY_ADDRESS")
else
  if [ ! -x "$entropy" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
  fi
  # Two games at a time; a --jobs among the options comes later and wins.
  runner=("$entropy" match --jobs 2)
fi
echo "sprt.sh: $preset ($clock s per game, SPRT [$bounds]): $candidate vs $base -> $out" >&2
# `--sprt=` joined: the nonreg bounds start with a minus, which would read as an option.
exec "${runner[@]}" "$a" "$b" --clock "$clock" "--sprt=$bounds" --out "$out" "$@"
