#!/bin/sh
# Never answers: the arena must time it out and kill it.
exec sleep 60
