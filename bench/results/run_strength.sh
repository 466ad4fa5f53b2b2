#!/bin/sh
# The runs behind README's medium and easy figures (hard's: run_strength_hard.sh):
#   sh bench/results/run_strength.sh B    # 4-player table lines, 2,000 rounds each
#   sh bench/results/run_strength.sh N    # 9-card's three lines alone (medium changed there)
# Output: bench/results/strength_B.txt. The run kept in the repository was cut after
# 9-card's first line; 9-card's easy lines are in strength_D.txt (its match lines are
# of an older hard, superseded) and a re-run of its medium-vs-greedy line in strength_E.txt.
# Since medium's 9-card take rule (2026-11-25), 9-card's lines are in strength_N.txt.
set -u
cd "$(dirname "$0")/../.."
PY=".venv/bin/python -W ignore bench/bot_strength.py"
case "$1" in
B)
  out=bench/results/strength_B.txt; : > $out
  for v in 4-card 6-card polish-poker 9-card; do
    nice $PY --line table --variant $v --hero medium --villain greedy --rounds 2000 >> $out 2>&1
    nice $PY --line table --variant $v --hero easy --villain medium --rounds 2000 >> $out 2>&1
    nice $PY --line table --variant $v --hero easy --villain random --rounds 2000 >> $out 2>&1
  done ;;
N)
  out=bench/results/strength_N.txt; : > $out
  nice $PY --line table --variant 9-card --hero medium --villain greedy --rounds 2000 >> $out 2>&1
  nice $PY --line table --variant 9-card --hero easy --villain medium --rounds 2000 >> $out 2>&1
  nice $PY --line table --variant 9-card --hero easy --villain random --rounds 2000 >> $out 2>&1 ;;
esac
