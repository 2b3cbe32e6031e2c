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
      codes_(constrained_components(problem.info()) > 0 ? problem.constraints() : nullptr) {}

ConstraintGuard::Verdict ConstraintGuard::check(const Eigen::VectorXd& y_start, Eigen::VectorXd& y_end, double* shrink,
                                                std::string* why) const {
  if (!codes_) return Verdict::satisfied;
  bool projected = false, violated = false;
  double fraction = 1.0;
  Eigen::Index worst = -1;
  for (Eigen::Index i = 0; i < y_end.size(); ++i) {
    const std::int8_t code = codes_[i];
    const double v = violation(code, y_end[i]);
    if (!(v > 0.0) && !std::isnan(y_end[i])) continue;
    const double tolerance = request_.atol[i] + request_.rtol[i] * std::abs(y_start[i]);
    const bool strict = code == 2 || code == -2;
    if (!strict && v <= tolerance) {
      y_end[i] = 0.0;
      projected = true;
      continue;
    }
    violated = true;
    // Where the straight line from the start reaches the bound, as a fraction of the step.
    const double span = std::abs(y_start[i] - y_end[i]);
    const double f = span > 0.0 ? std::abs(y_start[i]) / span : 0.0;
    if (worst < 0 || f < fraction) {
      fraction = f;
      worst = i;
    }
  }
  if (!violated) return projected ? Verdict::projected : Verdict::satisfied;
  *shrink = std::clamp(0.9 * fraction, min_shrink, max_shrink);
  std::ostringstream m;
  m << "the step ended outside the constraint of component " << problem_.component(worst) << " "
    << meaning(codes_[worst]) << " (value " << y_end[worst] << ")";
  *why = m.str();
  return Verdict::violated;
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
