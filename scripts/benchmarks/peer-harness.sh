#!/bin/bash
# daekit against Hairer's RADAU and RADAU5 (-O3 -march=native) and SUNDIALS IDA (dense and
# KLU) with the peer harness (its README: sources, drivers, runner, aggregation), on the
# three cases of docs/benchmarks/peers.md: Fekete N = 20, Fekete N = 80 and the slider crank.
#
#   scripts/benchmarks/peer-harness.sh HARNESS OUT [DAEKIT]
#
# HARNESS is the harness's folder (copied to OUT/harness and built there: it may be
# read-only); DAEKIT the daekit to measure (default build/bin/daekit). Each tolerance is one
# interleaved batch of 5 rounds (the runner waits for a 1-minute load under 1.5 first).
# OUT gets the runs (*.jsonl), the tables (*.md) and machine.txt (machine, BLAS kernel,
# commit). About 30 minutes on a 2-core machine; ONLY=crank,fekete80 runs those batches alone.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 HARNESS OUT [DAEKIT]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
harness=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
daekit=$(realpath "${3:-$repo/build/bin/daekit}")
testset=${TESTSET:-$(realpath "$harness/../testset")}
[ -f "$testset/fekete.ref" ] || { echo "$0: no test set references in $testset (set TESTSET)" >&2; exit 2; }

rm -rf "$out/harness"
cp -r "$harness" "$out/harness"
make -s -C "$out/harness" >/dev/null

{
  "$daekit" --version --verbose
  echo "scripts at  $(git -C "$repo" rev-parse --short HEAD)"
  echo "kernel      OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
  echo "started     $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

only=${ONLY:-fekete20,crank,fekete80}  # the batches to run (comma-separated)
run() {  # NAME PROBLEM TOLERANCES [runner options]
  local name=$1 problem=$2 tols=$3
  shift 3
  case ",$only," in *",$name,"*) ;; *) return 0 ;; esac
  (cd "$out/harness" && DAEKIT="$daekit" TESTSET="$testset" python3 bench.py run "$out/$name.jsonl" "$problem" "$tols" "$@")
}
run fekete20 fekete 1e-4,1e-5,1e-6,1e-7,1e-8,1e-9,1e-10,1e-11,1e-12
run crank crank 1e-4,1e-5,1e-6,1e-7,1e-8,1e-9,1e-10
# n = 640: IDA with KLU only (its dense LU is not what an IDA user runs at this size, and
# takes most of the batch's time), daekit's four fastest families there.
run fekete80 fekete 1e-4,1e-5,1e-6,1e-7,1e-8,1e-9,1e-10,1e-11 --N 80 --ref refs/fekete80.ref \
  --cases "RADAU(O3n);RADAU5(O3n);IDA-C(KLU);IDA-C(KLU,h0=1e-4);IDA-C(KLU,h0=tol);dk:radauiia;dk:radau5;dk:bdf;dk:ida(h0=1e-4)"
echo "finished    $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

targets=4,5,6,7,8,9,10
aggregate() {  # NAME PROBLEM N TARGETS
  [ -f "$out/$1.jsonl" ] && python3 "$out/harness/aggregate.py" "$out/$1.jsonl" "$2" "$3" "$4" > "$out/$1.md"
  return 0
}
aggregate fekete20 fekete 20 "$targets"
aggregate crank crank 0 "3,$targets"
aggregate fekete80 fekete 80 "$targets"
echo "tables in $out/{fekete20,crank,fekete80}.md"
