#!/usr/bin/env bash
# The gauntlet (docs/testing.md): CANDIDATE against opponents that are not itself, on paired
# deals, two games at a time, each match's records under results/matches/ (run the same command
# again to resume), then a table of the paired margins.
#
# Usage: scripts/gauntlet.sh CANDIDATE [BASE] [--clock S] [--deals N] [--against REV]
#   CANDIDATE    a git revision (built by scripts/baseline.sh, played as a CodeCup program) or a
#                player as `entropy match` names it (`search`, `search:unfinished=1`)
#   BASE         the previous default, a revision [default: none: the three fixed opponents]
#   --clock S    seconds per game and player [default: 30, CodeCup's]
#   --deals N    deals per opponent [default: 100]
#   --against R  a player whose gauntlet records (same clock) are in results/matches: the table
#                adds CANDIDATE's margin less R's, deal by deal on the same deals
#                (`entropy records`), e.g. the default the issue started from
# The opponents: expecti:depth=4 (the course assignment's expectiminimax), net (the learned
# agent), search-hand (our searcher with hand-set weights), and BASE.
set -euo pipefail

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
clock=30 deals=100 against= positional=()
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --clock) clock=${2:?--clock needs seconds}; shift 2 ;;
    --deals) deals=${2:?--deals needs a number}; shift 2 ;;
    --against) against=${2:?--against needs a player}; shift 2 ;;
    -*) echo "gauntlet.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
if [ ${#positional[@]} -lt 1 ] || [ ${#positional[@]} -gt 2 ]; then
  usage >&2
  exit 2
fi
candidate=${positional[0]}
base=${positional[1]:-}

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
entropy=$root/target/release/entropy
[ -x "$entropy" ] || cargo build --release --manifest-path "$root/Cargo.toml" >&2
. "$root/scripts/players.sh"

opponents=(expecti:depth=4 net search-hand)
[ -n "$base" ] && opponents+=("$base")
a=$(player "$candidate")
header="| opponent | paired margin per deal (95% CI) | less the draws' luck |"
rule="|---|---|---|"
if [ -n "$against" ]; then
  header+=" less $against's on the same deals |"
  rule+="---|"
fi
table="$header records |"$'\n'"$rule---|"
for opponent in "${opponents[@]}"; do
  b=$(player "$opponent")
  out=$root/results/matches/gauntlet-$(label "$candidate")-vs-$(label "$opponent")-${clock}s.jsonl.gz
  echo "gauntlet.sh: $candidate vs $opponent, $deals deals at $clock s -> $out" >&2
  summary=$("$entropy" match "$a" "$b" --clock "$clock" --deals "$deals" --jobs 2 --out "$out")
  printf '%s\n' "$summary" >&2
  margin=$(printf '%s\n' "$summary" | sed -n 's/^paired margin[^:]*: \([^(]*\)(95% CI, \([0-9]*\) deals.*/\1(\2 deals)/p')
  less=$(printf '%s\n' "$summary" | sed -n "s/^less the draws' luck[^:]*: \([^(]*\)(95% CI.*/\1/p")
  row="| $opponent | ${margin:-?} | ${less:--} |"
  if [ -n "$against" ]; then
    theirs=$root/results/matches/gauntlet-$(label "$against")-vs-$(label "$opponent")-${clock}s.jsonl.gz
    if [ -f "$theirs" ] || [ -f "${theirs%.gz}" ]; then
      versus=$("$entropy" records "$out" --against "$theirs" |
        sed -n "s/^  this match's margin less the other's, deal by deal: \(.*\) (95% CI)$/\1/p")
    else
      echo "gauntlet.sh: no records of $against against $opponent at $clock s ($theirs)" >&2
      versus=
    fi
    row+=" ${versus:--} |"
  fi
  table+=$'\n'"$row \`results/matches/$(basename "$out")\` |"
done
printf '%s\n' "$table"
