#!/usr/bin/env bash
# The measurement tables of docs/solvers/rosenbrock.md: every Rosenbrock method on
# Fekete (1e-4 .. 1e-10) and Robertson (atol = 1e-4 rtol), with the host as built.
set -euo pipefail
here=$(dirname "$0")
methods=${METHODS:-"rosenbrock23 ros3p rodas3 ros34pw2 rodas4 rodas42 rodas4p rodas4p2 rodas5 rodas5p"}
for m in $methods; do
  echo "#### $m on fekete"
  echo
  bash "$here/tolerance-table.sh" fekete "$m" 1e-4 1e-5 1e-6 1e-7 1e-8 1e-9 1e-10
  echo
done
for m in $methods; do
  echo "#### $m on rober"
  echo
  ATOL_SCALE=1e-4 bash "$here/tolerance-table.sh" rober "$m" 1e-4 1e-6 1e-8 1e-10
  echo
done
