#!/bin/sh
# The runs behind README's `hard` figures (the medium/easy lines are unchanged by
# them: see run_strength.sh B). Two queues, one per core:
#   sh bench/results/run_strength_hard.sh T N_ROUNDS    # 4-player table lines, hard vs 3 medium
#   sh bench/results/run_strength_hard.sh M N_MATCHES   # 2-player matches, hard vs medium
# Output: bench/results/strength_hard_T.txt, strength_hard_M.txt
set -u
cd "$(dirname "$0")/../.."
PY=".venv/bin/python -W ignore bench/bot_strength.py"
case "$1" in
T)
  out=bench/results/strength_hard_T.txt; : > $out
  for args in "--variant 4-card" "--variant 6-card --rule final_turn=on" "--variant 6-card" \
              "--variant polish-poker" "--variant 9-card"; do
    nice $PY --line table $args --rounds "$2" >> $out 2>&1
  done ;;
M)
  out=bench/results/strength_hard_M.txt; : > $out
  for v in 4-card polish-poker 9-card 6-card; do
    nice $PY --line matches --variant $v --rounds "$2" >> $out 2>&1
  done ;;
esac
