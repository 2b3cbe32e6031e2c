#!/usr/bin/env bash
# Regenerates docs/benchmarks: every sweep its README shows, the tables between the README's
# "<!-- generated: NAME -->" markers (each with the machine, BLAS kernel and commit that made
# it, from the sweep's results.json), and the kernel-spread page. Takes most of an hour on a
# 2-core machine; run it with nothing else running, on a clean checkout, after a Release build:
#   bash scripts/build.sh build -DCMAKE_BUILD_TYPE=Release && bash scripts/benchmarks/benchmarks.sh [NAME...]
# NAME: fekete fekete-lowtol crank crank17 setups fekete-scaling kernel-spread (default: all).
set -euo pipefail
cd "$(dirname "$0")/../.."
daekit=${DAEKIT:-build/bin/daekit}
out=docs/benchmarks
all=(fekete fekete-lowtol crank crank17 setups fekete-scaling kernel-spread)
names=("$@")
[ ${#names[@]} -eq 0 ] && names=("${all[@]}")

sweep() {  # sweep NAME wpd-arguments...: the summary wpd prints goes to NAME/summary.txt
  local name=$1
  shift
  mkdir -p "$out/$name"
  "$daekit" wpd --overwrite --quiet "$@" --out "$out/$name" > "$out/$name/summary.txt.tmp"
  mv "$out/$name/summary.txt.tmp" "$out/$name/summary.txt"
}

for name in "${names[@]}"; do
  echo "== $name" >&2
  case $name in
    fekete)
      sweep fekete --problem fekete \
        --solvers radau5,radauiia,rodas5p,rodas5,rodas4p2,rodas4p,rodas4,rodas42,rodas3,ros34pw2,ros3p,rosenbrock23,bdf,ndf,ida,cvode \
        --tols 1e-4:1e-10 --timeout-per-run 120 --target-scd 7 ;;
    fekete-lowtol)
      sweep fekete-lowtol --problem fekete --solvers radau5,radauiia,rodas5p,rodas5,rodas4p2,rodas4p,bdf,ida \
        --tols 1e-10:1e-12:2 --timeout-per-run 120 --target-scd 9.5 ;;
    crank)
      sweep crank --problem crank --solvers radau5,rodas5p,rodas4p2,rodas4p,rodas5,bdf,ndf,ida \
        --tols 1e-4:1e-10 --init fix --timeout-per-run 120 --target-scd 4 ;;
    crank17)
      sweep crank17 --problem crank17 --solvers bdf,ndf,ida,radau5 --tols 1e-4:1e-9 --init fix \
        --timeout-per-run 120 --target-scd 3 ;;
    setups)
      sweep setups --problem fekete --setup rodas5p=rodas5p --setup rodas5p-suppressed=rodas5p:suppress-algebraic=true \
        --setup ida=ida --setup ida-core=ida:linear_solver=core --setup ida-all-components=ida:suppress_alg=off \
        --tols 1e-4:1e-9 --runs 3 --timeout-per-run 120 --target-scd 6 --error final,final-mean ;;
    fekete-scaling)
      # N = 20 has the test set's reference; the other N are scored against bdf at 1e-11.
      sweep fekete-scaling --problem fekete --param-sweep N=10,20,40,80,160 \
        --solvers bdf,ndf,rodas5p,rodas4p2,radau5,radauiia,ida --tols 1e-5:1e-8 \
        --reference-solver bdf --reference-tol 1e-11 --timeout-per-run 300 --target-scd 6 ;;
    kernel-spread)
      mkdir -p "$out/kernel-spread"
      python3 scripts/benchmarks/kernel-spread.py --perturb 6 --daekit "$daekit" > "$out/kernel-spread/bdf-ndf.md.tmp"
      mv "$out/kernel-spread/bdf-ndf.md.tmp" "$out/kernel-spread/bdf-ndf.md" ;;
    *) echo "unknown benchmark '$name' (known: ${all[*]})" >&2; exit 2 ;;
  esac
done
python3 scripts/benchmarks/benchmark-tables.py "$out/README.md"
python3 scripts/benchmarks/benchmark-tables.py "$out/kernel-spread.md"
echo "docs/benchmarks regenerated: ${names[*]}" >&2
