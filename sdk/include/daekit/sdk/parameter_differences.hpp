// df/dp (or dF/dp) by central differences in each parameter, for a problem that gives no
// derivative of its own: the SDK knows p, the solvers behind the C boundary do not.
// Increments delta_j = eps^(1/3) max(|p_j|, scale_j, 1e-8 when both are zero) balance
// truncation against round-off, so each column is good to about eps^(2/3) relative
// (central differences of tight solves agree with sensitivities built on them to the
// digits the tests ask).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "daekit/sdk/problem.hpp"

namespace daekit::sdk {

// The increment of a central difference in a parameter of value `value` and declared
// typical magnitude `scale` (0: none): eps^(1/3) of the larger, 1e-8 when both are 0.
inline double parameter_increment(double value, double scale) {
  double magnitude = std::max(std::abs(value), scale);
  if (magnitude == 0.0) magnitude = 1e-8;
  return std::cbrt(std::numeric_limits<double>::epsilon()) * magnitude;
}

// evaluate(out) computes the function (f or F) at the problem's current p into a vector
// of out.rows() entries. p is back to its value when this returns, whatever happened.
template <class Evaluate>
Eval central_differences_in_p(Problem& problem, Evaluate evaluate, MatrixView out) {
  const std::vector<double> p = problem.p();
  const auto& declared = problem.info().parameters;
  Eigen::VectorXd plus(out.rows()), minus(out.rows());
  std::vector<double> moved = p;
  Eval result = Eval::ok;
  for (std::size_t j = 0; j < p.size() && result == Eval::ok; ++j) {
    const double delta = parameter_increment(p[j], declared[j].scale);
    const double up = p[j] + delta, down = p[j] - delta;
    moved[j] = up;
    result = problem.set_parameters(moved);
    if (result == Eval::ok) result = evaluate(Vector(plus.data(), plus.size()));
    moved[j] = down;
    if (result == Eval::ok) result = problem.set_parameters(moved);
    if (result == Eval::ok) result = evaluate(Vector(minus.data(), minus.size()));
    moved[j] = p[j];
    if (result == Eval::ok) out.col(static_cast<Eigen::Index>(j)) = (plus - minus) / (up - down);
  }
  const Eval restored = problem.set_parameters(p);
  return result != Eval::ok ? result : restored;
}

}  // namespace daekit::sdk
