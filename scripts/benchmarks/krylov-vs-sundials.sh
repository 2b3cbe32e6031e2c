#!/usr/bin/env bash
# bdf with linear_solver=krylov against cvode and ida with SUNDIALS' SPGMR, the problem's
# own preconditioner behind each, on reaction3d (matrix-free, a manufactured solution:
# scd) at three tolerances; the runs interleaved (bdf, cvode, ida, bdf, ...) and the wall
# time the median of REPEATS. Usage: krylov-vs-sundials.sh BUILD_DIR [N] [REPEATS]
set -euo pipefail
build=${1:-build}
N=${2:-63}
repeats=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
solvers="bdf cvode ida"
rtols="1e-4 1e-6 1e-8"
for r in $(seq "$repeats"); do
  for rtol in $rtols; do
    for s in $solvers; do
      /usr/bin/time -f "%e" -o "$out/$s-$rtol-$r.time" "$build/bin/daekit" run --problem reaction3d --param "N=$N" \
        --param matrix_free=true --solver "$s" --solver-opt linear_solver=krylov --rtol "$rtol" --report json \
        > "$out/$s-$rtol-$r.json"
    done
  done
done
python3 - "$out" "$repeats" "$solvers" "$rtols" <<'PY'
import json, statistics, sys
out, repeats, solvers, rtols = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
print("| rtol | solver | scd | steps | Newton its | Krylov its | preconditioner setups | wall s (median) | / ida |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for rtol in rtols:
    wall = {s: statistics.median(float(open(f"{out}/{s}-{rtol}-{r}.time").read())
                                 for r in range(1, repeats + 1)) for s in solvers}
    for s in solvers:
        j = json.load(open(f"{out}/{s}-{rtol}-1.json"))
        st = j["stats"]
        print(f"| {rtol} | {s} | {j['scd']:.2f} | {st['steps']} | {st['nnewton']} | {st['nlin_iters']} | "
              f"{st['nprec_setups']} | {wall[s]:.2f} | {wall[s] / wall['ida']:.2f} |")
PY
