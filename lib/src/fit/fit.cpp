#include "daekit/fit/fit.hpp"

#include <chrono>
#include <cmath>
#include <random>
#include <sstream>

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
  if (s.gradient != "auto" && s.gradient != "forward" && s.gradient != "adjoint")
    throw UsageError("the gradient must come from forward, adjoint or auto, not '" + s.gradient + "'");
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

// forward or adjoint, as FitSettings::gradient says; an adjoint the solver lacks, bounds
// it cannot keep and observed outputs (`output`: one of them, "" for none) are refused.
std::string gradient_for(const FitSettings& s, const SolverHandle& solver, const std::vector<ResolvedEstimate>& estimates,
                         std::size_t measurements, const std::string& output) {
  const bool has_adjoint = (solver.info().flags & DK_SOLVER_ADJOINT) != 0;
  bool bounded = false;
  for (const ResolvedEstimate& e : estimates)
    bounded = bounded || std::isfinite(e.spec.lower) || std::isfinite(e.spec.upper);
  if (s.gradient == "forward") return "forward";
  if (s.gradient == "auto")
    return has_adjoint && !bounded && output.empty() && estimates.size() > measurements ? "adjoint" : "forward";
  // The adjoint's data terms are evaluated inside the solve, where an output's derivative
  // in p (the instance's parameters moved and restored) cannot be taken.
  if (!output.empty())
    throw UsageError("a fit by adjoint gradients compares components of y; the data observe the output '" + output +
                     "': use gradient forward");
  if (!has_adjoint)
    throw api::UnsupportedProblem("solver '" + solver.name() +
                                  "' has no adjoint gradients (`daekit info` says which do); use gradient forward");
  if (bounded) throw UsageError("a fit by adjoint gradients (L-BFGS) keeps no bounds: drop them, or use gradient forward");
  return "adjoint";
}

// Whether the optimiser's end is a minimum: the residuals orthogonal to every column of
// J (|J_k . r| <= 1e-3 |J_k| |r|, first-order optimality whatever the scales) but where
// an estimate sits on a bound the cost would fall beyond, or fitted to a ten-thousandth
// of their sigmas (where r is solver error and its direction noise). "" when it is; else
// what is not.
std::string first_order_failure(const FitModel& model, const std::vector<double>& values) {
  const auto& estimates = model.estimates();
  const std::size_t m = model.residual_count(), ns = model.estimate_count();
  double rr = 0;
  for (const double r : model.residuals()) rr += r * r;
  if (rr <= 1e-8 * static_cast<double>(m)) return "";
  std::string worst;
  double worst_cos = 1e-3;
  for (std::size_t k = 0; k < ns; ++k) {
    double dot = 0, jj = 0;
    for (std::size_t j = 0; j < m; ++j) {
      const double a = model.jacobian()[j * ns + k];
      dot += a * model.residuals()[j], jj += a * a;
    }
    if (jj == 0) continue;  // no data see it: the covariance says so
    const Estimate& e = estimates[k].spec;
    const double v = values[k], slack = 1e-9 * std::max(std::abs(v), 1e-300);
    if ((v >= e.upper - slack && dot < 0) || (v <= e.lower + slack && dot > 0)) continue;  // held by its bound
    const double cos = std::abs(dot) / std::sqrt(jj * rr);
    if (cos > worst_cos) worst_cos = cos, worst = e.name;
  }
  if (worst.empty()) return "";
  std::ostringstream why;
  why << "the gradient is not small where the optimiser stopped: the residuals' cosine with the column of " << worst
      << " is " << worst_cos << " (a minimum has < 1e-3)";
  return why.str();
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
  r.gradient = gradient_for(settings, solver, estimates, model.residual_count(), model.first_output());
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
    double cost = 0;
    std::vector<double> gradient;
    const bool adjoint = r.gradient == "adjoint";
    if (adjoint ? !model.evaluate_gradient(start, cost, gradient) : !model.evaluate(start)) {
      // Settings the solver refuses are refused at the first start, as a run refuses them.
      if (s == 0 && model.usage_error()) std::rethrow_exception(model.usage_error());
      outcome = {start, "solve_failure", "no solve at the start: " + model.failure(), 0, 0};
    } else {
      outcome = adjoint ? minimize_by_gradient(model, start, settings) : minimize(model, start, settings);
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
    // The optimiser's own tests can pass where no minimum is (a line search that found no
    // step): success only at a point where the gradient vanishes.
    if (r.status == "success")
      if (const std::string why = first_order_failure(model, best.values); !why.empty()) {
        r.status = "not_converged";
        r.message += "; but " + why;
      }
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
