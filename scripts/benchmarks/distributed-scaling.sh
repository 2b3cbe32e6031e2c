#!/usr/bin/env bash
# One problem over MPI ranks (docs/benchmarks/distributed.md): heat2d with the petsc solver
# on 1 and 2 ranks (one per core of a 2-core machine; more would be oversubscribed, which
# tests/petsc/test_distributed.cpp runs for correctness), strong scaling (one grid, more
# ranks) and weak scaling (rows per rank held), with LU, GMRES + BoomerAMG and GMRES +
# block Jacobi. One thread per rank (OMP_NUM_THREADS=1: hypre and OpenBLAS would else
# compete with the other rank for the cores). Prints one table row per run: ranks, N, n,
# linear solver, steps, Newton and Krylov iterations, wall seconds (median of RUNS), scd.
# Usage: distributed-scaling.sh BUILD_DIR [RUNS]   (about 15 minutes with RUNS = 3)
set -euo pipefail
build=${1:-build}
runs=${2:-3}
daekit="$build/bin/daekit"
export OMP_NUM_THREADS=1
mpirun=(mpirun --allow-run-as-root --bind-to none -x OMP_NUM_THREADS)

run_once() {  # ranks N linear-solver options...
  local ranks=$1 n=$2
  shift 2
  local cmd=("$daekit" run --problem heat2d --param "N=$n" --solver petsc --rtol 1e-6 --atol 1e-8 --report json "$@")
  if [ "$ranks" -gt 1 ]; then cmd=("${mpirun[@]}" -n "$ranks" "${cmd[@]}"); else cmd+=(--in-process); fi
  "${cmd[@]}" 2>/dev/null
}

row() {  # ranks N label options...
  local ranks=$1 n=$2 label=$3
  shift 3
  local walls=() last=""
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    last=$(run_once "$ranks" "$n" "$@")
    end=$(date +%s.%N)
    walls+=("$(echo "$end - $start" | bc -l)")
  done
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$last" | python3 -c "
import json, sys
d = json.load(sys.stdin); s = d['stats']
print('| %d | %d | %d | %s | %d | %d | %d | %.2f | %.2f |' % ($ranks, $n, d['n'], '$label', s['accepted'], s['nnewton'],
      s['nlin_iters'], $median, d['scd']))"
}

echo "| ranks | N | n | linear solver | steps | Newton | Krylov its | wall s (median of $runs) | scd |"
echo "|---:|---:|---:|---|---:|---:|---:|---:|---:|"
# Strong scaling: one grid, one and two ranks (one per core).
for ranks in 1 2; do row "$ranks" 200 "LU (PETSc, MUMPS on 2 ranks)"; done
for ranks in 1 2; do row "$ranks" 400 "GMRES + BoomerAMG" --solver-opt ksp=gmres --solver-opt pc=hypre; done
for ranks in 1 2; do row "$ranks" 400 "GMRES + bjacobi" --solver-opt ksp=gmres --solver-opt pc=bjacobi; done
for ranks in 1 2; do row "$ranks" 800 "GMRES + BoomerAMG" --solver-opt ksp=gmres --solver-opt pc=hypre; done
# Weak scaling: about 80 000 rows per rank.
row 1 282 "GMRES + BoomerAMG" --solver-opt ksp=gmres --solver-opt pc=hypre
row 2 400 "GMRES + BoomerAMG" --solver-opt ksp=gmres --solver-opt pc=hypre
