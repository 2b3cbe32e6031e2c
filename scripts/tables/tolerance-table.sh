#!/usr/bin/env bash
# A Markdown table of one solver on one problem over a range of tolerances
# (rtol = tol, atol = ATOL_SCALE * tol with ATOL_SCALE=1 unless set), from the
# host's `--report json`:
#   scripts/tables/tolerance-table.sh fekete rodas5p 1e-4 1e-6 1e-8 [-- extra daekit run options]
#   ATOL_SCALE=1e-4 scripts/tables/tolerance-table.sh rober rodas5p 1e-6 1e-8
#   H0=tol scripts/tables/tolerance-table.sh fekete radau5 1e-4 1e-6   (h0 = tol, as the test set's driver)
set -euo pipefail
problem=$1 solver=$2
shift 2
tols=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do tols+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
daekit=${DAEKIT:-$(dirname "$0")/../../build/bin/daekit}

field() { sed -n "s/^ *\"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" | head -n 1; }

echo "| tol | status | scd | mescd | steps | rejected | f evals | Jacobians | LUs | wall s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for tol in "${tols[@]}"; do
  atol=$(awk -v t="$tol" -v s="${ATOL_SCALE:-1}" 'BEGIN { printf "%.3g", t * s }')
  h0=()
  [ "${H0:-}" = tol ] && h0=(--h0 "$tol")
  json=$("$daekit" run --problem "$problem" --solver "$solver" --rtol "$tol" --atol "$atol" "${h0[@]}" --report json "$@" 2>/dev/null || true)
  printf '| %s | %s | %.2f | %.2f | %s | %s | %s | %s | %s | %.3g |\n' "$tol" \
    "$(field status <<<"$json")" "$(field scd <<<"$json" | sed 's/null/nan/')" \
    "$(field mescd <<<"$json" | sed 's/null/nan/')" "$(field steps <<<"$json")" \
    "$(field rejected <<<"$json")" "$(field nfev <<<"$json")" "$(field njac <<<"$json")" \
    "$(field nlu <<<"$json")" "$(field wall_s <<<"$json")"
done
