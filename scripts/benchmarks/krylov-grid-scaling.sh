#!/usr/bin/env bash
# Time per step and memory per unknown of bdf with linear_solver=krylov and the problem's
# own multigrid preconditioner, matrix-free, on heat2d (2D, an index-1 DAE) and reaction3d
# (3D, nonlinear) from 10^5 to 10^7 unknowns; then the exponent alpha of a least-squares
# fit time/step ~ n^alpha per problem (1 is linear). rtol 1e-6, short spans (the step
# counts barely move with N: the solutions are smooth). The sizes are N = 2^k - 1 or
# 3 2^k - 1, which the Dirichlet multigrid coarsens down to a few points (with N + 1 odd it
# cannot coarsen at all: Gauss-Seidel alone, whose iterations grow with N). Usage:
#   krylov-grid-scaling.sh BUILD_DIR ["heat2d Ns"] ["reaction3d Ns"]
set -euo pipefail
build=${1:-build}
heat_sizes=${2:-"255 511 1023 2047 3071"}
cube_sizes=${3:-"47 63 95 127 159"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| problem | N | n | steps | Krylov its | wall s | s per step | us per step and unknown | peak MB | bytes per unknown | scd |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
measure() {  # measure PROBLEM TEND N...
  local problem=$1 tend=$2
  shift 2
  for N in "$@"; do
    /usr/bin/time -f "%e %M" -o "$out/time" "$build/bin/daekit" run --problem "$problem" --param "N=$N" \
      --param matrix_free=true --param "tend=$tend" --solver bdf --solver-opt linear_solver=krylov --rtol 1e-6 \
      --report json > "$out/json" 2> /dev/null || true
    python3 - "$out" "$problem" "$N" <<'PY'
import json, sys
out, problem, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
wall, kb = open(f"{out}/time").read().split()
r = json.load(open(f"{out}/json")); s = r["stats"]
n = (N + 2) ** 2 if problem == "heat2d" else 2 * N ** 3
steps = s["steps"]
per_step = float(wall) / max(steps, 1)
scd = r.get("scd")
print(f"| {problem} | {N} | {n} | {steps} | {s['nlin_iters']} | {float(wall):.1f} | {per_step:.3f} | "
      f"{per_step / n * 1e6:.3f} | {int(kb) // 1024} | {int(kb) * 1024 / n:.0f} | "
      f"{'-' if scd is None else '%.2f' % scd} |")
with open(f"{out}/fit-{problem}", "a") as f:
    f.write(f"{n} {per_step}\n")
PY
  done
}
measure heat2d 0.01 $heat_sizes
measure reaction3d 0.05 $cube_sizes
for problem in heat2d reaction3d; do
  python3 - "$out/fit-$problem" "$problem" <<'PY'
import math, sys
pts = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
xs = [math.log(n) for n, _ in pts]; ys = [math.log(t) for _, t in pts]
mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
alpha = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
print(f"{sys.argv[2]}: time per step ~ n^{alpha:.2f} (least squares over {len(pts)} sizes)")
PY
done
