// What a fit evaluates: the estimates resolved against the problem, the measurements
// against its components and span, and, for values of the estimates, every experiment
// solved with forward sensitivities into the weighted residuals and their Jacobian.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "daekit/api/solve.hpp"
#include "daekit/fit/fit.hpp"

namespace daekit::fit {

// An estimate as the problem knows it: its real parameter, or the component whose initial
// value it is.
struct ResolvedEstimate {
  Estimate spec;
  bool initial_value = false;
  std::size_t index = 0;  // parameter index, or component index for an initial value
  double start = 0;       // the first guess (the problem's value unless given)
};

// A measurement as the solve reads it: which output time, and which component of y or
// which output of the problem (output >= 0) it observes.
struct ResolvedMeasurement {
  std::size_t time_index = 0, component = 0;
  std::int64_t output = -1;
  double value = 0, sigma = 1;
};

struct ResolvedExperiment {
  const Experiment* source = nullptr;
  std::vector<double> times;  // distinct, increasing: the solve's output times
  std::vector<ResolvedMeasurement> measurements;
  std::vector<double> parameters;  // the problem's with the experiment's conditions
  std::map<std::string, double> initial_values;  // conditions "y0:NAME" by component
  std::vector<std::string> outputs;  // the problem's outputs the data observe: the solve records them
  // Per estimate: the experiment's conditions set it, so there it is not estimated (its
  // column of J is 0 for this experiment's rows), as PEtab's condition table overrides.
  std::vector<bool> set_by_condition;
  double tend = 0;
};

// UsageError for everything FitSettings and Experiment promise to refuse.
std::vector<ResolvedEstimate> resolve_estimates(const loader::ProblemInstance& problem,
                                                const std::vector<Estimate>& estimates);
std::vector<ResolvedExperiment> resolve_experiments(const loader::ProblemInstance& problem,
                                                    const std::vector<Experiment>& experiments,
                                                    const std::vector<ResolvedEstimate>& estimates,
                                                    const api::RunSettings& run);

// The residuals r_j = (y(t_j) - value_j) / sigma_j (o(t_j, y(t_j)) for an output) and
// J = dr/d(estimate values), row-major
// measurements x estimates, at one set of values; the last set is kept, so the optimiser
// asking again for the Jacobian at a point it evaluated costs no solve.
class FitModel {
 public:
  FitModel(const ProblemHandle& problem, const SolverHandle& solver, std::vector<ResolvedEstimate> estimates,
           std::vector<ResolvedExperiment> experiments, const api::RunSettings& run);
  // Restores the problem's parameters.
  ~FitModel();
  FitModel(const FitModel&) = delete;
  FitModel& operator=(const FitModel&) = delete;

  std::size_t residual_count() const { return residual_count_; }
  // The name of an output of the problem the data observe ("" when they observe y only).
  std::string first_output() const;
  std::size_t estimate_count() const { return estimates_.size(); }
  const std::vector<ResolvedEstimate>& estimates() const { return estimates_; }
  // False when a solve failed (failure() says which and why).
  bool evaluate(const std::vector<double>& values);
  const std::vector<double>& residuals() const { return residuals_; }
  const std::vector<double>& jacobian() const { return jacobian_; }
  // The model's values y(t_j) at the last successful evaluation, in measurement order.
  const std::vector<double>& model_values() const { return model_; }
  const std::string& failure() const { return failure_; }
  // The settings' own fault the last evaluation met (a bad solver option, a problem the
  // solver cannot take), to rethrow as a refusal when it happens at the start; else null.
  std::exception_ptr usage_error() const { return usage_error_; }
  std::int64_t solves() const { return solves_; }
  std::int64_t failed_solves() const { return failed_; }
  const dk_stats& stats() const { return stats_; }
  // The cost chi^2 / 2 and its gradient with respect to the estimates at `values`, by the
  // solver's adjoint (one forward and one backward pass per experiment); the residuals
  // and model values are those of this evaluation too. False when a solve failed.
  bool evaluate_gradient(const std::vector<double>& values, double& cost, std::vector<double>& gradient);
  // Experiment e's solve at `values` with output at every step (for plots).
  ModelCurve curve(std::size_t e, const std::vector<double>& values);

 private:
  bool solve_experiment(std::size_t e, const std::vector<double>& values, std::size_t row);
  // An output's value and its row of J (o_y s_k + o_p e_k, by differences) at a point.
  void observe_output(const ResolvedMeasurement& m, const ResolvedExperiment& x, const Solution& solution,
                      std::size_t row);
  bool adjoint_experiment(std::size_t e, const std::vector<double>& values, std::size_t row,
                          std::vector<double>& gradient);
  // One solve with the settings `options` makes (the problem's parameters set there):
  // false, with failure_ (and usage_error_ for the settings' own fault), when it failed;
  // `in` opens the messages.
  bool run(const std::string& in, const std::function<SolveOptions()>& options, Solution& solution);
  // Sets the problem's parameters for experiment e at `values` and returns its solve's settings.
  SolveOptions prepare(std::size_t e, const std::vector<double>& values);
  ProblemHandle problem_;
  SolverHandle solver_;
  std::vector<ResolvedEstimate> estimates_;
  std::vector<ResolvedExperiment> experiments_;
  api::RunSettings run_;
  std::vector<double> original_parameters_;
  std::size_t residual_count_ = 0;
  std::vector<double> last_values_, residuals_, jacobian_, model_;
  bool last_ok_ = false;
  std::string failure_;
  std::exception_ptr usage_error_;
  std::int64_t solves_ = 0, failed_ = 0;
  dk_stats stats_{};
};

}  // namespace daekit::fit
