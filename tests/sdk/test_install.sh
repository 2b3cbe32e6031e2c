#!/usr/bin/env bash
# Installs daekit into a temporary prefix, builds the two example projects of
# docs/examples against that installation only (fresh build folders, nothing of
# the source tree's targets), and runs them through the installed host by name
# (DAEKIT_PLUGIN_PATH) and by path; `daekit check` must pass on both and fail,
# naming the Jacobian, on a copy of the pendulum with a wrong Jacobian; a consumer compiled
# for AVX2 against the portable libraries is refused when it compiles, saying why.
#   test_install.sh <build dir> <source dir>
set -euo pipefail
build=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() { echo "FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
[ -x "$prefix/bin/daekit" ] || fail "no installed host"
ls "$prefix"/lib/libdaekit_core.so.* > /dev/null || fail "no versioned core library"
[ -f "$prefix/lib/cmake/daekit/daekitConfig.cmake" ] || fail "no CMake package"
[ -f "$prefix/lib/pkgconfig/daekit.pc" ] || fail "no pkg-config file"
# The family kits: a static library and headers each (the ROS2 example builds on one).
for kit in rosenbrock radau bdf; do
  [ -f "$prefix/lib/libdaekit_${kit}_kit.a" ] || fail "no $kit kit library"
  [ -d "$prefix/include/daekit/kits/$kit" ] || fail "no $kit kit headers"
done
core_exports=$(nm -D --defined-only "$prefix"/lib/libdaekit_core.so.*)
grep -q RosenbrockStepper <<<"$core_exports" && fail "the core still exports a family's step"
# (Captured first: with pipefail, grep -q closing the pipe early would fail the host on SIGPIPE.)
# What the SDK says when a file's Eigen differs from the libraries' (daekit/eigen_abi.hpp).
abi_message="daekit: this file is compiled for another vector instruction set than the daekit libraries"
# pkg-config's flags point into the prefix the files were installed to, not the configured one.
if command -v pkg-config > /dev/null; then
  cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags daekit)
  grep -q -- "-I$prefix/lib/pkgconfig/../../include" <<<"$cflags" || grep -q -- "-I$prefix/include" <<<"$cflags" \
    || fail "daekit.pc is not relocatable: $cflags"
  [ -d "$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=plugindir daekit)" ] || fail "daekit.pc plugindir"
  # The flags alone compile an SDK header; with -mavx2 added the Eigen check refuses it (below).
  read -r -a cflag_words <<<"$cflags"
  g++ -std=c++20 -fsyntax-only "${cflag_words[@]}" "$source/tests/sdk/eigen_abi_mismatch.cpp" \
    || fail "the SDK header did not compile with the libraries' flags"
  if g++ -std=c++20 -fsyntax-only -mavx2 "${cflag_words[@]}" "$source/tests/sdk/eigen_abi_mismatch.cpp" 2> "$work/avx2.err"; then
    fail "a file compiled for AVX2 against the portable libraries was accepted"
  fi
  grep -q "$abi_message" "$work/avx2.err" || { cat "$work/avx2.err"; fail "pkg-config with -mavx2: no daekit message"; }
fi
listing=$("$prefix/bin/daekit" list)
grep -q rodas5p <<<"$listing" || fail "the installed host does not find the installed plugins"

ls "$prefix"/lib/libdaekit.so.* > /dev/null || fail "no versioned daekit library"
for example in pendulum_problem ros2_solver esdirk_solver embedding; do
  cmake -S "$source/docs/examples/$example" -B "$work/$example" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
        -DPENDULUM_BROKEN_COPY=ON > "$work/$example.configure.log" 2>&1 || { cat "$work/$example.configure.log"; fail "configure $example"; }
  cmake --build "$work/$example" > "$work/$example.build.log" 2>&1 || { cat "$work/$example.build.log"; fail "build $example"; }
done
pendulum=$work/pendulum_problem/plugins/pendulum.so
broken=$work/pendulum_problem/plugins/pendulum_broken.so
ros2=$work/ros2_solver/plugins/ros2.so

# By name, through DAEKIT_PLUGIN_PATH.
export DAEKIT_PLUGIN_PATH=$work/pendulum_problem/plugins:$work/ros2_solver/plugins
out=$("$prefix/bin/daekit" run --problem pendulum --param index=2 --param L=2 --solver rodas5p --rtol 1e-6)
grep -q "status     success" <<<"$out" || fail "pendulum by name: $out"
out=$("$prefix/bin/daekit" run --problem hires --solver ros2 --rtol 1e-5)
grep -q "status     success" <<<"$out" || fail "ros2 by name: $out"
unset DAEKIT_PLUGIN_PATH

