#!/bin/sh
# What README's strength figures were actually run with, on a 2-core machine shared
# with other jobs (fewer rounds than bench/results/run_strength.sh asks for):
#   sh bench/results/run_strength_short.sh C   # table lines, 200 rounds
#   sh bench/results/run_strength_short.sh D   # easy lines for 9-card, 60 matches a variant
set -u
cd "$(dirname "$0")/../.."
PY=".venv/bin/python -W ignore bench/bot_strength.py"
case "$1" in
C)
  out=bench/results/strength_C.txt; : > $out
  for args in "--variant 6-card" "--variant 4-card" "--variant polish-poker" "--variant 9-card"; do
    nice $PY --line table $args --rounds 200 >> $out 2>&1
  done ;;
D)
  out=bench/results/strength_D.txt; : > $out
  nice $PY --line table --variant 9-card --hero easy --villain medium --rounds 2000 >> $out 2>&1
  nice $PY --line table --variant 9-card --hero easy --villain random --rounds 2000 >> $out 2>&1
  for v in 6-card 4-card polish-poker 9-card; do
    nice $PY --line matches --variant $v --rounds 60 >> $out 2>&1
  done ;;
esac
