#include "daekit/numerics/constraint_guard.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

namespace {

// How far v lies on the wrong side of constraint `code` (> 0 when violated; a strict
// constraint is violated at the bound too, reported as the smallest positive amount).
double violation(std::int8_t code, double v) {
  switch (code) {
    case 1: return -v;
    case -1: return v;
    case 2: return v > 0.0 ? -v : std::max(-v, std::numeric_limits<double>::denorm_min());
    case -2: return v < 0.0 ? v : std::max(v, std::numeric_limits<double>::denorm_min());
    default: return -1.0;
  }
}

const char* meaning(std::int8_t code) {
  switch (code) {
    case 1: return ">= 0";
    case 2: return "> 0";
    case -1: return "<= 0";
    case -2: return "< 0";
    default: return "";
  }
}

// Shortest of these limits the next try to: never below a tenth, never above 0.9 of h.
constexpr double min_shrink = 0.1, max_shrink = 0.9;

}  // namespace

ConstraintGuard::ConstraintGuard(const ProblemView& problem, const SolveRequest& request)
    : problem_(problem),
      request_(request),
      codes_(constrained_components(problem.info()) > 0 ? problem.constraints() : nullptr) {
  if (codes_) projected_.setZero(problem.size());
}

ConstraintGuard::Verdict ConstraintGuard::check(const Eigen::VectorXd& y_start, Eigen::VectorXd& y_end, double* shrink,
                                                std::string* why, bool project_rounding) {
  if (!codes_) return Verdict::satisfied;
  // An algebraic component is computed from the others (Robertson's y3 = 1 - y1 - y2): its
  // round-off is that of the largest of them, not of its own size.
  const double largest = y_end.lpNorm<Eigen::Infinity>();
  auto rounding_of = [&](Eigen::Index i) {
    return rounding(y_start[i], y_end[i]) +
           (problem_.is_algebraic(i) ? 16.0 * std::numeric_limits<double>::epsilon() * largest : 0.0);
  };
  bool violated = false;
  double fraction = 1.0;
  Eigen::Index worst = -1;
  // First the verdict, so a rejected step charges nothing to the budget.
  for (Eigen::Index i = 0; i < y_end.size(); ++i) {
    const double v = violation(codes_[i], y_end[i]);
    if (!(v > 0.0) && !std::isnan(y_end[i])) continue;
    if (projectable(i, v, y_start[i], y_end[i], rounding_of(i))) continue;
    violated = true;
    // Where the straight line from the start reaches the bound, as a fraction of the step.
    const double span = std::abs(y_start[i] - y_end[i]);
    const double f = span > 0.0 ? std::abs(y_start[i]) / span : 0.0;
    if (worst < 0 || f < fraction) {
      fraction = f;
      worst = i;
    }
  }
  if (violated) {
    *shrink = std::clamp(0.9 * fraction, min_shrink, max_shrink);
    std::ostringstream m;
    m << "the step ended outside the constraint of component " << problem_.component(worst) << " "
      << meaning(codes_[worst]) << " (value " << y_end[worst] << ")";
    if (std::abs(y_end[worst]) <= request_.atol[worst] + request_.rtol[worst] * std::abs(y_start[worst]))
      m << "; the projections onto its bound have used up its tolerance " << request_.atol[worst];
    *why = m.str();
    return Verdict::violated;
  }
  bool projected = false;
  for (Eigen::Index i = 0; i < y_end.size(); ++i) {
    const double v = violation(codes_[i], y_end[i]);
    if (!(v > 0.0)) continue;
    const bool charged = v > rounding_of(i);
    if (!charged && !project_rounding) continue;
    if (charged) projected_[i] += v;
    y_end[i] = 0.0;
    projected = true;
  }
  return projected ? Verdict::projected : Verdict::satisfied;
}

double ConstraintGuard::rounding(double start, double end) {
  return 16.0 * std::numeric_limits<double>::epsilon() * (std::abs(start) + std::abs(end - start));
}

bool ConstraintGuard::projectable(Eigen::Index i, double v, double start, double end, double round_off) const {
  const std::int8_t code = codes_[i];
  if (code == 2 || code == -2 || std::isnan(end)) return false;  // strict: never projected
  if (v > std::max(request_.atol[i] + request_.rtol[i] * std::abs(start), round_off)) return false;
  return v <= round_off || projected_[i] + v <= request_.atol[i];
}

bool ConstraintGuard::satisfied(const Eigen::VectorXd& y, std::string* why) const {
  if (!codes_) return true;
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    if (violation(codes_[i], y[i]) > 0.0) {
      std::ostringstream m;
      m << "the initial value of component " << problem_.component(i) << " = " << y[i] << " violates its constraint " << meaning(codes_[i]);
      *why = m.str();
      return false;
    }
  }
  return true;
}

}  // namespace daekit
