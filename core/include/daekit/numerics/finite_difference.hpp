// The increment of a forward difference in one component. sqrt(eps) times the
// component's size balances truncation against round-off; where the component
// is tiny (Robertson's y2 ~ 1e-13) its tolerance scale atol + rtol |y| stands in
// for the size, as in SUNDIALS, rather than a fixed floor such as RADAU5's
// sqrt(eps * 1e-5): a fixed floor can be orders of magnitude larger than the
// component itself and ruin the derivative of a nonlinear term.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

inline double fd_increment(double value, double tolerance_scale) {
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  const double size = std::max(std::abs(value), tolerance_scale);
  return size > 0.0 ? root_eps * size : root_eps * 1e-5;
}

}  // namespace daekit
