// Which LAPACK and BLAS kernel the dense LU runs, and why that kernel.
//
// The core opens LAPACK (OpenBLAS, else the system's liblapack.so.3) itself, on the first
// dense factorisation, rather than linking it: OpenBLAS chooses its kernels when it is
// loaded, from a table of CPU models, and a model it does not know (virtual machines in
// clouds report "Intel Xeon Processor") gets the generic Prescott kernels, 1.7x slower
// for radau5 on Fekete. Opening it ourselves lets the core check that choice against the
// CPU's features and, where OpenBLAS fell back to generic kernels on a CPU with AVX2 or
// AVX-512, open it again with the matching kernel. A kernel named in OPENBLAS_CORETYPE by
// the user is always kept.
#pragma once

#include <string>

namespace daekit {

struct LapackBackend {
  std::string library;   // the file opened (its real path), "" if none (Eigen's LU is used)
  std::string kernel;    // OpenBLAS's core in use, "" if the LAPACK is not OpenBLAS
  std::string decision;  // how the kernel was chosen, in words
  std::string config;    // OpenBLAS's build configuration, "" if not OpenBLAS
};

// Opens LAPACK if that has not happened yet.
const LapackBackend& lapack_backend();

// The kernel to ask OpenBLAS for, given the one it chose by itself, whether the user named
// one, and the CPU's features; "" to keep its choice. Generic kernels on a CPU with AVX-512
// (F, DQ, VL, BW) get SkylakeX, with AVX2 and FMA Haswell, with AVX Sandybridge.
std::string better_kernel(const std::string& chosen, bool user_named_one, bool avx512, bool avx2_fma, bool avx);

}  // namespace daekit
