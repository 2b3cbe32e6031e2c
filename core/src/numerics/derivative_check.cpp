#include "daekit/numerics/derivative_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

namespace {
// Relative size of the difference increment along d.
constexpr double relative_increment = 1e-6;
// A row disagrees when |J d - D| exceeds this share of |J| |d| + |D| ...
constexpr double relative_tolerance = 1e-3;
// ... plus what rounding in f makes of D (the size of f's terms in ulps).
constexpr double rounding_ulps = 1e3;

// SplitMix64: a fixed sequence, so a run is reproducible.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string number(double v) {
  std::ostringstream m;
  m.precision(6);
  m << v;
  return m.str();
}
}  // namespace

void DerivativeCheck::setup(ProblemView& problem, const SolveRequest& request) {
  problem_ = &problem;
  const Eigen::Index n = problem.size();
  direction_.setZero(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    // A component's scale: its value, or where it is near zero the size its tolerances
    // deem significant (atol / rtol).
    const double rtol = std::max(request.rtol[j], std::numeric_limits<double>::epsilon());
    // (A stepper driven directly, as the order tests do, may leave y0 out of its request.)
    const double y0 = request.y0.size() == n ? std::abs(request.y0[j]) : 0.0;
    const double scale = std::max({y0, request.atol[j] / rtol, 1e-300});
    direction_[j] = relative_increment * scale;
  }
  for (auto* v : {&d_part_, &d_whole_, &y_work_, &f_plus_, &f_minus_, &jd_, &diff_, &f_scale_, &terms_, &rounding_}) v->setZero(n);
  jacobians_ = 0;
  events_seen_ = problem.stats().nevents;
  seed_ = 0x64616b6974ull;
  finding_.clear();
}

bool DerivativeCheck::due() {
  ++jacobians_;
  const bool after_event = problem_->stats().nevents != events_seen_;
  events_seen_ = problem_->stats().nevents;
  // 1, 4, 16, 64, ...: a power of two with its one bit at an even place.
  const bool power_of_four = (jacobians_ & (jacobians_ - 1)) == 0 && (jacobians_ & 0x5555555555555555ll) != 0;
  return after_event || power_of_four;
}

Eval DerivativeCheck::difference(double t, const Eigen::VectorXd& y, Eigen::Index first, Eigen::Index last,
                                 Eigen::VectorXd& out, Eigen::VectorXd& f_scale) {
  // (f(y + d) - f(y - d)) / 2 = J d + O(|d|^3): at a relative increment of 1e-6 the
  // remainder is far below the test's 1e-3 but for models of extreme curvature.
  y_work_ = y;
  y_work_.segment(first, last - first) += d_part_.segment(first, last - first);
  if (const Eval e = problem_->rhs(t, y_work_, f_plus_); e != Eval::ok) return e;
  y_work_ = y;
  y_work_.segment(first, last - first) -= d_part_.segment(first, last - first);
  if (const Eval e = problem_->rhs(t, y_work_, f_minus_); e != Eval::ok) return e;
  out = 0.5 * (f_plus_ - f_minus_);
  f_scale = f_plus_.cwiseAbs().cwiseMax(f_minus_.cwiseAbs());
  return Eval::ok;
}

Eigen::Index DerivativeCheck::worst_row(const Eigen::VectorXd& jd, const Eigen::VectorXd& d_diff,
                                        const Eigen::VectorXd& terms, const Eigen::VectorXd& rounding) {
  Eigen::Index worst = -1;
  double worst_ratio = 1.0;
  for (Eigen::Index i = 0; i < jd.size(); ++i) {
    const double allowed = relative_tolerance * (terms[i] + std::abs(d_diff[i])) +
                           rounding_ulps * std::numeric_limits<double>::epsilon() * rounding[i];
    const double ratio = std::abs(jd[i] - d_diff[i]) / allowed;
    if (ratio > worst_ratio || !std::isfinite(jd[i])) {
      worst_ratio = std::isfinite(jd[i]) ? ratio : std::numeric_limits<double>::infinity();
      worst = i;
    }
  }
  return worst;
}

Eval DerivativeCheck::compare(double t, const Eigen::VectorXd& y, const Product& jd, const Product& abs_jd,
                              const Entry& entry, bool* agrees) {
  *agrees = true;
  const Eigen::Index n = y.size();
  for (Eigen::Index j = 0; j < n; ++j) {
    const double magnitude = std::max(direction_[j], relative_increment * std::abs(y[j]));
    d_part_[j] = (next_random(seed_) & 1u) ? magnitude : -magnitude;
  }
  ++problem_->stats().nderivative_checks;
  // A model that cannot be evaluated around y (a domain that ends there) says nothing.
  if (difference(t, y, 0, n, diff_, f_scale_) != Eval::ok) return Eval::ok;
  jd(d_part_, jd_);
  d_whole_ = d_part_.cwiseAbs();
  abs_jd(d_whole_, terms_);
  y_work_ = y.cwiseAbs();
  abs_jd(y_work_, rounding_);
  rounding_ += f_scale_;
  const Eigen::Index row = worst_row(jd_, diff_, terms_, rounding_);
  if (row < 0) return Eval::ok;
  *agrees = false;
  ++problem_->stats().nderivative_mismatches;
  Eigen::Index column = -1;
  std::ostringstream m;
  m << "the supplied Jacobian disagrees with differences of f at t=" << number(t) << ": in row " << row + 1;
  if (locate_column(t, y, row, jd, &column) == Eval::ok && column >= 0) {
    // The located entry by differences, for the message.
    const double d_column = d_part_[column];
    d_part_.setZero();
    d_part_[column] = d_column;
    if (difference(t, y, column, column + 1, diff_, f_scale_) == Eval::ok)
      m << ", column " << column + 1 << ": supplied " << number(entry(row, column)) << ", differences "
        << number(diff_[row] / d_column);
  }
  finding_ = m.str();
  return Eval::ok;
}

Eval DerivativeCheck::row_error(double t, const Eigen::VectorXd& y, Eigen::Index row, Eigen::Index first,
                                Eigen::Index last, const Product& jd, double* error) {
  // The direction's part on [first, last); the whole is kept in d_whole_ meanwhile.
  d_whole_ = d_part_;
  d_part_.setZero();
  d_part_.segment(first, last - first) = d_whole_.segment(first, last - first);
  const Eval e = difference(t, y, first, last, diff_, f_scale_);
  if (e == Eval::ok) {
    jd(d_part_, jd_);
    *error = jd_[row] - diff_[row];
  }
  d_part_ = d_whole_;
  return e;
}

Eval DerivativeCheck::locate_column(double t, const Eigen::VectorXd& y, Eigen::Index row, const Product& jd,
                                    Eigen::Index* column) {
  Eigen::Index first = 0, last = y.size();
  double error = 0.0;
  if (const Eval e = row_error(t, y, row, first, last, jd, &error); e != Eval::ok) return e;
  // The row's error is the sum of its columns' errors times d: halve the support towards
  // the larger part until one column is left.
  while (last - first > 1) {
    const Eigen::Index middle = first + (last - first) / 2;
    double left = 0.0;
    if (const Eval e = row_error(t, y, row, first, middle, jd, &left); e != Eval::ok) return e;
    if (std::abs(left) >= std::abs(error - left)) {
      last = middle;
      error = left;
    } else {
      first = middle;
      error -= left;
    }
  }
  *column = first;
  return Eval::ok;
}

}  // namespace daekit
