#!/usr/bin/env bash
# Where the direct sparse LU stops beating Krylov: bdf at rtol 1e-6 on the three scalable
# grid problems, linear_solver=sparse (the direct LU auto picks with a pattern) against
# linear_solver=krylov with the problem's own preconditioner, over sizes; wall seconds,
# peak memory and scd (the brusselator has no reference: "-").
# Usage: krylov-crossover.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
one() {  # one PROBLEM N SOLVER_OPTION...
  local problem=$1 n=$2
  shift 2
  local args=()
  for o in "$@"; do args+=(--solver-opt "$o"); done
  /usr/bin/time -f "%e %M" -o "$out/time" "$build/bin/daekit" run --problem "$problem" --param "N=$n" --solver bdf \
    "${args[@]}" --rtol 1e-6 --report json > "$out/json" 2> /dev/null || true
  python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
wall, kb = open(f"{out}/time").read().split()
try:
    r = json.load(open(f"{out}/json"))
except ValueError:
    r = {"status": "?", "stats": {}}
scd = r.get("scd")
print(f"{float(wall):.2f} {int(kb) // 1024} {r['status']} {'-' if scd is None else '%.2f' % scd} "
      f"{r['stats'].get('n', 0)}")
PY
}
echo "| problem | N | n | direct s | direct MB | Krylov s | Krylov MB | direct / Krylov | scd direct, Krylov |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
while read -r problem sizes; do
  for N in $sizes; do
    read -r dw dm ds dscd _ <<< "$(one "$problem" "$N" linear_solver=sparse)"
    read -r kw km ks kscd _ <<< "$(one "$problem" "$N" linear_solver=krylov preconditioner=problem)"
    case $problem in
      brusselator) n=$((2 * N * N)) ;;
      heat2d) n=$(((N + 2) * (N + 2))) ;;
      reaction3d) n=$((2 * N * N * N)) ;;
    esac
    ratio=$(python3 -c "print('%.2f' % ($dw / max($kw, 1e-3)))")
    echo "| $problem | $N | $n | $dw ($ds) | $dm | $kw ($ks) | $km | $ratio | $dscd, $kscd |"
  done
done <<'LIST'
brusselator 8 16 32 64 128
heat2d 14 30 62 126 254
reaction3d 4 6 8 12 16 20
LIST
