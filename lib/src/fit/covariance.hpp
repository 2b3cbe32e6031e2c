// The estimates' covariance (J^T J)^-1 from the weighted residuals' Jacobian at the
// optimum, their standard errors and confidence intervals, or why there are none.
#pragma once

#include <string>
#include <vector>

#include "fit_model.hpp"

namespace daekit::fit {

struct Uncertainty {
  std::vector<double> covariance, standard_errors, lower, upper;  // empty when singular
  std::string identifiability;  // "" when J^T J is regular; else what is at fault
};

// jacobian: row-major m x ns, d r / d value at `values`; confidence in (0, 1).
Uncertainty uncertainty(const std::vector<ResolvedEstimate>& estimates, const std::vector<double>& values,
                        const std::vector<double>& jacobian, std::size_t m, double confidence);

}  // namespace daekit::fit
