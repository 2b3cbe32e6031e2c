#!/usr/bin/env bash
# The brusselator (periodic N x N grid, n = 2 N^2) at rtol 1e-6 to t = 0.5, direct sparse
# LUs against linear_solver=krylov (bdf, rodas5p, radau5): wall and CPU seconds, peak memory, steps, Krylov
# iterations, and the largest difference from the direct solution in the error norm's units
# (atol = rtol), where both ran. Usage: krylov-scaling.sh BUILD_DIR "N ..." "N ..."
#   (first list: sizes with direct runs beside, second: Krylov alone).
set -euo pipefail
build=${1:-build}
both=${2:-"128 256"}
krylov_only=${3:-"512 1024"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # run NAME N SOLVER OPTIONS...
  local name=$1 n=$2 solver=$3
  shift 3
  local args=()
  for o in "$@"; do args+=(--solver-opt "$o"); done
  /usr/bin/time -f "%e %U %M" -o "$out/$name.time" "$build/bin/daekit" run --problem brusselator --param "N=$n" \
    $([ "$name" != "${name%free*}" ] && echo --param matrix_free=true) --solver "$solver" "${args[@]}" \
    --rtol 1e-6 --tend 0.5 --report json --output "$out/$name.csv" > "$out/$name.json"
}
row() {  # row NAME N SETUP [DIRECT_NAME]
  python3 - "$out" "$1" "$2" "$3" "${4:-}" <<'PY'
import csv, json, sys
out, name, N, setup, direct = sys.argv[1:]
r = json.load(open(f"{out}/{name}.json")); s = r["stats"]
wall, cpu, kb = open(f"{out}/{name}.time").read().split()
def last(path):
    rows = list(csv.reader(open(path)))
    return [float(v) for v in rows[-1][1:]]
diff = "-"
if direct:
    a, b = last(f"{out}/{name}.csv"), last(f"{out}/{direct}.csv")
    diff = "%.2g" % max(abs(x - y) / (1e-6 + 1e-6 * abs(y)) for x, y in zip(a, b))
n = 2 * int(N) ** 2
print(f"| {N} | {n:,} | {setup} | {r['status']} | {s['accepted']} ({s['rejected']}) | {s['nlu']} | "
      f"{s.get('nlin_iters', 0)} | {float(wall):.1f} | {float(cpu):.1f} | {int(kb) // 1024} | "
      f"{int(kb) * 1024 / n:.0f} | {diff} |".replace(",", " "))
PY
}
echo "| N | n | setup | status | steps (rejected) | LUs | Krylov its | wall s | CPU s | peak MB | bytes/unknown | vs direct |"
echo "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for N in $both; do
  run "bdf-direct-$N" "$N" bdf linear_solver=sparse
  row "bdf-direct-$N" "$N" "bdf; sparse LU"
  run "bdf-free-$N" "$N" bdf linear_solver=krylov
  row "bdf-free-$N" "$N" "bdf; GMRES + problem's preconditioner; matrix-free" "bdf-direct-$N"
  run "bdf-ilu-$N" "$N" bdf linear_solver=krylov preconditioner=ilu
  row "bdf-ilu-$N" "$N" "bdf; GMRES + ILUT" "bdf-direct-$N"
  run "rodas5p-direct-$N" "$N" rodas5p linear_solver=sparse
  row "rodas5p-direct-$N" "$N" "rodas5p; sparse LU"
  run "rodas5p-free-$N" "$N" rodas5p linear_solver=krylov
  row "rodas5p-free-$N" "$N" "rodas5p; GMRES + problem's preconditioner; matrix-free" "rodas5p-direct-$N"
  run "radau5-direct-$N" "$N" radau5 linear_solver=sparse
  row "radau5-direct-$N" "$N" "radau5; sparse LUs (real and complex)"
  run "radau5-free-$N" "$N" radau5 linear_solver=krylov
  row "radau5-free-$N" "$N" "radau5; GMRES + problem's preconditioner; matrix-free" "radau5-direct-$N"
done
for N in $krylov_only; do
  for solver in bdf radau5; do
    run "$solver-free-$N" "$N" $solver linear_solver=krylov
    row "$solver-free-$N" "$N" "$solver; GMRES + problem's preconditioner; matrix-free"
  done
done
