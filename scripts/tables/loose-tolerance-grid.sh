#!/usr/bin/env bash
# Every solver on every problem with a reference at rtol in {1e-1, 1e-2, 1e-3} (atol: the
# problem's suggested scale times rtol, as `daekit run` sets it, else rtol; with the third
# argument `rtol`, atol = rtol for every component):
# each run must fail with a status or succeed with scd >= 0. Prints one line per run:
#   problem solver tol status steps scd mescd
# usage: loose-tolerance-grid.sh [build-dir] [timeout-seconds] [suggested|rtol]
set -uo pipefail
build=${1:-build}
limit=${2:-60}
atol_mode=${3:-suggested}
daekit="$build/bin/daekit"
solvers=$("$daekit" list 2>/dev/null | awk '/^solvers:/{s=1;next} /^problems:/{s=0} s && /^  [a-z]/{print $1}')
problems=$("$daekit" list 2>/dev/null | awk '/^problems:/{s=1;next} s && /^  [a-z]/{print $1}')
for p in $problems; do
  for s in $solvers; do
    for tol in 1e-1 1e-2 1e-3; do
      atol_args=()
      [ "$atol_mode" = rtol ] && atol_args=(--atol "$tol")
      out=$(timeout "$limit" "$daekit" run --problem "$p" --solver "$s" --rtol "$tol" "${atol_args[@]}" --report json 2>/dev/null)
      code=$?
      if [ $code -ge 124 ]; then echo "$p $s $tol exit$code - -"; continue; fi
      echo "$out" | python3 -c "
import json, sys
try: j = json.load(sys.stdin)
except Exception: print('$p $s $tol unparsable - -'); sys.exit()
print('$p $s $tol', j['status'], j['stats']['steps'] if j.get('stats') else '-', j['scd'], j['mescd'])" 2>/dev/null || echo "$p $s $tol refused - -"
    done
  done
done
