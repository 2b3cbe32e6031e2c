// UMFPACK behind a C table, built as its own module (libdaekit_umfpack.so) that the core
// opens on first use (sparse_lu.cpp). UMFPACK calls BLAS, and a library linked into the
// core would load OpenBLAS with the process, before the core has checked the kernel
// OpenBLAS picks (lapack_loader.cpp); opened later, the module shares the OpenBLAS the
// core opened with the kernel it chose.
//
// The 64-bit-index variants (umfpack_dl_*, umfpack_zl_*): the 32-bit ones size their
// workspace in int and stop with "out of memory" once a factorisation passes about 2^31
// units, which the periodic 2D brusselator at n = 10^6 does (docs/benchmarks/scaling.md),
// however much memory the machine has. The cost is the index copies below (12 bytes per
// entry of the pattern instead of 8), small beside the factors.
#include <umfpack.h>

#include <algorithm>
#include <complex>
#include <vector>

#include "umfpack_module.hpp"

static_assert(DAEKIT_UMFPACK_OUT_OF_MEMORY == UMFPACK_ERROR_out_of_memory);

namespace {

struct Factorisation {
  bool complex = false;
  SuiteSparse_long n = 0;
  std::vector<SuiteSparse_long> col_ptr, row_idx;
  double control[UMFPACK_CONTROL];
  double info[UMFPACK_INFO];
  double factor_info[UMFPACK_INFO];  // as the last factorisation left it (solves overwrite info)
  void* symbolic = nullptr;
  void* numeric = nullptr;

  void free_numeric() {
    if (!numeric) return;
    if (complex)
      umfpack_zl_free_numeric(&numeric);
    else
      umfpack_dl_free_numeric(&numeric);
    numeric = nullptr;
  }
  void free_symbolic() {
    if (!symbolic) return;
    if (complex)
      umfpack_zl_free_symbolic(&symbolic);
    else
      umfpack_dl_free_symbolic(&symbolic);
    symbolic = nullptr;
  }
  ~Factorisation() {
    free_numeric();
    free_symbolic();
  }
};

void* create(int complex) {
  auto* f = new (std::nothrow) Factorisation;
  if (!f) return nullptr;
  f->complex = complex != 0;
  if (f->complex)
    umfpack_zl_defaults(f->control);
  else
    umfpack_dl_defaults(f->control);
  // No iterative refinement: each step costs a residual and another solve, and the
  // methods' own iterations (Newton, the error estimate) absorb the difference.
  f->control[UMFPACK_IRSTEP] = 0;
  return f;
}

void destroy(void* self) { delete static_cast<Factorisation*>(self); }

// 1 for every stored entry (complex: 1 + 0i, interleaved).
std::vector<double> structural_values(const Factorisation& f) {
  const auto entries = static_cast<std::size_t>(f.col_ptr.back());
  std::vector<double> ones(f.complex ? 2 * entries : entries, 0.0);
  for (std::size_t k = 0; k < entries; ++k) ones[f.complex ? 2 * k : k] = 1.0;
  return ones;
}

int analyze(void* self, int n, const int* col_ptr, const int* row_idx, int metis) {
  auto& f = *static_cast<Factorisation*>(self);
  f.free_numeric();
  f.free_symbolic();
  f.n = n;
  f.col_ptr.assign(col_ptr, col_ptr + n + 1);
  f.row_idx.assign(row_idx, row_idx + col_ptr[n]);
  f.control[UMFPACK_ORDERING] = metis ? UMFPACK_ORDERING_METIS : UMFPACK_ORDERING_AMD;
  // Ones in place of the values: UMFPACK chooses its strategy from the entries of the
  // diagonal it counts as non-zero, and without values it counts none and always takes the
  // unsymmetric strategy. With every stored entry counted, its own rule decides from the
  // pattern alone (the same choice on every machine): the symmetric strategy for W of a
  // grid, half the fill and about half the time per LU (brusselator and heat2d at
  // n = 10^5, docs/benchmarks/scaling.md).
  const std::vector<double> ones = structural_values(f);
  const auto status = f.complex ? umfpack_zl_symbolic(n, n, f.col_ptr.data(), f.row_idx.data(), ones.data(), nullptr,
                                                      &f.symbolic, f.control, f.info)
                               : umfpack_dl_symbolic(n, n, f.col_ptr.data(), f.row_idx.data(), ones.data(),
                                                     &f.symbolic, f.control, f.info);
  return status == UMFPACK_OK ? 0 : 1;
}

// Values in the analysed pattern's order; complex ones interleaved (re, im).
int factor(void* self, const double* values) {
  auto& f = *static_cast<Factorisation*>(self);
  if (!f.symbolic) return UMFPACK_ERROR_invalid_Symbolic_object;
  f.free_numeric();
  const auto status = f.complex ? umfpack_zl_numeric(f.col_ptr.data(), f.row_idx.data(), values, nullptr, f.symbolic,
                                                     &f.numeric, f.control, f.info)
                               : umfpack_dl_numeric(f.col_ptr.data(), f.row_idx.data(), values, f.symbolic, &f.numeric,
                                                    f.control, f.info);
  std::copy(f.info, f.info + UMFPACK_INFO, f.factor_info);
  // UMFPACK_WARNING_singular_matrix (1) still leaves a numeric object: a singular W, which
  // the methods answer with a smaller step. Any other status is no property of the matrix
  // (out of memory, a bad pattern) and a smaller step would meet it again.
  if (status == UMFPACK_WARNING_singular_matrix) return 1;
  return status < 0 ? static_cast<int>(status) : 0;
}

// Without iterative refinement UMFPACK does not read A again: no values needed.
int solve(void* self, const double* b, double* x) {
  auto& f = *static_cast<Factorisation*>(self);
  if (!f.numeric) return 1;
  const auto status =
      f.complex ? umfpack_zl_solve(UMFPACK_A, nullptr, nullptr, nullptr, nullptr, x, nullptr, b, nullptr, f.numeric,
                                   f.control, f.info)
                : umfpack_dl_solve(UMFPACK_A, nullptr, nullptr, nullptr, x, b, f.numeric, f.control, f.info);
  return status == UMFPACK_OK ? 0 : 1;
}

double footprint(void* self, int which) {
  const auto& f = *static_cast<const Factorisation*>(self);
  if (!f.numeric) return -1;
  if (which == 0) return f.factor_info[UMFPACK_LNZ] + f.factor_info[UMFPACK_UNZ] - f.n;
  return f.factor_info[UMFPACK_PEAK_MEMORY] * f.factor_info[UMFPACK_SIZE_OF_UNIT];
}

const daekit_umfpack_table table = {DAEKIT_UMFPACK_TABLE_VERSION, &create, &destroy, &analyze, &factor, &solve,
                                    &footprint};

}  // namespace

extern "C" __attribute__((visibility("default"))) const daekit_umfpack_table* daekit_umfpack() { return &table; }
