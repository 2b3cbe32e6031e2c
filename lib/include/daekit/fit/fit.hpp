// Parameter estimation: the values of a problem's real parameters (and initial values)
// that make its solution fit measurements, by nonlinear least squares (Ceres Solver's
// trust-region methods, bounds respected) with the Jacobian from forward sensitivities.
//
//   daekit::fit::FitSettings settings;
//   settings.estimate = {{"k1"}, {"k2"}, {"k3"}};
//   settings.run.rtol = 1e-8;
//   auto result = daekit::fit::fit(problem, solver, {daekit::fit::read_experiment("rober.csv")}, settings);
//
// The residual of measurement j is (y_name(t_j) - value_j) / sigma_j, so the cost is
// chi^2 / 2 and, with sigma the measurements' standard deviations, the covariance of the
// estimates is (J^T J)^-1 at the optimum (docs/fit.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <daekit/abi.h>

#include "daekit/api/handles.hpp"
#include "daekit/api/run_setup.hpp"
#include "daekit/fit/measurements.hpp"

namespace daekit::fit {

// One quantity to estimate: a real parameter of the problem, an initial value "y0:NAME",
// or "all": every real parameter with these settings (one named on its own keeps its own).
struct Estimate {
  std::string name;
  std::optional<double> initial;  // the first guess; else the problem's value
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool log_scale = false;  // estimated as log(value): positive, and steps relative to it
};

struct FitSettings {
  api::RunSettings run;            // every solve's settings (tolerances, solver options, ...)
  std::vector<Estimate> estimate;
  int max_iterations = 100;        // of the optimiser, per start
  // Convergence (Ceres' tests): relative change of the cost, of the step, and the gradient's size.
  double function_tolerance = 1e-12, parameter_tolerance = 1e-10, gradient_tolerance = 1e-14;
  std::string method = "levenberg_marquardt";  // or "dogleg"
  // How the derivatives come: "forward" (sensitivities: the residuals' Jacobian, for the
  // trust-region methods above), "adjoint" (the cost's gradient by the solver's adjoint,
  // one backward pass whatever the number of estimates, for Ceres' L-BFGS line search;
  // no bounds), or "auto": adjoint where the solver has it and the estimates outnumber
  // the measurements, else forward.
  std::string gradient = "auto";
  // More starts, drawn in the bounds (every estimate needs finite ones; log-uniform for
  // log-scale ones) by a generator seeded with `seed`; the first start is the initial guess.
  int starts = 1;
  std::uint64_t seed = 1;
  double confidence = 0.95;        // level of the reported intervals
  const std::atomic<bool>* interrupt = nullptr;  // true: the fit ends at its next solve
};

// The model at one measurement, at the optimum.
struct FittedPoint {
  double t = 0, value = 0, sigma = 1, model = 0, residual = 0;
  std::string name;
};

struct ExperimentFit {
  std::string id;
  std::vector<FittedPoint> points;  // in the data file's order
  double chi2 = 0;
};

struct StartOutcome {
  std::vector<double> initial, final;
  std::string status;
  double cost = 0;
  int iterations = 0;
};

struct FitResult {
  // success: the optimiser's convergence test passed; not_converged: the iteration limit
  // (the best point reached is reported); solve_failure: no solve succeeded at the initial
  // point; failure: the optimiser stopped otherwise (message says why); interrupted.
  std::string status = "failure", message;
  std::vector<std::string> names;            // of the estimates, in the settings' order
  std::vector<double> initial, estimates;
  double chi2 = 0, residual_norm = 0;        // sum and 2-norm of the residuals
  std::size_t measurements = 0;
  // (J^T J)^-1 row-major with the standard errors and intervals at `confidence` (for
  // log-scale estimates the interval is exp of log's, so positive); empty when J^T J is
  // singular to working precision (identifiability says which estimates are at fault).
  std::vector<double> covariance, standard_errors, lower, upper;
  std::string identifiability;
  int iterations = 0;
  std::string gradient;                      // "forward" or "adjoint": what the fit used
  std::int64_t solves = 0, failed_solves = 0;
  dk_stats solver_stats{};                   // summed over every solve
  double wall_s = 0;
  std::vector<ExperimentFit> experiments;
  std::vector<StartOutcome> starts;
  bool success() const { return status == "success"; }
};

// The model of each experiment at every step of a solve with the estimates `values`
// (the optimum, or any other point), for plots: the observed components only.
struct ModelCurve {
  std::string id;                  // the experiment
  std::vector<std::string> names;  // its observed components, then its observed outputs
  std::vector<double> t, values;   // values row-major: names.size() per t
  std::string failure;             // why the solve failed ("" when it did not)
};
std::vector<ModelCurve> model_curves(const ProblemHandle& problem, const SolverHandle& solver,
                                     const std::vector<Experiment>& experiments, const FitSettings& settings,
                                     const std::vector<double>& values);

// UsageError before any solve for: an estimate the problem does not declare (with the
// closest names), one given twice, bounds that exclude the initial guess or are empty, a
// log-scale estimate that is not positive, a measurement of an unknown variable or at a
// time outside the span (naming its file and line), a condition naming neither a real
// parameter nor an initial value, and a solver without sensitivities. A condition may set
// an estimated quantity: in that experiment it has the condition's value (PEtab's rule).
FitResult fit(const ProblemHandle& problem, const SolverHandle& solver, const std::vector<Experiment>& experiments,
              const FitSettings& settings);

}  // namespace daekit::fit
