#!/usr/bin/env bash
# Install what is missing, build twice (release, and AddressSanitizer +
# UndefinedBehaviorSanitizer), and run every test in both builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

echo "== release build"
bash scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DDAEKIT_BUILD_TESTS=ON
(cd build && ctest --output-on-failure -j "$(nproc)")

# Results differ between BLAS kernels: the floors must hold on the generic kernels any
# x86-64 CPU has, not only on the kernel OpenBLAS picks here.
echo "== release build, generic BLAS kernels (OPENBLAS_CORETYPE=Prescott)"
# (Not the SDK's install test, and not the fuzz tests of inputs, which test no floor.)
(cd build && OPENBLAS_CORETYPE=Prescott ctest --output-on-failure -j "$(nproc)" -E "^sdk:|^fuzzed|^seeded random")

echo "== sanitizer build (ASan + UBSan)"
bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDAEKIT_SANITIZE=ON -DDAEKIT_BUILD_TESTS=ON \
  -DDAEKIT_BUILD_BENCHMARKS=OFF
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   ctest --output-on-failure -j "$(nproc)")
