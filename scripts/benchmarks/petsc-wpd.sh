#!/usr/bin/env bash
# PETSc's TS as a peer: a work-precision study of the IVP Test Set's stiff problems with the
# petsc solver's three adaptive families (rosw ra34pw2, arkimex 4, bdf of order 4: TSBDF
# keeps its order fixed) against daekit's rodas5p, radau5 and bdf (docs/benchmarks/petsc.md).
# Usage: petsc-wpd.sh BUILD_DIR OUT_DIR [RUNS]
set -euo pipefail
build=${1:-build}
out=${2:-docs/benchmarks/petsc}
runs=${3:-3}
problems=()
for p in hires chemakzo orego pollu vdpol rober; do problems+=(--problem "$p"); done
"$build/bin/daekit" wpd "${problems[@]}" --solvers rodas5p,radau5,bdf \
  --setup petsc-rosw=petsc:ts=rosw --setup petsc-arkimex=petsc:ts=arkimex \
  --setup petsc-bdf4=petsc:ts=bdf,bdf_order=4 \
  --tols 1e-4:1e-9:1 --runs "$runs" --timeout-per-run 60 --out "$out"
