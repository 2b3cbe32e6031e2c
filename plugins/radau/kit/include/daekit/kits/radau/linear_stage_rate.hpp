// RADAU's rate test on a linear stage iteration (the sensitivities' in radau5 and
// radauiia): the contraction theta from successive corrections, and the iteration's end
// when faccon |correction| = theta / (1 - theta) |correction| is below the tolerance.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

class LinearStageRate {
 public:
  // After the correction of iteration `iteration` (1, 2, ...) of weighted size `size`:
  // true when the iteration diverges (or its size is not finite), and then it must stop.
  bool diverges(int iteration, double size) {
    if (!std::isfinite(size)) return true;
    if (iteration > 1) {
      const double thq = size / last_;
      const double theta = iteration == 2 ? thq : std::sqrt(thq * thq_old_);
      thq_old_ = thq;
      if (theta >= 0.99) return true;
      faccon_ = theta / (1.0 - theta);
    }
    last_ = std::max(size, std::numeric_limits<double>::epsilon());
    size_ = size;
    return false;
  }
  // After the correction is applied: whether what remains of the iteration is below tolerance.
  bool converged(double tolerance) const { return faccon_ * size_ <= tolerance; }

 private:
  double last_ = 0.0, thq_old_ = 0.0, faccon_ = 1.0, size_ = 0.0;
};

}  // namespace daekit
