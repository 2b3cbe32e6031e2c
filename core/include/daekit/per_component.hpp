// A value for each of n components (a tolerance), stored once when all are equal: the
// request's rtol and atol expanded to n entries were 2 of the 48 doubles per unknown of a
// Krylov run at 2 10^6 unknowns, for the common case of one number each.
#pragma once

#include <Eigen/Core>

#include "daekit/eigen_abi.hpp"

namespace daekit {

class PerComponent {
 public:
  PerComponent() = default;
  PerComponent(Eigen::Index n, double value) : values_(Eigen::VectorXd::Constant(1, value)), n_(n) {}
  // n values; kept as one when they are all equal.
  explicit PerComponent(Eigen::VectorXd values) : n_(values.size()) {
    if (n_ > 0 && (values.array() == values[0]).all()) {
      values_ = Eigen::VectorXd::Constant(1, values[0]);
    } else {
      values_ = std::move(values);
      mask_ = ~Eigen::Index{0};
    }
  }

  // No branch in the loops that read it: index 0 for the uniform case.
  double operator[](Eigen::Index i) const { return values_[i & mask_]; }
  double operator()(Eigen::Index i) const { return values_[i & mask_]; }
  Eigen::Index size() const { return n_; }
  bool uniform() const { return mask_ == 0; }
  // Named as Eigen's, with the conversion below, so that solver code written when the
  // request held Eigen::VectorXd (request.rtol.minCoeff(), VectorXd atol = request.atol)
  // still compiles.
  double minCoeff() const { return values_.minCoeff(); }
  double maxCoeff() const { return values_.maxCoeff(); }
  Eigen::VectorXd expanded() const { return uniform() ? Eigen::VectorXd::Constant(n_, values_[0]) : values_; }
  operator Eigen::VectorXd() const { return expanded(); }  // n entries, allocated

 private:
  Eigen::VectorXd values_;
  Eigen::Index n_ = 0;
  Eigen::Index mask_ = 0;  // 0: one value for all; all bits set: one per component
};

}  // namespace daekit
