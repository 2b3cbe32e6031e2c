// What every plugin exports: its manifest, made by DAEKIT_DETAIL_MANIFEST, with the
// advisory build fingerprint (docs/abi.md: compiler, standard library, Eigen version
// and alignment; the C seam does not depend on it, the host prints it so that
// mismatches can be diagnosed).
#pragma once

#include <Eigen/Core>
#include <boost/dll/alias.hpp>

#include "daekit/abi.h"

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

// The manifest of one plugin and the Boost.DLL aliases that export it and its
// factory in the "daekit" section. KIND is DK_KIND_SOLVER or DK_KIND_PROBLEM; the
// factory must be called daekit_entry_impl_<NAME>.
#define DAEKIT_DETAIL_MANIFEST(NAME, KIND, VERSION, DESCRIPTION, TAG)                        \
  static const dk_manifest daekit_manifest_##NAME = {                                        \
      DK_ABI_MAGIC, DK_ABI_MAJOR, DK_ABI_MINOR,    sizeof(dk_manifest),                      \
      KIND,         #NAME,        VERSION,         DESCRIPTION,                              \
      DAEKIT_BUILD_ID, "daekit_" DAEKIT_STR(TAG) "_entry_" #NAME};                           \
  BOOST_DLL_ALIAS_SECTIONED(daekit_manifest_##NAME, daekit_##TAG##_manifest_##NAME, daekit) \
  BOOST_DLL_ALIAS_SECTIONED(daekit_entry_impl_##NAME, daekit_##TAG##_entry_##NAME, daekit)