# By path.
out=$("$prefix/bin/daekit" run --plugin "$pendulum" --plugin "$ros2" --problem rober --solver ros2 --rtol 1e-5)
grep -q "status     success" <<<"$out" || fail "ros2 by path: $out"
info=$("$prefix/bin/daekit" info --plugin "$pendulum" pendulum)
grep -q "lambda" <<<"$info" || fail "info pendulum"

# Conformance checks.
"$prefix/bin/daekit" check "$pendulum" > "$work/check-pendulum.txt" || { cat "$work/check-pendulum.txt"; fail "check pendulum"; }
"$prefix/bin/daekit" check "$ros2" > "$work/check-ros2.txt" || { cat "$work/check-ros2.txt"; fail "check ros2"; }
# The ESDIRK example (not a Rosenbrock tableau): both of its solvers pass the checks, each
# judged by its own order (esdirk1 is first order), and solve a DAE with output by dense output.
esdirk=$work/esdirk_solver/plugins/esdirk.so
"$prefix/bin/daekit" check "$esdirk" > "$work/check-esdirk.txt" || { cat "$work/check-esdirk.txt"; fail "check esdirk"; }
grep -q "solver 'esdirk1'" "$work/check-esdirk.txt" || fail "check esdirk: esdirk1 not checked"
out=$("$prefix/bin/daekit" run --plugin "$esdirk" --problem rober_dae --solver esdirk3 --rtol 1e-6 --saveat 1,10,100)
grep -q "status     success" <<<"$out" || fail "esdirk3 on rober_dae: $out"
if "$prefix/bin/daekit" check "$broken" > "$work/check-broken.txt"; then
  cat "$work/check-broken.txt"; fail "check passed a wrong Jacobian"
fi
grep -q "FAIL\] analytic Jacobian agrees with finite differences" "$work/check-broken.txt" || { cat "$work/check-broken.txt"; fail "the report does not name the Jacobian"; }
# A program using the installed library: plugins found next to the library, a plugin
# problem and the program's own problem solved, dense output read.
out=$("$work/embedding/compare_solvers" rodas5p radauiia ida) || fail "the embedding example failed: $out"
grep -q "^oscillator rodas5p .*success" <<<"$out" || fail "embedding: $out"
grep -q "^rober .*ida .*success" <<<"$out" || fail "embedding: ida on rober: $out"
grep -q "no dense output" <<<"$out" && fail "embedding: a solver without dense output: $out"
if "$work/embedding/compare_solvers" rodas5q > "$work/embedding.err" 2>&1; then fail "an unknown solver was accepted"; fi
grep -q "did you mean" "$work/embedding.err" || fail "embedding: no suggestion for an unknown solver"
# A consumer compiled for AVX2 against the portable libraries: Eigen would allocate and free
# its objects by another rule than the libraries' (a plugin built so crashed on its first
# solve), so the SDK refuses it when it compiles, saying why (daekit/eigen_abi.hpp); by
# CMake (the ROS2 example) here, by pkg-config's flags above.
if cmake -S "$source/docs/examples/ros2_solver" -B "$work/ros2_avx2" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
         -DCMAKE_CXX_FLAGS=-mavx2 > "$work/ros2_avx2.log" 2>&1 && cmake --build "$work/ros2_avx2" >> "$work/ros2_avx2.log" 2>&1; then
  fail "the ROS2 example compiled for AVX2 against the portable libraries"
fi
grep -q "$abi_message" "$work/ros2_avx2.log" || { cat "$work/ros2_avx2.log"; fail "ros2 with -mavx2: no daekit message"; }
# A program on the library API (daekit/daekit.hpp) shares no Eigen storage with it: any
# instruction set will do (run where the CPU has AVX2).
cmake -S "$source/docs/examples/embedding" -B "$work/embedding_avx2" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CXX_FLAGS=-mavx2 > "$work/embedding_avx2.log" 2>&1 && cmake --build "$work/embedding_avx2" >> "$work/embedding_avx2.log" 2>&1 \
  || { cat "$work/embedding_avx2.log"; fail "the embedding example did not build with -mavx2"; }
if grep -q avx2 /proc/cpuinfo; then
  out=$("$work/embedding_avx2/compare_solvers" rodas5p radau5) || fail "the embedding example built with -mavx2 failed: $out"
  grep -q "^oscillator rodas5p .*success" <<<"$out" || fail "embedding with -mavx2: $out"
fi
# The Python module beside the installed library, found with the documented PYTHONPATH.
if [ -d "$prefix/lib/daekit/python/daekit" ]; then
  out=$(cd "$work" && PYTHONPATH="$prefix/lib/daekit/python" /usr/bin/python3 -c \
        'import daekit; r = daekit.solve("rober", "radau5", rtol=1e-6); print(r.status, len(daekit.solvers()))')
  grep -q "^success" <<<"$out" || fail "the installed Python module: $out"
fi
echo "1 passed, 0 failed"
