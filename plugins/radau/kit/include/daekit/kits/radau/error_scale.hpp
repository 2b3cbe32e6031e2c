// The error measure both Radau steppers use, as RADAU5 defines it: tolerances
// transformed for the lower-order error estimate, weights atol' + rtol' |y| divided by
// h^(k-1) for components of index k = 2, 3, and the RMS norm over the components under
// error control (algebraic ones may be left out).
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

class RadauErrorScale {
 public:
  RadauErrorScale(const ProblemView& problem, const SolveRequest& request);

  // rtol' = 0.1 rtol^exponent, atol' = rtol' atol / rtol (RADAU5: exponent 2/3), and
  // the Newton stopping tolerance that goes with them.
  void transform_tolerances(double exponent);
  double newton_tolerance() const { return newton_tolerance_; }

  // The weights at y for the step size h (the index scaling depends on h).
  void update(const Eigen::VectorXd& y, double h);
  const Eigen::VectorXd& weights() const { return scal_; }
  double norm(const Eigen::VectorXd& v) const { return norm(v, scal_); }
  // The same with scales of another magnitude (a sensitivity column's, update()d earlier).
  double norm(const Eigen::VectorXd& v, Eigen::Ref<const Eigen::VectorXd> scal) const;

 private:
  const SolveRequest& request_;
  Eigen::VectorXd rtol_, atol_, scal_;
  std::vector<int> index_;
  std::vector<bool> controlled_;
  int controlled_count_ = 0;
  double newton_tolerance_ = 0.0;
};

}  // namespace daekit
