#include "daekit/kits/radau/error_scale.hpp"

#include "daekit/numerics/newton_tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

RadauErrorScale::RadauErrorScale(const ProblemView& problem, const SolveRequest& request)
    : request_(request), index_one_dae_(index_one_dae(problem.info())) {
  const Eigen::Index n = problem.size();
  rtol_.setZero(n);
  atol_.setZero(n);
  scal_.setZero(n);
  index_.resize(n);
  controlled_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    index_[i] = request.index_scaling ? std::max(1, problem.index_of(i)) : 1;
    controlled_[i] = !(request.suppress_algebraic && problem.is_algebraic(i));
    controlled_count_ += controlled_[i] ? 1 : 0;
  }
}

void RadauErrorScale::transform_tolerances(double exponent) {
  for (Eigen::Index i = 0; i < rtol_.size(); ++i) {
    const double r = request_.rtol[i] > 0 ? request_.rtol[i] : 1e-16;
    rtol_[i] = 0.1 * std::pow(r, exponent);
    atol_[i] = rtol_[i] * (request_.atol[i] / r);
  }
  // The estimate has order s and the method 2s - 1: Newton's error must stay below what
  // the method's order leaves, so the stopping tolerance tightens with the order
  // (rtol'^(2s/(s+1) - 1), RADAU's FNEWT; with sqrt(rtol') at 7 stages the iteration
  // stopped ~50x early at 1e-10 and the order-13 steps lost the accuracy they were taken for).
  newton_tolerance_ = daekit::newton_tolerance(rtol_.minCoeff(), 0.03, 1.0 / exponent - 1.0);
}

void RadauErrorScale::update(const Eigen::VectorXd& y, double h) {
  const double ah = std::abs(h);
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    scal_[i] = atol_[i] + rtol_[i] * std::abs(y[i]);
    if (index_[i] == 2) scal_[i] /= ah;
    if (index_[i] == 3) scal_[i] /= ah * ah;
  }
}

double RadauErrorScale::norm(const Eigen::VectorXd& v, Eigen::Ref<const Eigen::VectorXd> scal) const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (controlled_[i]) sum += (v[i] / scal[i]) * (v[i] / scal[i]);
  return std::sqrt(sum / std::max(1, controlled_count_));
}

}  // namespace daekit
