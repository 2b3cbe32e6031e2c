#include "least_squares.hpp"

#include <ceres/ceres.h>

#include <cmath>
#include <limits>

namespace daekit::fit {

double to_coordinate(const ResolvedEstimate& e, double value) { return e.spec.log_scale ? std::log(value) : value; }
double from_coordinate(const ResolvedEstimate& e, double x) { return e.spec.log_scale ? std::exp(x) : x; }

namespace {

// Residuals and Jacobian of the model in the optimiser's coordinates.
class FitCost final : public ceres::CostFunction {
 public:
  explicit FitCost(FitModel& model) : model_(model) {
    set_num_residuals(static_cast<int>(model.residual_count()));
    mutable_parameter_block_sizes()->push_back(static_cast<std::int32_t>(model.estimate_count()));
  }

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    const auto& estimates = model_.estimates();
    const std::size_t ns = estimates.size(), m = model_.residual_count();
    std::vector<double> values(ns);
    for (std::size_t k = 0; k < ns; ++k) {
      values[k] = from_coordinate(estimates[k], parameters[0][k]);
      if (!std::isfinite(values[k])) return false;
    }
    if (!model_.evaluate(values)) return false;
    std::copy(model_.residuals().begin(), model_.residuals().end(), residuals);
    if (jacobians && jacobians[0])
      for (std::size_t j = 0; j < m; ++j)
        for (std::size_t k = 0; k < ns; ++k)  // d value / d log(value) = value
          jacobians[0][j * ns + k] = model_.jacobian()[j * ns + k] * (estimates[k].spec.log_scale ? values[k] : 1.0);
    return true;
  }

 private:
  FitModel& model_;
};

// Ends the optimisation at the next iteration once the caller asks.
class InterruptCheck final : public ceres::IterationCallback {
 public:
  explicit InterruptCheck(const std::atomic<bool>* flag) : flag_(flag) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary&) override {
    return flag_ && flag_->load() ? ceres::SOLVER_ABORT : ceres::SOLVER_CONTINUE;
  }

 private:
  const std::atomic<bool>* flag_;
};

// The cost and its gradient in the optimiser's coordinates, from the model's adjoint.
class FitCostByGradient final : public ceres::FirstOrderFunction {
 public:
  explicit FitCostByGradient(FitModel& model) : model_(model) {}
  int NumParameters() const override { return static_cast<int>(model_.estimate_count()); }
  bool Evaluate(const double* x, double* cost, double* gradient) const override {
    const auto& estimates = model_.estimates();
    std::vector<double> values(estimates.size()), g;
    for (std::size_t k = 0; k < values.size(); ++k) {
      values[k] = from_coordinate(estimates[k], x[k]);
      if (!std::isfinite(values[k])) return false;
    }
    if (!model_.evaluate_gradient(values, *cost, g)) return false;
    if (gradient)
      for (std::size_t k = 0; k < values.size(); ++k) gradient[k] = g[k] * (estimates[k].spec.log_scale ? values[k] : 1.0);
    return true;
  }

 private:
  FitModel& model_;
};

std::string status_of(ceres::TerminationType type, const FitSettings& settings) {
  switch (type) {
    case ceres::CONVERGENCE: return "success";
    case ceres::NO_CONVERGENCE: return "not_converged";
    case ceres::USER_FAILURE: return "interrupted";
    default: return settings.interrupt && settings.interrupt->load() ? "interrupted" : "failure";
  }
}

// The estimates at the optimiser's coordinates x.
std::vector<double> coordinates(const std::vector<ResolvedEstimate>& estimates, const std::vector<double>& values) {
  std::vector<double> x(estimates.size());
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = to_coordinate(estimates[k], values[k]);
  return x;
}

// Where either of Ceres' solvers ended, as the fit reports it.
template <class Summary>
MinimizerOutcome outcome_of(const FitModel& model, const std::vector<double>& x, const Summary& summary,
                            const FitSettings& settings) {
  MinimizerOutcome out;
  for (std::size_t k = 0; k < x.size(); ++k) out.values.push_back(from_coordinate(model.estimates()[k], x[k]));
  out.iterations = static_cast<int>(summary.iterations.size()) - 1;
  out.cost = summary.final_cost;
  out.message = summary.message;
  out.status = status_of(summary.termination_type, settings);
  if (out.status == "failure" && !model.failure().empty()) out.message += " (the last failed solve: " + model.failure() + ")";
  return out;
}

void set_bounds(ceres::Problem& problem, double* x, const std::vector<ResolvedEstimate>& estimates) {
  for (std::size_t k = 0; k < estimates.size(); ++k) {
    const Estimate& s = estimates[k].spec;
    const int i = static_cast<int>(k);
    // On a log scale a bound at or below 0 is no bound at all.
    if (std::isfinite(s.lower) && (!s.log_scale || s.lower > 0))
      problem.SetParameterLowerBound(x, i, to_coordinate(estimates[k], s.lower));
    if (std::isfinite(s.upper)) problem.SetParameterUpperBound(x, i, to_coordinate(estimates[k], s.upper));
  }
}

ceres::Solver::Options options_of(const FitSettings& settings, InterruptCheck* interrupt) {
  ceres::Solver::Options o;
  o.trust_region_strategy_type = settings.method == "dogleg" ? ceres::DOGLEG : ceres::LEVENBERG_MARQUARDT;
  o.linear_solver_type = ceres::DENSE_QR;
  o.max_num_iterations = settings.max_iterations;
  o.function_tolerance = settings.function_tolerance;
  o.parameter_tolerance = settings.parameter_tolerance;
  o.gradient_tolerance = settings.gradient_tolerance;
  o.num_threads = 1;  // one model, one solve at a time
  o.logging_type = ceres::SILENT;
  o.minimizer_progress_to_stdout = false;
  o.max_num_consecutive_invalid_steps = 10;  // failed solves the optimiser may step back from in a row
  o.callbacks.push_back(interrupt);
  return o;
}

}  // namespace

MinimizerOutcome minimize(FitModel& model, const std::vector<double>& start, const FitSettings& settings) {
  const auto& estimates = model.estimates();
  std::vector<double> x = coordinates(estimates, start);
  ceres::Problem::Options problem_options;
  problem_options.cost_function_ownership = ceres::TAKE_OWNERSHIP;
  ceres::Problem problem(problem_options);
  problem.AddResidualBlock(new FitCost(model), nullptr, x.data());
  set_bounds(problem, x.data(), estimates);
  InterruptCheck interrupt(settings.interrupt);
  ceres::Solver::Summary summary;
  ceres::Solve(options_of(settings, &interrupt), &problem, &summary);

  return outcome_of(model, x, summary, settings);
}

MinimizerOutcome minimize_by_gradient(FitModel& model, const std::vector<double>& start, const FitSettings& settings) {
  const auto& estimates = model.estimates();
  std::vector<double> x = coordinates(estimates, start);
  ceres::GradientProblem problem(new FitCostByGradient(model));
  ceres::GradientProblemSolver::Options o;
  o.line_search_direction_type = ceres::LBFGS;
  o.max_num_iterations = settings.max_iterations;
  o.function_tolerance = settings.function_tolerance;
  o.parameter_tolerance = settings.parameter_tolerance;
  o.gradient_tolerance = settings.gradient_tolerance;
  o.logging_type = ceres::SILENT;
  InterruptCheck interrupt(settings.interrupt);
  o.callbacks.push_back(&interrupt);
  ceres::GradientProblemSolver::Summary summary;
  ceres::Solve(o, problem, x.data(), &summary);
  return outcome_of(model, x, summary, settings);
}

}  // namespace daekit::fit
