#!/bin/sh
# Answers every line with text that is no move.
while read -r line; do
  [ "$line" = Quit ] && exit 0
  echo "hello there"
done
