// Which BLAS kernel the dense LU runs: OpenBLAS's own choice unless it fell back to generic
// kernels on a CPU that has vector units, and never against the user's OPENBLAS_CORETYPE.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <daekit/numerics/lapack_backend.hpp>

using namespace daekit;

TEST_CASE("generic OpenBLAS kernels on a CPU with AVX2 or AVX-512 are replaced by the matching ones", "[unit][linalg]") {
  // OpenBLAS 0.3.21 on a CPU model it does not know: Prescott.
  CHECK(better_kernel("Prescott", false, true, true, true) == "SkylakeX");
  CHECK(better_kernel("Prescott", false, false, true, true) == "Haswell");
  CHECK(better_kernel("Core2", false, false, false, true) == "Sandybridge");
  CHECK(better_kernel("Prescott", false, false, false, false).empty());  // nothing better to run
  // Its own choice for a CPU it knows stays, and so does anything the user named.
  for (const char* known : {"Haswell", "SkylakeX", "Cooperlake", "Zen", "SapphireRapids"})
    CHECK(better_kernel(known, false, true, true, true).empty());
  CHECK(better_kernel("Prescott", true, true, true, true).empty());
}

TEST_CASE("the dense LU's LAPACK is opened and says which kernel it runs and why", "[unit][linalg]") {
  const LapackBackend& b = lapack_backend();
  CHECK(!b.library.empty());  // the test machines have OpenBLAS (scripts/setup.sh)
  CHECK(!b.decision.empty());
  if (const char* named = std::getenv("OPENBLAS_CORETYPE"); named && *named) {
    CHECK(b.kernel == named);
    CHECK(b.decision == "named by OPENBLAS_CORETYPE");
  } else {
    CHECK(!b.kernel.empty());
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) CHECK(b.kernel != "Prescott");  // vector kernels where the CPU has them
#endif
  }
}
