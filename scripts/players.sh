# Sourced by sprt.sh and gauntlet.sh: players as `entropy match` takes them, from a git revision
# or a player spec. Needs $root (the repository) and $clock (seconds per game).

# A revision becomes a CodeCup program with the clock; anything else is a player spec.
player() {
  if git -C "$root" rev-parse --verify --quiet "$1^{commit}" >/dev/null; then
    "$root/scripts/baseline.sh" "$1" --time-budget "$clock"
  else
    printf '%s\n' "$1"
  fi
}

# A file name from a player: its revision's short hash, or the spec with odd characters dropped.
label() {
  if commit=$(git -C "$root" rev-parse --verify --quiet --short "$1^{commit}"); then
    printf '%s' "$commit"
  else
    printf '%s' "$1" | tr -c 'A-Za-z0-9=.-' '_'
  fi
}
