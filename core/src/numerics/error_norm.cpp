#include "daekit/numerics/error_norm.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

ErrorNorm::ErrorNorm(const PerComponent& rtol, const PerComponent& atol, std::vector<int> index,
                     std::vector<bool> included, bool index_scaling)
    : rtol_(rtol), atol_(atol) {
  count_ = std::count(included.begin(), included.end(), true);
  const auto n = static_cast<Eigen::Index>(included.size());
  const bool index_one = !index_scaling || std::all_of(index.begin(), index.end(), [](int k) { return k <= 1; });
  // Tolerances that are one number each are stored once (PerComponent): the per-component
  // arrays were 4 of the 69 doubles per unknown of a Krylov run at 2 10^6 unknowns.
  uniform_ = n > 0 && count_ == n && index_one && rtol_.uniform() && atol_.uniform();
  if (uniform_) return;
  power_.resize(included.size());
  for (std::size_t i = 0; i < included.size(); ++i) {
    const int k = index_scaling ? std::max(index[i], 1) - 1 : 0;
    if (k > kMaxPower) throw std::invalid_argument("ErrorNorm: DAE index above " + std::to_string(kMaxPower + 1));
    power_[i] = static_cast<signed char>(included[i] ? k : -1);
    if (included[i]) max_power_ = std::max(max_power_, k);
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

ErrorNorm::Powers ErrorNorm::powers_of(double h) const {
  Powers p{};
  p[0] = 1.0;
  p[1] = h;
  for (int k = 2; k <= max_power_; ++k) p[static_cast<std::size_t>(k)] = std::pow(h, static_cast<double>(k));
  return p;
}

double ErrorNorm::rms(const Eigen::VectorXd& err, const Eigen::VectorXd& y_old, const Eigen::VectorXd& y_new,
                      double h) const {
  if (count_ == 0) return 0.0;
  double sum = 0.0;
  if (uniform_) {
    // No tolerance, power or inclusion arrays to read: at 10^6 unknowns the norms are
    // passes over memory, and two of five arrays per pass is what they cost
    // (docs/benchmarks/scaling.md).
    const double atol = atol_[0], rtol = rtol_[0];
    for (Eigen::Index i = 0; i < err.size(); ++i) {
      const double v = relative(err[i], atol, rtol, y_old[i], y_new[i]);
      sum += v * v;
    }
    return std::sqrt(sum / static_cast<double>(count_));
  }
  // One table of |h|^k per call and a byte per component: the index scaling costs no call
  // and no pow in the loop (it was a quarter of bdf's work on the index-2 crank).
  const Powers hk = powers_of(std::abs(h));
  for (Eigen::Index i = 0; i < err.size(); ++i) {
    const int k = power_[static_cast<std::size_t>(i)];
    if (k < 0) continue;
    const double v = relative(err[i], atol_[i], rtol_[i], y_old[i], y_new[i]) * hk[static_cast<std::size_t>(k)];
    sum += v * v;
  }
  return std::sqrt(sum / static_cast<double>(count_));
}

double ErrorNorm::max(const Eigen::VectorXd& err, const Eigen::VectorXd& y_old, const Eigen::VectorXd& y_new,
                      double h) const {
  double m = 0.0;
  if (uniform_) {
    for (Eigen::Index i = 0; i < err.size(); ++i)
      m = std::max(m, std::abs(relative(err[i], atol_[0], rtol_[0], y_old[i], y_new[i])));
    return m;
  }
  const Powers hk = powers_of(std::abs(h));
  for (Eigen::Index i = 0; i < err.size(); ++i) {
    const int k = power_[static_cast<std::size_t>(i)];
    if (k >= 0)
      m = std::max(m, std::abs(relative(err[i], atol_[i], rtol_[i], y_old[i], y_new[i]) * hk[static_cast<std::size_t>(k)]));
  }
  return m;
}

void ErrorNorm::weights(const Eigen::VectorXd& y, Eigen::VectorXd& w) const {
  w.resize(y.size());
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    w[i] = 1.0 / (atol_[i] + rtol_[i] * std::abs(y[i]));
  }
}

}  // namespace daekit
