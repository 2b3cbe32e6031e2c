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
  // RADAU5's stopping test: the remaining error, faccon (the rate's r/(1-r)) times the last
  // correction, within the Newton tolerance. After one iteration faccon is the previous
  // step's (grown by ^0.8), and after a fast step it is tiny, so one correction of any
  // size ended the iteration. An ODE's stages are smoothed by the method; an index-1
  // DAE's algebraic equations are not: a nonlinear one kept the first correction's
  // quadratic residual at the step's end (crossing_dae, y3 = y1^2 + y2: 4e-4 at rtol 1e-6,
  // 200 tolerances; RADAU5 itself the same). There the iteration measures its own rate
  // first. Problems of index 2 and 3, whose algebraic components the error test scales by
  // h^(k-1), keep RADAU5's test (their test-set runs match RADAU5's step for step).
  bool newton_converged(double faccon, double correction, int iterations) const {
    return faccon * correction <= newton_tolerance_ && (iterations >= 2 || !index_one_dae_);
  }

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
  const bool index_one_dae_;
  double newton_tolerance_ = 0.0;
};

}  // namespace daekit
