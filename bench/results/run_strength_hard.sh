#!/bin/sh
# The runs behind README's `hard` figures (the medium/easy lines are unchanged by
# them: see run_strength.sh B). Four queues, two at a time (one per core):
#   sh bench/results/run_strength_hard.sh T 2000 & sh bench/results/run_strength_hard.sh T9 2000
#   sh bench/results/run_strength_hard.sh M 250  & sh bench/results/run_strength_hard.sh M9 250
# T/T9: 4-player table lines, hard vs 3 medium, N rounds each.
# M/M9: 2-player matches of 9 rounds, hard vs medium, N matches each.
# 9-card has a queue of its own because it takes as long as the other three.
# Output: bench/results/strength_hard_<queue>.txt
set -u
cd "$(dirname "$0")/../.."
PY=".venv/bin/python -W ignore bench/bot_strength.py"
out=bench/results/strength_hard_$1.txt; : > $out
case "$1" in
T)  for args in "--variant 4-card" "--variant 6-card --rule final_turn=on" "--variant 6-card" \
                "--variant polish-poker"; do
      nice $PY --line table $args --rounds "$2" >> $out 2>&1
    done ;;
T9) nice $PY --line table --variant 9-card --rounds "$2" >> $out 2>&1 ;;
M)  for v in 4-card polish-poker 6-card; do
      nice $PY --line matches --variant $v --rounds "$2" >> $out 2>&1
    done ;;
M9) nice $PY --line matches --variant 9-card --rounds "$2" >> $out 2>&1 ;;
esac
