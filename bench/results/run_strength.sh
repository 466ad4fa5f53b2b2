#!/bin/sh
# The runs behind README's bot-strength figures, in two queues (one per core):
#   sh bench/results/run_strength.sh A N_TABLE   # 4-player table lines, hard vs 3 medium
#   sh bench/results/run_strength.sh B N_MATCH   # 2-player matches + the cheap lines
# Output: bench/results/strength_A.txt, strength_B.txt
set -u
cd "$(dirname "$0")/../.."
PY=".venv/bin/python -W ignore bench/bot_strength.py"
case "$1" in
A)
  out=bench/results/strength_A.txt; : > $out
  for args in "--variant 6-card --rule final_turn=on" "--variant 6-card" "--variant 4-card" \
              "--variant polish-poker" "--variant 9-card"; do
    nice $PY --line table $args --rounds "$2" >> $out 2>&1
  done ;;
B)
  out=bench/results/strength_B.txt; : > $out
  for v in 4-card 6-card polish-poker 9-card; do
    nice $PY --line table --variant $v --hero medium --villain greedy --rounds 2000 >> $out 2>&1
    nice $PY --line table --variant $v --hero easy --villain medium --rounds 2000 >> $out 2>&1
    nice $PY --line table --variant $v --hero easy --villain random --rounds 2000 >> $out 2>&1
  done
  for v in 6-card 4-card polish-poker 9-card; do
    nice $PY --line matches --variant $v --rounds "$2" >> $out 2>&1
  done ;;
esac
