#!/usr/bin/env bash
# The main job: install what is missing, build, and solve the IVP Test Set's
# Fekete problem (index-2 DAE, n = 160) with Rodas5P, reporting statistics and scd.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DDAEKIT_BUILD_TESTS=OFF
./build/bin/daekit list
echo
./build/bin/daekit run --problem fekete --solver rodas5p --rtol 1e-8 --atol 1e-8 "$@"
