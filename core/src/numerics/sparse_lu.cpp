#include "daekit/numerics/sparse_lu.hpp"

#include <Eigen/KLUSupport>
#include <Eigen/SparseLU>
#include <metis.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <vector>

#include "daekit/numerics/lapack_backend.hpp"
#include "core_module.hpp"
#include "umfpack_module.hpp"

namespace daekit {

namespace {

// Complex matrices with more non-zeros per column than this go to the supernodal LU.
// KLU (left-looking, column by column, no dense kernels) wins on stencils: 17 against
// 30 ms per complex LU on the 2D brusselator (n = 2048, ~6 per column). A pattern with a
// dense block (Fekete's all-pairs forces: 25 per column at N = 20, 95 at N = 80) is
// where supernodes and their dense kernels win: radau5 on Fekete N = 80 at 1e-8 takes
// 3.9 s with Eigen's SparseLU against 6.3 s with KLU (and 6.8 s with dense LAPACK).
// The choice depends on the pattern only, so every machine makes the same one.
constexpr double supernodal_above_per_column = 16.0;

// From this size on, `automatic` takes UMFPACK (multifrontal, dense BLAS-3 kernels on
// its frontal matrices): on the 5-point heat2d W it factorises 3x faster than the
// supernodal LU at n = 10^4 and 5x at n = 3.6 10^5, where KLU is slower still
// (docs/benchmarks/scaling.md). Below it the choices measured before stay.
constexpr Eigen::Index multifrontal_from_size = 20000;
// When `automatic` orders by METIS nested dissection, per factorisation (heat2d's W, the
// 5-point stencil with algebraic boundary values; docs/benchmarks/scaling.md):
//  * KLU from n = 5000: its AMD ordering fills fast on grids; ida on heat2d took 0.24 /
//    2.45 / 65.9 s with AMD against 0.15 / 1.18 / 18.5 s with METIS at n = 5 184 / 23 104 /
//    91 204.
//  * UMFPACK from n = 200 000: there METIS fills 18-34 % less than AMD and every LU after
//    the first is as fast or faster (brusselator W, n = 2 10^5: 2.20 against 2.92 s); its
//    analysis costs more. Between 2 10^4 and 2 10^5 whole runs were mixed (-22 % to +5 %).
//  * the supernodal LU never: with METIS it factorised heat2d's W slower (0.83 against
//    0.62 s at n = 91 204), its supernodes break on the boundary rows.
constexpr Eigen::Index klu_metis_from_size = 5000;
constexpr Eigen::Index umfpack_metis_from_size = 200000;

// Eigen's SparseLU with METIS: the columns in nested-dissection order (COLAMD's when METIS
// fails, so a failure costs fill, never the factorisation).
template <class StorageIndex>
struct NestedDissectionOrdering {
  using PermutationType = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, StorageIndex>;
  template <class MatrixType>
  void operator()(const MatrixType& a, PermutationType& permutation) {
    const Eigen::SparseMatrix<typename MatrixType::Scalar, Eigen::ColMajor, StorageIndex> m(a);
    std::vector<StorageIndex> order;
    if (!nested_dissection(m.cols(), m.outerIndexPtr(), m.innerIndexPtr(), order)) {
      Eigen::COLAMDOrdering<StorageIndex>()(a, permutation);
      return;
    }
    permutation.resize(m.cols());
    for (Eigen::Index k = 0; k < m.cols(); ++k) permutation.indices()(order[static_cast<std::size_t>(k)]) = static_cast<StorageIndex>(k);
  }
};

// KLU's user ordering (klu_common.user_order): Perm[k] is the k-th pivot's old index;
// KLU reads a return of 0 as failure.
int klu_nested_dissection(int n, int* col_ptr, int* row_idx, int* perm, klu_common*) {
  std::vector<int> order;
  if (!nested_dissection(n, col_ptr, row_idx, order)) return 0;
  std::copy(order.begin(), order.end(), perm);
  return 1;
}

// The UMFPACK module next to this library, opened once, after LAPACK: its BLAS is then the
// OpenBLAS the core opened with the kernel it checked. NULL when it cannot be opened.
const daekit_umfpack_table* umfpack_module() {
  static const daekit_umfpack_table* const table = []() -> const daekit_umfpack_table* {
    lapack_backend();
    std::string why;
    auto entry = reinterpret_cast<daekit_umfpack_entry>(open_core_module("libdaekit_umfpack.so", "daekit_umfpack", &why));
    const daekit_umfpack_table* t = entry ? entry() : nullptr;
    return t && t->version == DAEKIT_UMFPACK_TABLE_VERSION ? t : nullptr;
  }();
  return table;
}

// Why UMFPACK could not factorise at all (its negative status, umfpack.h): a failure of
// the linear algebra that ends the run, where a singular matrix would only cut the step.
std::string failure_text(int status, Eigen::Index n) {
  std::string why = status == DAEKIT_UMFPACK_OUT_OF_MEMORY ? "out of memory"
                                                            : "UMFPACK status " + std::to_string(status);
  return "the sparse LU (UMFPACK) could not factorise the " + std::to_string(n) + " x " + std::to_string(n) +
         " iteration matrix: " + why;
}

// UMFPACK through the module, real or complex (std::complex<double> is two doubles, as
// UMFPACK's packed complex form).
template <class Scalar>
class UmfpackLU {
 public:
  using Matrix = Eigen::SparseMatrix<Scalar>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  UmfpackLU() = default;
  UmfpackLU(const UmfpackLU&) = delete;
  UmfpackLU& operator=(const UmfpackLU&) = delete;
  ~UmfpackLU() {
    if (self_) table_->destroy(self_);
  }
  bool analyze(const Matrix& pattern, bool metis) {
    table_ = umfpack_module();
    if (!table_) return false;
    if (!self_) self_ = table_->create(std::is_same_v<Scalar, double> ? 0 : 1);
    const Matrix compressed = pattern.isCompressed() ? Matrix() : Matrix(pattern);
    const Matrix& p = pattern.isCompressed() ? pattern : compressed;
    return self_ && table_->analyze(self_, static_cast<int>(p.cols()), p.outerIndexPtr(), p.innerIndexPtr(), metis ? 1 : 0) == 0;
  }
  bool factor(const Matrix& a) {
    if (!a.isCompressed()) {
      const Matrix compressed(a);
      return factor(compressed);
    }
    const int status = table_->factor(self_, reinterpret_cast<const double*>(a.valuePtr()));
    if (status < 0) throw std::runtime_error(failure_text(status, a.cols()));
    return status == 0;
  }
  double footprint(int which) const { return self_ ? table_->footprint(self_, which) : -1.0; }
  void solve(const Vector& b, Vector& x) {
    x.resize(b.size());
    table_->solve(self_, reinterpret_cast<const double*>(b.data()), reinterpret_cast<double*>(x.data()));
  }

