// A constant mass matrix, evaluated once and stored in the cheapest shape that holds it
// exactly: identity, diagonal, sparse (from a problem that stores M sparse), or dense
// (only from a problem that stores M dense). Nothing here is n x n unless M came so.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <complex>
#include <memory>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

class MassMatrix {
 public:
  enum class Shape { identity, diagonal, sparse, dense };

  MassMatrix();
  ~MassMatrix();
  MassMatrix(MassMatrix&&) noexcept;
  MassMatrix& operator=(MassMatrix&&) noexcept;

  // Evaluates M at (t0, y0) for a constant mass matrix; identity needs no evaluation.
  Eval setup(ProblemView& problem, double t0, const Eigen::VectorXd& y0);

  Shape shape() const { return shape_; }
  bool is_identity() const { return shape_ == Shape::identity; }
  const Eigen::MatrixXd& dense() const { return dense_; }
  const Eigen::SparseMatrix<double>& sparse() const { return sparse_; }

  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;  // out = M x
  // w += alpha M, for real W or the Radau methods' complex shifted matrices.
  template <class Scalar>
  void add_scaled_to(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& w, Scalar alpha) const;
  double entry(Eigen::Index i, Eigen::Index j) const;
  bool zero_column(Eigen::Index j) const;
  // f(i, j, value) for every non-zero entry, column by column: O(nnz) for every shape but
  // the dense one, so that sparse assembly never walks n^2 positions.
  template <class F>
  void for_each_nonzero(F&& f) const {
    if (shape_ == Shape::sparse) {
      for (Eigen::Index j = 0; j < n_; ++j)
        for (Eigen::SparseMatrix<double>::InnerIterator it(sparse_, j); it; ++it)
          if (it.value() != 0.0) f(it.row(), j, it.value());
      return;
    }
    for (Eigen::Index j = 0; j < n_; ++j) {
      if (shape_ == Shape::dense) {
        for (Eigen::Index i = 0; i < n_; ++i)
          if (dense_(i, j) != 0.0) f(i, j, dense_(i, j));
      } else if (const double d = entry(j, j); d != 0.0) {
        f(j, j, d);
      }
    }
  }

  // The split most DAEs have: M zero in some rows and columns (the algebraic equations
  // and components) and non-singular on the rest. True for the identity and diagonal
  // shapes, and for a sparse M whose non-zero block is square and factorises.
  bool splits() const { return shape_ != Shape::dense && splits_; }
  const std::vector<Eigen::Index>& zero_rows() const { return zero_rows_; }
  const std::vector<Eigen::Index>& zero_columns() const { return zero_columns_; }
  // With splits(): y' of the differential components from M y' = f (the algebraic ones
  // get 0). False without the split.
  bool solve_split(const Eigen::VectorXd& f, Eigen::VectorXd& yp) const;

 private:
  void find_split();

  Shape shape_ = Shape::identity;
  Eigen::VectorXd diag_;
  Eigen::SparseMatrix<double> sparse_;
  Eigen::MatrixXd dense_;
  Eigen::Index n_ = 0;
  bool splits_ = true;
  std::vector<Eigen::Index> zero_rows_, zero_columns_, block_rows_, block_columns_;
  using BlockLU = Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>>;
  std::unique_ptr<BlockLU> block_lu_;  // the non-zero block of a sparse M
};

}  // namespace daekit
