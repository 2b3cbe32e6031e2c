// Sparse LU, real or complex. The pattern is analysed once; each factorisation only
// refreshes the numbers. Real: Eigen's SparseLU (COLAMD ordering, supernodal). Complex:
// SuiteSparse's KLU for stencil-like patterns (1.7 times faster on the Radau methods'
// complex systems of the 2D brusselator), Eigen's SparseLU where the pattern is dense
// enough for supernodes to pay (sparse_lu.cpp gives the rule and its measurements).
// The backends live in the .cpp, so that klu.h stays out of the installed headers.
#pragma once

#include <Eigen/SparseCore>
#include <complex>
#include <memory>
#include <vector>

#include "daekit/eigen_abi.hpp"

namespace daekit {

// The fill-reducing ordering of the sparse LUs: the factorisation's own minimum degree
// (COLAMD for Eigen's SparseLU, AMD for KLU and UMFPACK), or METIS nested dissection (on
// the pattern of A + A^T), which keeps the fill of 2D and 3D grids near its n log n bound.
// `automatic` chooses by factorisation and size (sparse_lu.cpp gives the rule and its
// measurements).
enum class SparseOrdering { automatic, colamd, metis };
// The factorisation: Eigen's supernodal SparseLU, SuiteSparse's KLU (left-looking, for
// circuit-like and stencil patterns) or UMFPACK (multifrontal, for large grids).
enum class SparseFactoriser { automatic, supernodal, klu, umfpack };

// What the last factorisation holds: the entries of L and U (the fill) and the memory it
// took, in bytes (UMFPACK: its peak during the factorisation; the supernodal LU: the
// entries' values and row indices). -1 where the factorisation does not say (KLU).
struct SparseLUFootprint {
  double entries = -1, bytes = -1;
};

template <class Scalar>
class SparseLUOf {
 public:
  using Matrix = Eigen::SparseMatrix<Scalar>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  SparseLUOf();
  // Before analyze(); the ordering analyze() actually chose is ordering() afterwards.
  void set_ordering(SparseOrdering ordering) { ordering_ = ordering; }
  void set_factoriser(SparseFactoriser factoriser) { factoriser_ = factoriser; }
  SparseOrdering ordering() const { return ordering_; }
  SparseFactoriser factoriser() const { return factoriser_; }
  ~SparseLUOf();
  SparseLUOf(SparseLUOf&&) noexcept;
  SparseLUOf& operator=(SparseLUOf&&) noexcept;

  void analyze(const Matrix& pattern);
  bool factor(const Matrix& a);  // false when singular
  void solve(const Vector& b, Vector& x);
  SparseLUFootprint footprint() const;

 private:
  struct Backend;
  std::unique_ptr<Backend> backend_;
  bool analyzed_ = false;
  SparseOrdering ordering_ = SparseOrdering::automatic;
  SparseFactoriser factoriser_ = SparseFactoriser::automatic;
};

// Whether `wanted` means METIS for an n x n matrix factorised by `factoriser` (`automatic`:
// the core's rule, sparse_lu.cpp), for LUs outside the core (SUNDIALS' KLU) to follow it.
bool nested_dissection_for(SparseOrdering wanted, SparseFactoriser factoriser, Eigen::Index n);

// METIS nested dissection of a square CSC pattern made symmetric (A + A^T): order[k] is
// the k-th pivot's original index. False when METIS fails. For KLU's user ordering (the
// core's and SUNDIALS' KLU) and the supernodal LU alike.
template <class Index>
bool nested_dissection(Eigen::Index n, const Index* col_ptr, const Index* row_idx, std::vector<Index>& order);
extern template bool nested_dissection(Eigen::Index, const int*, const int*, std::vector<int>&);
extern template bool nested_dissection(Eigen::Index, const long*, const long*, std::vector<long>&);

using SparseLUSolver = SparseLUOf<double>;
using ComplexSparseLU = SparseLUOf<std::complex<double>>;

extern template class SparseLUOf<double>;
extern template class SparseLUOf<std::complex<double>>;

}  // namespace daekit