 private:
  const daekit_umfpack_table* table_ = nullptr;
  void* self_ = nullptr;
};

template <class Scalar>
using ColamdLU = Eigen::SparseLU<Eigen::SparseMatrix<Scalar>, Eigen::COLAMDOrdering<int>>;
template <class Scalar>
using MetisLU = Eigen::SparseLU<Eigen::SparseMatrix<Scalar>, NestedDissectionOrdering<int>>;

}  // namespace

// One of the factorisations, real or complex, chosen when the pattern is analysed.
template <class Scalar>
struct SparseLUOf<Scalar>::Backend {
  SparseFactoriser factoriser = SparseFactoriser::supernodal;
  SparseOrdering ordering = SparseOrdering::colamd;
  ColamdLU<Scalar> supernodal_colamd;
  MetisLU<Scalar> supernodal_metis;
  Eigen::KLU<Matrix> klu;
  UmfpackLU<Scalar> umfpack;

  void analyze(const Matrix& pattern) {
    const bool metis = ordering == SparseOrdering::metis;
    switch (factoriser) {
      case SparseFactoriser::supernodal:
        if (metis)
          supernodal_metis.analyzePattern(pattern);
        else
          supernodal_colamd.analyzePattern(pattern);
        return;
      case SparseFactoriser::klu:
        if (metis) {
          klu.kluCommon().ordering = 3;  // the user's function
          klu.kluCommon().user_order = &klu_nested_dissection;
        }
        klu.analyzePattern(pattern);
        return;
      default:
        // UMFPACK's METIS (through CHOLMOD) or its AMD/COLAMD choice; without its module
        // (not installed beside the core) the supernodal LU stands in.
        if (umfpack.analyze(pattern, metis)) return;
        factoriser = SparseFactoriser::supernodal;
        analyze(pattern);
        return;
    }
  }
  bool factor(const Matrix& a) {
    switch (factoriser) {
      case SparseFactoriser::supernodal:
        if (ordering == SparseOrdering::metis) {
          supernodal_metis.factorize(a);
          return supernodal_metis.info() == Eigen::Success;
        }
        supernodal_colamd.factorize(a);
        return supernodal_colamd.info() == Eigen::Success;
      case SparseFactoriser::klu:
        klu.factorize(a);
        return klu.info() == Eigen::Success;
      default: return umfpack.factor(a);
    }
  }
  SparseLUFootprint footprint() const {
    const auto bytes = static_cast<double>(sizeof(Scalar) + sizeof(int));  // a value and its row index
    switch (factoriser) {
      case SparseFactoriser::supernodal: {
        const double entries = ordering == SparseOrdering::metis
                                   ? static_cast<double>(supernodal_metis.nnzL() + supernodal_metis.nnzU())
                                   : static_cast<double>(supernodal_colamd.nnzL() + supernodal_colamd.nnzU());
        return {entries, entries * bytes};
      }
      case SparseFactoriser::klu: return {};  // Eigen's KLU wrapper keeps KLU's numeric object to itself
      default: return {umfpack.footprint(0), umfpack.footprint(1)};
    }
  }
  void solve(const Vector& b, Vector& x) {
    switch (factoriser) {
      case SparseFactoriser::supernodal:
        if (ordering == SparseOrdering::metis)
          x = supernodal_metis.solve(b);
        else
          x = supernodal_colamd.solve(b);
        return;
      case SparseFactoriser::klu: x = klu.solve(b); return;
      default: umfpack.solve(b, x); return;
    }
  }
};

namespace {

// The rule for `automatic`, from the pattern alone (so every machine chooses alike).
template <class Scalar>
SparseFactoriser choose_factoriser(SparseFactoriser wanted, const Eigen::SparseMatrix<Scalar>& pattern) {
  if (wanted != SparseFactoriser::automatic) return wanted;
  if (pattern.cols() >= multifrontal_from_size) return SparseFactoriser::umfpack;
  if constexpr (std::is_same_v<Scalar, double>) {
    return SparseFactoriser::supernodal;
  } else {
    const double per_column = pattern.cols() > 0 ? static_cast<double>(pattern.nonZeros()) / pattern.cols() : 0.0;
    return per_column > supernodal_above_per_column ? SparseFactoriser::supernodal : SparseFactoriser::klu;
  }
}

SparseOrdering choose_ordering(SparseOrdering wanted, SparseFactoriser factoriser, Eigen::Index n) {
  if (wanted != SparseOrdering::automatic) return wanted;
  const bool metis = (factoriser == SparseFactoriser::klu && n >= klu_metis_from_size) ||
                     (factoriser == SparseFactoriser::umfpack && n >= umfpack_metis_from_size);
  return metis ? SparseOrdering::metis : SparseOrdering::colamd;
}

}  // namespace

template <class Scalar>
SparseLUOf<Scalar>::SparseLUOf() : backend_(std::make_unique<Backend>()) {}
template <class Scalar>
SparseLUOf<Scalar>::~SparseLUOf() = default;
template <class Scalar>
SparseLUOf<Scalar>::SparseLUOf(SparseLUOf&&) noexcept = default;
template <class Scalar>
SparseLUOf<Scalar>& SparseLUOf<Scalar>::operator=(SparseLUOf&&) noexcept = default;

template <class Scalar>
void SparseLUOf<Scalar>::analyze(const Matrix& pattern) {
  factoriser_ = choose_factoriser(factoriser_, pattern);
  ordering_ = choose_ordering(ordering_, factoriser_, pattern.cols());
  backend_->factoriser = factoriser_;
  backend_->ordering = ordering_;
  backend_->analyze(pattern);
  factoriser_ = backend_->factoriser;  // the stand-in, if UMFPACK could not be opened
  analyzed_ = true;
}

template <class Scalar>
bool SparseLUOf<Scalar>::factor(const Matrix& a) {
  if (!analyzed_) analyze(a);
  return backend_->factor(a);
}

template <class Scalar>
SparseLUFootprint SparseLUOf<Scalar>::footprint() const {
  return analyzed_ ? backend_->footprint() : SparseLUFootprint{};
}

template <class Scalar>
void SparseLUOf<Scalar>::solve(const Vector& b, Vector& x) {
  backend_->solve(b, x);
}

template class SparseLUOf<double>;
template class SparseLUOf<std::complex<double>>;

bool nested_dissection_for(SparseOrdering wanted, SparseFactoriser factoriser, Eigen::Index n) {
  return choose_ordering(wanted, factoriser, n) == SparseOrdering::metis;
}

template <class Index>
bool nested_dissection(Eigen::Index n, const Index* col_ptr, const Index* row_idx, std::vector<Index>& order) {
  // The graph of A + A^T without the diagonal, as METIS takes it (CSR, both directions).
  std::vector<idx_t> degree(static_cast<std::size_t>(n) + 1, 0);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Index p = col_ptr[j]; p < col_ptr[j + 1]; ++p)
      if (const auto i = static_cast<Eigen::Index>(row_idx[p]); i != j) {
        ++degree[static_cast<std::size_t>(i)];
        ++degree[static_cast<std::size_t>(j)];
      }
  std::vector<idx_t> xadj(static_cast<std::size_t>(n) + 1, 0);
  for (Eigen::Index i = 0; i < n; ++i) xadj[static_cast<std::size_t>(i) + 1] = xadj[static_cast<std::size_t>(i)] + degree[static_cast<std::size_t>(i)];
  std::vector<idx_t> adjncy(static_cast<std::size_t>(xadj.back())), fill(xadj.begin(), xadj.end() - 1);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Index p = col_ptr[j]; p < col_ptr[j + 1]; ++p)
      if (const auto i = static_cast<Eigen::Index>(row_idx[p]); i != j) {
        adjncy[static_cast<std::size_t>(fill[static_cast<std::size_t>(i)]++)] = static_cast<idx_t>(j);
        adjncy[static_cast<std::size_t>(fill[static_cast<std::size_t>(j)]++)] = static_cast<idx_t>(i);
      }
  // Duplicates (an entry and its transpose both present) removed per vertex.
  idx_t kept = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto first = adjncy.begin() + xadj[static_cast<std::size_t>(i)];
    const auto last = adjncy.begin() + xadj[static_cast<std::size_t>(i) + 1];
    std::sort(first, last);
    const auto unique_end = std::unique(first, last);
    const idx_t count = static_cast<idx_t>(unique_end - first);
    std::copy(first, unique_end, adjncy.begin() + kept);
    xadj[static_cast<std::size_t>(i)] = kept;
    kept += count;
  }
  xadj[static_cast<std::size_t>(n)] = kept;
  order.resize(static_cast<std::size_t>(n));
  if (kept == 0) {  // no edges: any order is free of fill
    for (Eigen::Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = static_cast<Index>(i);
    return true;
  }
  idx_t vertices = static_cast<idx_t>(n);
  std::vector<idx_t> perm(static_cast<std::size_t>(n)), iperm(static_cast<std::size_t>(n));
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  if (METIS_NodeND(&vertices, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data()) != METIS_OK)
    return false;
  // METIS: row k of the permuted matrix is row perm[k] of the original.
  for (Eigen::Index k = 0; k < n; ++k) order[static_cast<std::size_t>(k)] = static_cast<Index>(perm[static_cast<std::size_t>(k)]);
  return true;
}

template bool nested_dissection(Eigen::Index, const int*, const int*, std::vector<int>&);
template bool nested_dissection(Eigen::Index, const long*, const long*, std::vector<long>&);

}  // namespace daekit
