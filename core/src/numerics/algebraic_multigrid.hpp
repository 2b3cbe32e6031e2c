// hypre's BoomerAMG as a preconditioner's engine: the module (amg_module.cpp) opened on
// first use, the matrix handed over in CSR, one V-cycle per application.
#pragma once

#include <Eigen/SparseCore>
#include <string>

#include "amg_module.hpp"

namespace daekit {

class AlgebraicMultigrid {
 public:
  AlgebraicMultigrid() = default;
  ~AlgebraicMultigrid();
  AlgebraicMultigrid(const AlgebraicMultigrid&) = delete;
  AlgebraicMultigrid& operator=(const AlgebraicMultigrid&) = delete;

  // False with why when the module cannot be opened or hypre cannot start.
  bool open(double strong_threshold, std::string* why);
  // The hierarchy for `matrix` (its values now; its pattern may change between calls).
  bool setup(const Eigen::SparseMatrix<double>& matrix);
  // x = one V-cycle on A x = b, from x = 0.
  bool apply(const double* b, double* x);

 private:
  const daekit_amg_table* table_ = nullptr;
  void* self_ = nullptr;
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> csr_;
};

}  // namespace daekit
