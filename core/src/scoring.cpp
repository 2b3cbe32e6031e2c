#include "daekit/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/abi.h"

namespace daekit {

namespace {

// -log10 of an error, an exact match counting as 1e-16 (report.f's cap).
double digits(double error) { return -std::log10(error == 0.0 ? 1e-16 : error); }

// scd, mescd and the scd by index from the maxima.
Accuracy with_digits(Accuracy a) {
  a.scd = digits(a.max_rel_error);
  a.mescd = digits(a.max_mixed_error);
  for (int k = 0; k < 3; ++k)
    a.scd_by_index[k] = a.max_rel_error_by_index[k] < 0.0 ? std::numeric_limits<double>::quiet_NaN()
                                                          : digits(a.max_rel_error_by_index[k]);
  return a;
}

}  // namespace

Accuracy score(const Eigen::VectorXd& y, const Eigen::VectorXd& yref, const std::uint8_t* scored,
               const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol, const std::uint8_t* index) {
  Accuracy a;
  double rel = 0.0, mixed = 0.0;
  std::array<double, 3> rel_by_index{-1.0, -1.0, -1.0};  // < 0: no component of that index
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const double err = std::abs(y[i] - yref[i]);
    a.max_abs_error = std::max(a.max_abs_error, err);
    const double r = rtol[i] > 0.0 ? rtol[i] : 1.0;
    mixed = std::max(mixed, err / (atol[i] / r + std::abs(yref[i])));
    if (scored && scored[i] == DK_SCORED_NO) continue;
    double e = err;
    if (!scored || scored[i] != DK_SCORED_ABSOLUTE) {
      if (std::abs(yref[i]) < 1e-200) continue;
      e = err / std::abs(yref[i]);
    }
    rel = std::max(rel, e);
    const int k = index ? std::clamp<int>(index[i], 1, 3) - 1 : 0;
    rel_by_index[k] = std::max(rel_by_index[k], e);
    ++a.scored_components;
  }
  // NaN must not score as accurate.
  if (!y.allFinite()) {
    rel = mixed = std::numeric_limits<double>::infinity();
    for (double& r : rel_by_index)
      if (r >= 0.0) r = std::numeric_limits<double>::infinity();
  }
  a.max_rel_error = rel;
  a.max_mixed_error = mixed;
  a.max_rel_error_by_index = rel_by_index;
  return with_digits(a);
}

Accuracy merged(const Accuracy& a, const Accuracy& b) {
  Accuracy m;
  m.max_abs_error = std::max(a.max_abs_error, b.max_abs_error);
  m.max_rel_error = std::max(a.max_rel_error, b.max_rel_error);
  m.max_mixed_error = std::max(a.max_mixed_error, b.max_mixed_error);
  m.scored_components = a.scored_components + b.scored_components;
  for (int k = 0; k < 3; ++k) m.max_rel_error_by_index[k] = std::max(a.max_rel_error_by_index[k], b.max_rel_error_by_index[k]);
  return with_digits(m);
}

}  // namespace daekit
