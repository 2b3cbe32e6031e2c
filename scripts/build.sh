#!/usr/bin/env bash
# Configures and builds one build tree: build.sh <dir> [extra cmake arguments]
set -euo pipefail
dir=$1
shift
source="$(cd "$(dirname "$0")/.." && pwd)"

# Compiler cache, where ccache is installed (scripts/setup.sh installs it): a CI run on a
# clean clone recompiles only the files whose preprocessed text or flags changed since the
# last run on the same machine. Paths are taken relative to the clone, so two clones at
# different places share the cache; DAEKIT_CCACHE=0 turns it off (a cold build's timing).
launcher=()
if [ "${DAEKIT_CCACHE:-1}" != 0 ] && command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$source" CCACHE_NOHASHDIR=1
  # Precompiled headers are cached only with these (ccache's manual, "Precompiled headers").
  export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-12G}"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

cmake -S "$source" -B "$dir" -G Ninja "${launcher[@]}" "$@" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j "$(nproc)"
