#include "daekit/numerics/error_norm.hpp"

#include <algorithm>
#include <cmath>

#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

ErrorNorm::ErrorNorm(const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol, std::vector<int> index,
                     std::vector<bool> included, bool index_scaling)
    : rtol_(rtol), atol_(atol), index_(std::move(index)), included_(std::move(included)),
      index_scaling_(index_scaling) {
  count_ = std::count(included_.begin(), included_.end(), true);
  const auto n = static_cast<Eigen::Index>(included_.size());
  const bool index_one = !index_scaling_ || std::all_of(index_.begin(), index_.end(), [](int k) { return k <= 1; });
  uniform_ = n > 0 && count_ == n && index_one && (rtol_.array() == rtol_[0]).all() && (atol_.array() == atol_[0]).all();
  if (uniform_) {
    // One entry each is all a uniform norm reads: the per-component arrays were 4 of the 69
    // doubles per unknown of a Krylov run at 2 10^6 unknowns (two norms per solver).
    rtol_.conservativeResize(1);
    atol_.conservativeResize(1);
    index_.clear();
    index_.shrink_to_fit();
    included_.clear();
    included_.shrink_to_fit();
  }
}

ErrorNorm ErrorNorm::for_request(const SolveRequest& request, const ProblemView& problem, bool error_test) {
  const Eigen::Index n = problem.size();
  std::vector<int> index(n);
  std::vector<bool> included(n, true);
  for (Eigen::Index i = 0; i < n; ++i) {
    index[i] = std::max(1, problem.index_of(i));
    if (error_test && request.suppress_algebraic && problem.is_algebraic(i)) included[i] = false;
  }
  return ErrorNorm(request.rtol, request.atol, std::move(index), std::move(included), request.index_scaling);
}

namespace {
// e over its tolerance atol + rtol max(|y_old|, |y_new|).
double relative(double e, double atol, double rtol, double y_old, double y_new) {
  return e / (atol + rtol * std::max(std::abs(y_old), std::abs(y_new)));
}
}  // namespace

double ErrorNorm::scaled(Eigen::Index i, double e, double y_old, double y_new, double h) const {
  if (uniform_) return relative(e, atol_[0], rtol_[0], y_old, y_new);
  double v = relative(e, atol_[i], rtol_[i], y_old, y_new);
  if (index_scaling_ && index_[i] > 1) v *= (index_[i] == 2 ? h : std::pow(h, index_[i] - 1));
  return v;
}

double ErrorNorm::rms(const Eigen::VectorXd& err, const Eigen::VectorXd& y_old, const Eigen::VectorXd& y_new,
                      double h) const {
  if (count_ == 0) return 0.0;
  double sum = 0.0;
  if (uniform_) {
    // scaled() without reading the tolerance, index and inclusion arrays: at 10^6 unknowns
    // the norms are passes over memory, and two of five arrays per pass is what they cost
    // (docs/benchmarks/scaling.md).
    const double atol = atol_[0], rtol = rtol_[0];
    for (Eigen::Index i = 0; i < err.size(); ++i) {
      const double v = relative(err[i], atol, rtol, y_old[i], y_new[i]);
      sum += v * v;
    }
    return std::sqrt(sum / static_cast<double>(count_));
  }
  const double ah = std::abs(h);
  for (Eigen::Index i = 0; i < err.size(); ++i) {
    if (!included_[i]) continue;
    double v = scaled(i, err[i], y_old[i], y_new[i], ah);
    sum += v * v;
  }
  return std::sqrt(sum / static_cast<double>(count_));
}

double ErrorNorm::max(const Eigen::VectorXd& err, const Eigen::VectorXd& y_old, const Eigen::VectorXd& y_new,
                      double h) const {
  double m = 0.0;
  const double ah = std::abs(h);
  for (Eigen::Index i = 0; i < err.size(); ++i)
    if (uniform_ || included_[i]) m = std::max(m, std::abs(scaled(i, err[i], y_old[i], y_new[i], ah)));
  return m;
}

void ErrorNorm::weights(const Eigen::VectorXd& y, Eigen::VectorXd& w) const {
  w.resize(y.size());
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const Eigen::Index k = uniform_ ? 0 : i;
    w[i] = 1.0 / (atol_[k] + rtol_[k] * std::abs(y[i]));
  }
}

}  // namespace daekit
