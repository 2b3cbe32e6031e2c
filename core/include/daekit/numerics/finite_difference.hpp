// The increment of a forward difference in one component: Hairer's
// sqrt(eps * max(|y|, floor)) balances truncation against round-off, with the
// component's tolerance scale atol + rtol |y| as the floor instead of RADAU5's
// fixed 1e-5. The fixed floor gives Robertson's y2 (~1e-13) an increment four
// hundred times the component itself and ruins df3/dy2 = 6e7 y2; a floor of
// sqrt(eps) * atol alone (tried first) is so small that in an algebraic equation
// such as y1 + y2 + y3 - 1 = 0 the perturbation of y3 drowns in the round-off of
// the O(1) terms (the iteration matrix came out singular).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

inline double fd_increment(double value, double tolerance_scale) {
  const double size = std::max(std::abs(value), tolerance_scale);
  const double eps = std::numeric_limits<double>::epsilon();
  return size > 0.0 ? std::sqrt(eps * size) : std::sqrt(eps * 1e-5);
}

}  // namespace daekit
