#include "daekit/fit/fit.hpp"

#include <chrono>
#include <cmath>
#include <random>

#include "covariance.hpp"
#include "fit_model.hpp"
#include "least_squares.hpp"

namespace daekit::fit {
namespace {

using api::UsageError;

void check_settings(const FitSettings& s) {
  if (s.max_iterations < 1) throw UsageError("the optimiser's iteration limit must be at least 1");
  if (s.method != "levenberg_marquardt" && s.method != "dogleg")
    throw UsageError("the method must be levenberg_marquardt or dogleg, not '" + s.method + "'");
  for (const double tol : {s.function_tolerance, s.parameter_tolerance, s.gradient_tolerance})
    if (!(tol >= 0) || !std::isfinite(tol)) throw UsageError("the optimiser's tolerances must be finite and >= 0");
  if (s.starts < 1) throw UsageError("the number of starts must be at least 1");
  if (!(s.confidence > 0 && s.confidence < 1)) throw UsageError("the confidence level must lie in (0, 1)");
}

// A start drawn in the bounds: uniform, or uniform in log for log-scale estimates, from
// 53 bits of the seeded engine (the same draws on every machine).
std::vector<double> drawn_start(const std::vector<ResolvedEstimate>& estimates, std::mt19937_64& engine) {
  std::vector<double> start;
  for (const ResolvedEstimate& e : estimates) {
    const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    const double lo = to_coordinate(e, e.spec.lower), hi = to_coordinate(e, e.spec.upper);
    start.push_back(from_coordinate(e, lo + u * (hi - lo)));
  }
  return start;
}

void check_multistart(const std::vector<ResolvedEstimate>& estimates, int starts) {
  if (starts < 2) return;
  for (const ResolvedEstimate& e : estimates)
    if (!std::isfinite(e.spec.lower) || !std::isfinite(e.spec.upper) || (e.spec.log_scale && e.spec.lower <= 0))
      throw UsageError("more than one start draws the starts in the bounds: " + e.spec.name +
                       " needs finite bounds (positive ones on a log scale)");
}

void fill_experiments(FitResult& r, const std::vector<Experiment>& experiments, const FitModel& model) {
  std::size_t row = 0;
  for (const Experiment& e : experiments) {
    ExperimentFit fitted;
    fitted.id = e.id;
    for (const Measurement& m : e.measurements) {
      FittedPoint p{m.t, m.value, m.sigma, model.model_values()[row], model.residuals()[row], m.name};
      fitted.chi2 += p.residual * p.residual;
      fitted.points.push_back(p);
      ++row;
    }
    r.experiments.push_back(fitted);
  }
}

}  // namespace

std::vector<ModelCurve> model_curves(const ProblemHandle& problem, const SolverHandle& solver,
                                     const std::vector<Experiment>& experiments, const FitSettings& settings,
                                     const std::vector<double>& values) {
  if (!problem.valid() || !solver.valid()) throw UsageError("no problem or no solver given");
  std::vector<ResolvedEstimate> estimates = resolve_estimates(problem.instance(), settings.estimate);
  if (values.size() != estimates.size())
    throw UsageError("model_curves: " + std::to_string(values.size()) + " values for " +
                     std::to_string(estimates.size()) + " estimates");
  FitModel model(problem, solver, estimates,
                 resolve_experiments(problem.instance(), experiments, estimates, settings.run), settings.run);
  std::vector<ModelCurve> curves;
  for (std::size_t e = 0; e < experiments.size(); ++e) curves.push_back(model.curve(e, values));
  return curves;
}

FitResult fit(const ProblemHandle& problem, const SolverHandle& solver, const std::vector<Experiment>& experiments,
              const FitSettings& settings) {
  const auto started = std::chrono::steady_clock::now();
  if (!problem.valid()) throw UsageError("no problem given");
  if (!solver.valid()) throw UsageError("no solver given");
  check_settings(settings);
  std::vector<ResolvedEstimate> estimates = resolve_estimates(problem.instance(), settings.estimate);
  check_multistart(estimates, settings.starts);
  std::vector<ResolvedExperiment> resolved = resolve_experiments(problem.instance(), experiments, estimates, settings.run);
  api::RunSettings run = settings.run;
  run.interrupt = settings.interrupt;
  FitModel model(problem, solver, estimates, std::move(resolved), run);

  FitResult r;
  r.measurements = model.residual_count();
  for (const ResolvedEstimate& e : estimates) {
    r.names.push_back(e.spec.name);
    r.initial.push_back(e.start);
  }
  std::mt19937_64 engine(settings.seed);
  MinimizerOutcome best;
  for (int s = 0; s < settings.starts; ++s) {
    const std::vector<double> start = s == 0 ? r.initial : drawn_start(estimates, engine);
    MinimizerOutcome outcome;
    if (!model.evaluate(start)) {
      // Settings the solver refuses are refused at the first start, as a run refuses them.
      if (s == 0 && model.usage_error()) std::rethrow_exception(model.usage_error());
      outcome = {start, "solve_failure", "no solve at the start: " + model.failure(), 0, 0};
    } else {
      outcome = minimize(model, start, settings);
    }
    r.starts.push_back({start, outcome.values, outcome.status, outcome.cost, outcome.iterations});
    r.iterations += outcome.iterations;
    const bool reached = outcome.status == "success" || outcome.status == "not_converged";
    const bool best_reached = best.status == "success" || best.status == "not_converged";
    if (s == 0 || (reached && (!best_reached || outcome.cost < best.cost))) best = outcome;
    if (outcome.status == "interrupted") break;
  }
  r.status = best.status;
  r.message = best.message;
  r.estimates = best.values;
  if (model.evaluate(best.values)) {
    for (const double residual : model.residuals()) r.chi2 += residual * residual;
    r.residual_norm = std::sqrt(r.chi2);
    fill_experiments(r, experiments, model);
    Uncertainty u = uncertainty(estimates, best.values, model.jacobian(), model.residual_count(), settings.confidence);
    r.covariance = std::move(u.covariance);
    r.standard_errors = std::move(u.standard_errors);
    r.lower = std::move(u.lower);
    r.upper = std::move(u.upper);
    r.identifiability = std::move(u.identifiability);
  } else if (r.status == "success" || r.status == "not_converged") {
    r.status = "failure";
    r.message = "the solve at the estimates failed: " + model.failure();
  }
  r.solves = model.solves();
  r.failed_solves = model.failed_solves();
  r.solver_stats = model.stats();
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace daekit::fit
