#!/usr/bin/env bash
# Hairer's Fortran RADAU5 on a daekit problem, as the anchor for the Radau plugins'
# benchmarks (docs/solvers/radau.md). RADAU5 comes from Debian's r-cran-desolve (its
# `radau` is Hairer's code, gfortran -O2); the problem is the plugin itself, through
# scripts/benchmarks/radau5-reference/model.c, so both codes integrate the same f and Jacobian.
#   scripts/benchmarks/radau5-reference.sh [problem] [tol ...]     (default: fekete 1e-4 1e-6 1e-8 1e-10 1e-12)
# DAEKIT_PARAMS="N=80" passes the problem's parameters (as daekit run's --param).
# RADAU5 built natively (docs/architecture.md's comparison): with a deb-src line for
# bookworm, `apt-get source r-cran-desolve`, then
#   mkdir -p lib home/.R && printf 'FFLAGS=-O3 -march=native\nCFLAGS=-O3 -march=native\n' > home/.R/Makevars
#   HOME=$PWD/home R CMD INSTALL -l $PWD/lib r-cran-desolve-1.34
# and run this script with R_LIBS=$PWD/lib.
# Installs r-base-core, r-cran-desolve and gcc if missing (root). REPEATS=5 by default.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
model_dir=$here/radau5-reference
build=${BUILD:-$root/build}
problem=${1:-fekete}
shift || true
tols=("$@")
[ ${#tols[@]} -gt 0 ] || tols=(1e-4 1e-6 1e-8 1e-10 1e-12)

missing=()
for p in r-base-core r-cran-desolve gcc; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "radau5-reference: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

plugin=$(for so in "$build"/lib/daekit/abi1/*.so; do
  if nm -D --defined-only "$so" 2>/dev/null | grep -q " daekit_v1_entry_${problem}$"; then echo "$so"; fi; done | head -n 1)
[ -n "$plugin" ] || { echo "radau5-reference: no plugin provides problem '$problem' in $build (build first)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -shared -fPIC -I"$root/sdk/include" "$model_dir/model.c" -o "$work/daekit_model.so" -ldl -lm
DAEKIT_PLUGIN=$plugin DAEKIT_ENTRY=daekit_v1_entry_$problem LD_LIBRARY_PATH=$build/lib \
  Rscript "$model_dir/run.R" "$work/daekit_model.so" "${REPEATS:-5}" "${tols[@]}"
