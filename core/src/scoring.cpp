#include "daekit/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/abi.h"

namespace daekit {

Accuracy score(const Eigen::VectorXd& y, const Eigen::VectorXd& yref, const std::uint8_t* scored,
               const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol) {
  Accuracy a;
  double rel = 0.0, mixed = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double err = std::abs(y[i] - yref[i]);
    a.max_abs_error = std::max(a.max_abs_error, err);
    const double r = rtol[i] > 0.0 ? rtol[i] : 1.0;
    mixed = std::max(mixed, err / (atol[i] / r + std::abs(yref[i])));
    if (scored && scored[i] == DK_SCORED_NO) continue;
    if (scored && scored[i] == DK_SCORED_ABSOLUTE) {
      rel = std::max(rel, err);
    } else {
      if (std::abs(yref[i]) < 1e-200) continue;
      rel = std::max(rel, err / std::abs(yref[i]));
    }
    ++a.scored_components;
  }
  // NaN must not score as accurate.
  if (!y.allFinite()) rel = mixed = std::numeric_limits<double>::infinity();
  a.max_rel_error = rel;
  a.scd = -std::log10(rel == 0.0 ? 1e-16 : rel);
  a.mescd = -std::log10(mixed == 0.0 ? 1e-16 : mixed);
  return a;
}

}  // namespace daekit
