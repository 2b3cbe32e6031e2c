#!/usr/bin/env bash
# The Rosenbrock-Krylov method rok4a with J projected onto a Krylov space of f
# (linear_solver=arnoldi, asked for by name), against the matrix-free alternatives at rtol 1e-6:
# rodas4 with unpreconditioned GMRES (what a user without a preconditioner has), rodas4 with
# the problem's own preconditioner, and rok4a with the LU. The brusselator on N x N grids to
# t = 11.5 (its exact J v), reaction3d on N^3 (to 0.5, manufactured solution: scd), and the
# test set's hires and orego (products by differences). Steps, J v products (nlin_iters for
# the projection: its vectors), wall seconds and scd ("-": no reference); runs stop at 200 s.
# Usage: rok-arnoldi.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
one() {  # one PROBLEM PARAMS SOLVER SOLVER_OPTION...
  local problem=$1 params=$2 solver=$3
  shift 3
  local args=()
  for o in "$@"; do args+=(--solver-opt "$o"); done
  for p in $params; do args+=(--param "$p"); done
  /usr/bin/time -f "%e" -o "$out/time" timeout 200 "$build/bin/daekit" run --problem "$problem" --solver "$solver" \
    "${args[@]}" --rtol 1e-6 --report json > "$out/json" 2> /dev/null || true
  python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
wall = open(f"{out}/time").read().split()[-1]
try:
    r = json.load(open(f"{out}/json"))
except ValueError:
    r = {"status": "timeout (200 s)", "stats": {}}
s, scd = r["stats"], r.get("scd")
print(f"{r['status']} | {s.get('accepted', '-')} | {s.get('njtv', '-')} | {s.get('nlin_iters', '-')} | "
      f"{float(wall):.2f} | {'-' if scd is None else '%.2f' % scd}")
PY
}
echo "| problem | setup | status | steps | J v | Krylov vectors | wall s | scd |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
while read -r problem params; do
  echo "| $problem $params | rok4a, arnoldi | $(one "$problem" "$params" rok4a linear_solver=arnoldi) |"
  echo "| $problem $params | rodas4, GMRES, no preconditioner | $(one "$problem" "$params" rodas4 linear_solver=krylov preconditioner=none) |"
  case $problem in brusselator | reaction3d)
    echo "| $problem $params | rodas4, GMRES, the problem's preconditioner | $(one "$problem" "$params" rodas4 linear_solver=krylov preconditioner=problem) |" ;;
  esac
  case $problem in brusselator | reaction3d) lu=sparse ;; *) lu=dense ;; esac
  echo "| $problem $params | rok4a, LU | $(one "$problem" "$params" rok4a linear_solver=$lu) |"
done <<'LIST'
hires
orego
brusselator N=16
brusselator N=32
brusselator N=48
reaction3d N=8
reaction3d N=16
LIST
