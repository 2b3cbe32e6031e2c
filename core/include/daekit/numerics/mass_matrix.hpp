// A constant mass matrix, evaluated once and stored in the cheapest shape that
// holds it exactly: identity, diagonal, or dense.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <complex>

#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

class MassMatrix {
 public:
  enum class Shape { identity, diagonal, dense };

  // Evaluates M at (t0, y0) for a constant mass matrix; identity needs no evaluation.
  Eval setup(ProblemView& problem, double t0, const Eigen::VectorXd& y0);

  Shape shape() const { return shape_; }
  bool is_identity() const { return shape_ == Shape::identity; }
  const Eigen::MatrixXd& dense() const { return dense_; }

  void apply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;  // out = M x
  // w += alpha M, for real W or the Radau methods' complex shifted matrices.
  template <class Scalar>
  void add_scaled_to(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& w, Scalar alpha) const;
  double entry(Eigen::Index i, Eigen::Index j) const;
  // f(i, j, value) for every non-zero entry, column by column: O(n) for the identity and
  // diagonal shapes, so that sparse assembly never walks n^2 positions.
  template <class F>
  void for_each_nonzero(F&& f) const {
    for (Eigen::Index j = 0; j < n_; ++j) {
      if (shape_ == Shape::dense) {
        for (Eigen::Index i = 0; i < n_; ++i)
          if (dense_(i, j) != 0.0) f(i, j, dense_(i, j));
      } else if (const double d = entry(j, j); d != 0.0) {
        f(j, j, d);
      }
    }
  }

 private:
  Shape shape_ = Shape::identity;
  Eigen::VectorXd diag_;
  Eigen::MatrixXd dense_;
  Eigen::Index n_ = 0;
};

}  // namespace daekit
