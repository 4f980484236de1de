#!/bin/sh
# As Chaos always places on Aa (legal once, then occupied); as Order answers "Aa" (no move).
while read -r line; do
  case "$line" in
    Quit) exit 0 ;;
    Start|??Aa|????) ;;
    ?) echo Aa ;;
    *) echo AaAb ;;
  esac
done
