#!/usr/bin/env bash
# The speedup of a 200-point work-precision sweep over MPI ranks, and what handing a point
# to a rank costs (docs/benchmarks/mpi.md). Usage: scripts/benchmarks/mpi-sweep-benchmark.sh [BUILD_DIR]
# Runs each configuration once (ROUNDS=2 for twice, in alternation); compare ratios within one run.
set -euo pipefail
build=${1:-build}
daekit="$(cd "$build" && pwd)/bin/daekit"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --allow-run-as-root --oversubscribe)
# 4 problems x 5 solvers x 10 tolerances = 200 points, about a minute on one core.
sweep=(wpd --quiet --problem medakzo --problem pollu --problem ringmod --problem orego
       --solvers rodas5p,rodas4,radau5,bdf,cvode --tols 1e-3,3e-4,1e-4,3e-5,1e-5,3e-6,1e-6,3e-7,1e-7,3e-8)
# 201 points of about a millisecond each: what remains is the cost of handing them out.
cheap=(wpd --quiet --problem prothero_robinson --solvers rodas5p --tols 1e-2:1e-4:100)

seconds() {  # wall time of a command, in seconds
  local start=$EPOCHREALTIME
  "$@" > /dev/null 2>&1
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "commit: $(git -C "$(dirname "$0")/../.." rev-parse --short HEAD), kernel: ${OPENBLAS_CORETYPE:-chosen by OpenBLAS}"
printf '%-44s %10s %10s\n' "configuration" "200 pts" "201 cheap"
for round in $(seq "${ROUNDS:-1}"); do
  for config in "1 process" "mpirun -n 2, --coordinator-jobs 0" "mpirun -n 2" "mpirun -n 3, --coordinator-jobs 0" "1 process, --jobs 2"; do
    case "$config" in
      "1 process") run=("$daekit"); extra=() ;;
      "1 process, --jobs 2") run=("$daekit"); extra=(--jobs 2) ;;
      "mpirun -n 2") run=("${mpirun[@]}" -n 2 "$daekit"); extra=() ;;
      "mpirun -n 2, --coordinator-jobs 0") run=("${mpirun[@]}" -n 2 "$daekit"); extra=(--coordinator-jobs 0) ;;
      "mpirun -n 3, --coordinator-jobs 0") run=("${mpirun[@]}" -n 3 "$daekit"); extra=(--coordinator-jobs 0) ;;
    esac
    a=$(seconds "${run[@]}" "${sweep[@]}" "${extra[@]}" --out "$work/a" --overwrite)
    b=$(seconds "${run[@]}" "${cheap[@]}" "${extra[@]}" --out "$work/b" --overwrite)
    printf '%-44s %10.2f %10.2f\n' "$config (round $round)" "$a" "$b"
  done
done
