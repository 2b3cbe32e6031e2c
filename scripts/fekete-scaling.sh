#!/usr/bin/env bash
# Fekete's cost growth with the particle count: a `daekit wpd` sweep per N (every
# solver, rtol = atol = 1e-5 ... 1e-8), scored against the test set's reference for
# N = 20 and against bdf at 1e-11 for the other N (wpd --reference-solver), then the
# time to reach scd 6 per solver and N (interpolated on each log-log curve) as a
# table and a gnuplot diagram.
#   scripts/fekete-scaling.sh [OUT_DIR]   (default docs/benchmarks/fekete-scaling)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/benchmarks/fekete-scaling}
daekit=${DAEKIT:-build/bin/daekit}
solvers=${SOLVERS:-bdf,ndf,rodas5p,rodas4p2,radau5,radauiia,ida}
mkdir -p "$out"
for N in ${NS:-10 20 40 80 160}; do
  "$daekit" wpd --overwrite --problem fekete --param N="$N" --solvers "$solvers" --tols 1e-5:1e-8 \
    --reference-solver bdf --reference-tol 1e-11 --timeout-per-run 300 --target-scd 6 --quiet \
    --out "$out/N$N" > "$out/N$N.log" 2>&1 || { cat "$out/N$N.log"; exit 1; }
done
python3 scripts/scaling-table.py "$out" 6 > "$out/time-to-scd6.md"
cat "$out/time-to-scd6.md"
if command -v gnuplot > /dev/null; then
  (cd "$out" && gnuplot scaling.gp)
else
  echo "gnuplot is missing (apt-get install gnuplot-nox): the table is written, the diagram is not" >&2
fi
