// LU with partial pivoting for small dense systems, written out: below a few dozen
// unknowns LAPACK's getrf/getrs cost more in their blocking, dispatch and first-use set-up
// than in the arithmetic (measurements in docs/architecture.md, "Small systems skip
// LAPACK"), and a Radau step at n = 24 factors one real and one complex matrix.
//
// The loops are column-oriented axpy updates only (no dot products), so vectorising them
// never changes the order of operations: the results are the same bits on every CPU and
// with every BLAS kernel, which OpenBLAS's run-time kernel choice does not give.
//
// Complex matrices are factored in split storage (real and imaginary parts in two arrays),
// as Hairer's DECC does: the updates then vectorise as real ones. Pivots are 0-based row
// interchanges, applied to the right-hand side in order, as LAPACK's.
#pragma once

namespace daekit::small_lu {

// Up to these sizes the written-out loops, in their AVX2 variant, beat OpenBLAS here
// (docs/decisions/blas-kernel.md, "Small systems skip LAPACK").
constexpr int real_limit = 48;
constexpr int complex_limit = 40;

// Factors the n x n column-major a in place; false on an exactly zero pivot column.
bool factor(int n, double* a, int* pivots);
void solve(int n, const double* lu, const int* pivots, double* b);

bool factor(int n, double* re, double* im, int* pivots);
void solve(int n, const double* re, const double* im, const int* pivots, double* b_re, double* b_im);

}  // namespace daekit::small_lu
