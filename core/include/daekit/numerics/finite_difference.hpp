// The increment of a forward difference in one component: Hairer's
// sqrt(eps * max(|y|, floor)) balances truncation against round-off, with the
// component's tolerance scale atol + rtol |y| as the floor instead of RADAU5's
// fixed 1e-5. The fixed floor gives Robertson's y2 (~1e-13) an increment four
// hundred times the component itself and ruins df3/dy2 = 6e7 y2; a floor of
// sqrt(eps) * atol alone (tried first) is so small that in an algebraic equation
// such as y1 + y2 + y3 - 1 = 0 the perturbation of y3 drowns in the round-off of
// the O(1) terms (the iteration matrix came out singular).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/eigen_abi.hpp"
#include "daekit/per_component.hpp"

namespace daekit {

inline double fd_increment(double value, double tolerance_scale) {
  const double size = std::max(std::abs(value), tolerance_scale);
  const double eps = std::numeric_limits<double>::epsilon();
  return size > 0.0 ? std::sqrt(eps * size) : std::sqrt(eps * 1e-5);
}

// A component's scale for increments: its size, or the size below which the tolerances
// treat it as noise (atol / rtol), whichever is larger.
inline double noise_scale(double value, double rtol, double atol) {
  return std::abs(value) + (rtol > 0.0 ? atol / rtol : atol) + 1e-300;
}

// The largest step along v that moves no component of y by more than `fraction` of its
// scale (0 when v is 0): eps^(1/3), the default, for central directional differences,
// sqrt(eps) for forward ones.
inline double directional_increment(const Eigen::Ref<const Eigen::VectorXd>& y,
                                    const Eigen::Ref<const Eigen::VectorXd>& v, const PerComponent& rtol,
                                    const PerComponent& atol,
                                    double fraction = std::cbrt(std::numeric_limits<double>::epsilon())) {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    largest = std::max(largest, std::abs(v[i]) / noise_scale(y[i], rtol[i], atol[i]));
  return largest > 0.0 ? fraction / largest : 0.0;
}

}  // namespace daekit
