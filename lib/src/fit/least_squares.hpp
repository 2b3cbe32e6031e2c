// One run of the optimiser (Ceres Solver's trust-region least squares) from one start:
// the estimates as Ceres' parameters (log of the value for log-scale ones), their bounds,
// the model's residuals and Jacobian, and a failed solve as a rejected step.
#pragma once

#include <string>
#include <vector>

#include "daekit/fit/fit.hpp"
#include "fit_model.hpp"

namespace daekit::fit {

struct MinimizerOutcome {
  std::vector<double> values;  // the best point reached
  std::string status, message; // FitResult::status's words
  int iterations = 0;
  double cost = 0;             // chi^2 / 2 there
};

MinimizerOutcome minimize(FitModel& model, const std::vector<double>& start, const FitSettings& settings);
// The same with the cost's gradient alone (the model's adjoint) and Ceres' L-BFGS line
// search, which takes no bounds.
MinimizerOutcome minimize_by_gradient(FitModel& model, const std::vector<double>& start, const FitSettings& settings);

// The optimiser's coordinate of a value, and back.
double to_coordinate(const ResolvedEstimate& e, double value);
double from_coordinate(const ResolvedEstimate& e, double x);

}  // namespace daekit::fit
