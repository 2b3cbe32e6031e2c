// The advisory build fingerprint every manifest carries (docs/abi.md): compiler,
// standard library, Eigen version and alignment. The C seam does not depend on
// it; the host prints it so that mismatches can be diagnosed.
#pragma once

#include <Eigen/Core>

#define DAEKIT_STR2(x) #x
#define DAEKIT_STR(x) DAEKIT_STR2(x)

#if defined(__clang__)
#define DAEKIT_COMPILER_ID "clang-" DAEKIT_STR(__clang_major__) "." DAEKIT_STR(__clang_minor__)
#elif defined(__GNUC__)
#define DAEKIT_COMPILER_ID "gcc-" DAEKIT_STR(__GNUC__) "." DAEKIT_STR(__GNUC_MINOR__)
#else
#define DAEKIT_COMPILER_ID "unknown-compiler"
#endif

#if defined(_GLIBCXX_USE_CXX11_ABI)
#define DAEKIT_STDLIB_ID "libstdc++-cxx11abi" DAEKIT_STR(_GLIBCXX_USE_CXX11_ABI)
#elif defined(_LIBCPP_VERSION)
#define DAEKIT_STDLIB_ID "libc++-" DAEKIT_STR(_LIBCPP_VERSION)
#else
#define DAEKIT_STDLIB_ID "unknown-stdlib"
#endif

#define DAEKIT_BUILD_ID                                                                   \
  DAEKIT_COMPILER_ID " " DAEKIT_STDLIB_ID " eigen-" DAEKIT_STR(EIGEN_WORLD_VERSION) "." \
      DAEKIT_STR(EIGEN_MAJOR_VERSION) "." DAEKIT_STR(EIGEN_MINOR_VERSION) " align-"     \
      DAEKIT_STR(EIGEN_MAX_ALIGN_BYTES)

// The ABI major as it appears in exported symbol names.
#define DAEKIT_ABI_TAG v1
static_assert(DK_ABI_MAJOR == 1, "DAEKIT_ABI_TAG must follow DK_ABI_MAJOR");
