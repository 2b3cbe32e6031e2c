// Refuses to compile a file whose Eigen would allocate and free differently from the daekit
// libraries'. The core library, the family kits, the library API and a consumer (a solver
// plugin, a program) hand Eigen objects to each other: a DenseLU's matrix filled on one
// side is factored on the other, a vector sized by the library is freed by the plugin.
// Eigen's rule for its heap storage follows the instruction set a file is compiled for
// (plain malloc at 16 bytes for SSE, its own aligned blocks at 32 for AVX and 64 for
// AVX-512), and the two kinds of block cannot be freed by each other's rule: a plugin
// compiled with -march=native against a portable build crashed on its first solve.
// cmake/DaekitEigenAbi.cmake records the libraries' value in daekit/eigen_build.hpp.
//
// Every installed header that includes Eigen includes this one, but for those whose
// interface only reads the caller's Eigen objects (tests/architecture/check_layering.py):
// a program on the library API, which reaches Eigen only through those, may be compiled
// for any instruction set.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <type_traits>

#include "daekit/eigen_build.hpp"

static_assert(EIGEN_DEFAULT_ALIGN_BYTES == DAEKIT_EIGEN_DEFAULT_ALIGN_BYTES,
              "daekit: this file is compiled for another vector instruction set than the daekit libraries "
              "(Eigen's EIGEN_DEFAULT_ALIGN_BYTES differs from daekit/eigen_build.hpp's), and Eigen objects "
              "freed by the other side's rule crash the process: compile the files that include daekit's C++ "
              "headers with the libraries' instruction set (no -mavx or -march=native against a portable "
              "build), or build daekit with -DDAEKIT_NATIVE=ON (docs/authoring/solver.md)");
static_assert(std::is_same_v<Eigen::Index, std::ptrdiff_t>,
              "daekit: the daekit libraries use Eigen's default index type; do not set "
              "EIGEN_DEFAULT_DENSE_INDEX_TYPE in files that include daekit's headers");
#ifdef EIGEN_DEFAULT_TO_ROW_MAJOR
#error "daekit: the daekit libraries store Eigen matrices column-major; do not define EIGEN_DEFAULT_TO_ROW_MAJOR in files that include daekit's headers"
#endif
