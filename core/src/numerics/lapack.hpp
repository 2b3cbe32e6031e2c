// The four LAPACK routines the dense LU uses (Fortran calling convention, 32-bit integers
// as in Debian's reference LAPACK and OpenBLAS builds; the trailing size_t is the hidden
// length of the character argument), resolved from the LAPACK library that
// lapack_loader.cpp opens on first use.
#pragma once

#include <complex>
#include <cstddef>

namespace daekit::lapack {

struct Routines {
  void (*dgetrf)(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
  void (*zgetrf)(const int* m, const int* n, std::complex<double>* a, const int* lda, int* ipiv, int* info);
  void (*dgetrs)(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
                 double* b, const int* ldb, int* info, std::size_t trans_len);
  void (*zgetrs)(const char* trans, const int* n, const int* nrhs, const std::complex<double>* a, const int* lda,
                 const int* ipiv, std::complex<double>* b, const int* ldb, int* info, std::size_t trans_len);
};

// The routines, or nullptr when no LAPACK could be opened (the dense LU then uses Eigen's).
const Routines* routines();

}  // namespace daekit::lapack
