// SUNDIALS linear solvers for the adapters: SUNDIALS' dense LU or the core's (Eigen),
// or KLU when the problem gives a sparsity pattern; and the copies of our assembled matrices into
// SUNDIALS' matrix types.
#pragma once

#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cstring>
#include <daekit/numerics/sparse_lu.hpp>
#include <vector>
#include <stdexcept>
#include <string>

#include "core_dense_solver.hpp"
#include "sundials_support.hpp"

namespace daekit::plugins::sundials {

inline void copy_dense(const Eigen::MatrixXd& from, SUNMatrix to) {
  // Both column-major with leading dimension n.
  std::memcpy(SUNDenseMatrix_Data(to), from.data(), sizeof(double) * static_cast<std::size_t>(from.size()));
}

inline void copy_sparse(const Eigen::SparseMatrix<double>& from, SUNMatrix to) {
  const Eigen::Index n = from.cols(), nnz = from.nonZeros();
  double* data = SUNSparseMatrix_Data(to);
  sunindextype* rows = SUNSparseMatrix_IndexValues(to);
  sunindextype* cols = SUNSparseMatrix_IndexPointers(to);
  for (Eigen::Index j = 0; j <= n; ++j) cols[j] = from.outerIndexPtr()[j];
  for (Eigen::Index k = 0; k < nnz; ++k) {
    rows[k] = from.innerIndexPtr()[k];
    data[k] = from.valuePtr()[k];
  }
}

// KLU's user ordering for SUNDIALS' KLU (64-bit indices): the core's METIS nested dissection.
inline SuiteSparse_long klu_nested_dissection(SuiteSparse_long n, SuiteSparse_long* col_ptr, SuiteSparse_long* row_idx,
                                              SuiteSparse_long* perm, klu_l_common*) {
  std::vector<long> order;
  if (!nested_dissection<long>(n, col_ptr, row_idx, order)) return 0;  // KLU reads 0 as failure
  std::copy(order.begin(), order.end(), perm);
  return 1;
}

// choice: "auto", "dense", "core" or "klu"; sparse_pattern: the assembled W (or J) when the problem has one;
// ordering: the sparse_ordering option, for KLU (its AMD, or METIS as the core's LUs choose it).
inline void make_linear_solver(LinearAlgebra& la, N_Vector y, const std::string& choice,
                               const Eigen::SparseMatrix<double>* sparse_pattern, SparseOrdering ordering,
                               SUNContext ctx) {
  const sunindextype n = N_VGetLength(y);
  if (sparse_pattern && choice != "dense" && choice != "core") {
    la.matrix = SUNSparseMatrix(n, n, sparse_pattern->nonZeros(), CSC_MAT, ctx);
    la.solver = SUNLinSol_KLU(y, la.matrix, ctx);
    if (la.solver && nested_dissection_for(ordering, SparseFactoriser::klu, n)) {
      sun_klu_common* common = SUNLinSol_KLUGetCommon(la.solver);
      common->ordering = 3;  // the user's function
      common->user_order = &klu_nested_dissection;
    }
  } else {
    la.matrix = SUNDenseMatrix(n, n, ctx);
    la.solver = choice == "core" ? CoreDenseSolver::create(n, ctx) : SUNLinSol_Dense(y, la.matrix, ctx);
  }
  if (!la.matrix || !la.solver) throw std::runtime_error("cannot create the SUNDIALS linear solver");
}

}  // namespace daekit::plugins::sundials
