#include "fit_model.hpp"

#include <algorithm>
#include <cmath>
#include <daekit/sdk/closest_names.hpp>

#include "daekit/api/discovery.hpp"
#include "daekit/api/sensitivity_columns.hpp"
#include "daekit/api/solve.hpp"
#include "daekit/api/stat_fields.hpp"
#include "observed_output.hpp"

namespace daekit::fit {
namespace {

using api::UsageError;

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string suggestion(const std::string& word, const std::vector<std::string>& names) {
  const auto near = closest_names(word, names);
  std::string out;
  for (std::size_t i = 0; i < near.size(); ++i) {
    out += i == 0 ? "; did you mean '" : "', '";
    out += near[i];
  }
  return near.empty() ? out : out + "'?";
}

std::vector<std::string> parameter_names(const loader::ProblemInstance& problem) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < problem.parameter_count(); ++i) names.push_back(problem.parameter_name(i));
  return names;
}

std::vector<std::string> component_names(const dk_problem_info& info) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.n; ++i) names.push_back(api::component_name(info, i));
  return names;
}

std::string number_text(double v) { return api::format_number(v); }

// The index of the problem's output `name`, -1 when it has none of that name.
std::int64_t output_index(const loader::ProblemInstance& problem, const std::string& name) {
  for (std::size_t k = 0; k < problem.output_count(); ++k)
    if (problem.output_name(k) == name) return static_cast<std::int64_t>(k);
  return -1;
}

void check_bounds(const ResolvedEstimate& e) {
  const Estimate& s = e.spec;
  if (std::isnan(s.lower) || std::isnan(s.upper) || !(s.lower < s.upper))
    throw UsageError("the bounds of " + s.name + " [" + number_text(s.lower) + ", " + number_text(s.upper) +
                     "] hold no value");
  if (!std::isfinite(e.start))
    throw UsageError("the initial guess of " + s.name + " is not a finite number");
  if (e.start < s.lower || e.start > s.upper)
    throw UsageError("the initial guess of " + s.name + " (" + number_text(e.start) + ") lies outside its bounds [" +
                     number_text(s.lower) + ", " + number_text(s.upper) + "]");
  if (s.log_scale && !(e.start > 0))
    throw UsageError(s.name + " is estimated on a log scale but its initial guess " + number_text(e.start) +
                     " is not positive");
  if (s.log_scale && s.upper <= 0)
    throw UsageError(s.name + " is estimated on a log scale but its upper bound is not positive");
}

}  // namespace

namespace {

// "all" stands for every real parameter, with its settings; a parameter also named on its
// own keeps its own.
std::vector<Estimate> expand_all(const std::vector<Estimate>& estimates, const std::vector<std::string>& parameters) {
  const auto all = std::find_if(estimates.begin(), estimates.end(), [](const Estimate& e) { return e.name == "all"; });
  if (all == estimates.end()) return estimates;
  std::vector<Estimate> out;
  for (const std::string& name : parameters) {
    const auto own = std::find_if(estimates.begin(), estimates.end(), [&](const Estimate& e) { return e.name == name; });
    Estimate e = own != estimates.end() ? *own : *all;
    e.name = name;
    out.push_back(e);
  }
  for (const Estimate& e : estimates)
    if (e.name != "all" && std::find(parameters.begin(), parameters.end(), e.name) == parameters.end()) out.push_back(e);
  return out;
}

}  // namespace

std::vector<ResolvedEstimate> resolve_estimates(const loader::ProblemInstance& problem,
                                                const std::vector<Estimate>& given) {
  const dk_problem_info& info = problem.info();
  if (given.empty()) throw UsageError("nothing to estimate: name at least one parameter (--estimate)");
  const std::vector<std::string> parameters = parameter_names(problem);
  if (parameters.empty() && std::any_of(given.begin(), given.end(), [](const Estimate& e) { return e.name == "all"; }))
    throw UsageError("problem '" + std::string(info.name) + "' declares no real parameters for --estimate all");
  const std::vector<Estimate> estimates = expand_all(given, parameters);
  std::vector<double> y0, yp0;
  try {
    problem.initial_values(y0, yp0);
  } catch (const loader::LoadError& e) {
    throw UsageError(e.what());
  }
  std::vector<ResolvedEstimate> out;
  for (const Estimate& spec : estimates) {
    ResolvedEstimate e;
    e.spec = spec;
    if (spec.name.rfind("y0:", 0) == 0) {
      e.initial_value = true;
      e.index = api::resolve_component(info, spec.name.substr(3), "--estimate");
      e.spec.name = "y0:" + api::component_name(info, e.index);
      e.start = spec.initial ? *spec.initial : y0[e.index];
    } else {
      const auto at = std::find(parameters.begin(), parameters.end(), spec.name);
      if (at == parameters.end()) {
        if (parameters.empty())
          throw UsageError("problem '" + std::string(info.name) + "' declares no real parameter to estimate ('" +
                           spec.name + "'); initial values are estimated as y0:NAME");
        throw UsageError("problem '" + std::string(info.name) + "' has no real parameter '" + spec.name + "'" +
                         suggestion(spec.name, parameters) + " (it has: " + listed(parameters) + ")");
      }
      e.index = static_cast<std::size_t>(at - parameters.begin());
      e.start = spec.initial ? *spec.initial : problem.parameters()[e.index];
    }
    for (const ResolvedEstimate& before : out)
      if (before.spec.name == e.spec.name) throw UsageError(e.spec.name + " is estimated twice");
    check_bounds(e);
    out.push_back(e);
  }
  return out;
}

namespace {

ResolvedExperiment resolve_one(const loader::ProblemInstance& problem, const Experiment& experiment,
                               const std::vector<ResolvedEstimate>& estimates, double t_end) {
  const dk_problem_info& info = problem.info();
  const std::vector<std::string> components = component_names(info);
  ResolvedExperiment r;
  r.source = &experiment;
  const double t0 = info.t0, direction = t_end >= t0 ? 1.0 : -1.0;
  for (const Measurement& m : experiment.measurements) {
    const std::string at = experiment.source + ", line " + std::to_string(m.line) + ": ";
    if (direction * (m.t - t0) < 0 || direction * (m.t - t_end) > 0)
      throw UsageError(at + "t = " + number_text(m.t) + " lies outside the problem's span [" + number_text(t0) + ", " +
                       number_text(t_end) + "]");
    if (std::find(components.begin(), components.end(), m.name) == components.end() &&
        output_index(problem, m.name) < 0) {
      std::vector<std::string> names = components;
      for (std::size_t k = 0; k < problem.output_count(); ++k) names.push_back(problem.output_name(k));
      throw UsageError(at + "problem '" + std::string(info.name) + "' has no component or output '" + m.name + "'" +
                       suggestion(m.name, names));
    }
    r.times.push_back(m.t);
  }
  std::sort(r.times.begin(), r.times.end(), [&](double a, double b) { return direction * a < direction * b; });
  r.times.erase(std::unique(r.times.begin(), r.times.end()), r.times.end());
  for (const Measurement& m : experiment.measurements) {
    ResolvedMeasurement rm;
    rm.time_index = static_cast<std::size_t>(std::find(r.times.begin(), r.times.end(), m.t) - r.times.begin());
    const auto c = std::find(components.begin(), components.end(), m.name);
    if (c != components.end())
      rm.component = static_cast<std::size_t>(c - components.begin());
    else
      rm.output = output_index(problem, m.name);
    if (rm.output >= 0 && std::find(r.outputs.begin(), r.outputs.end(), m.name) == r.outputs.end())
      r.outputs.push_back(m.name);
    rm.value = m.value;
    rm.sigma = m.sigma;
    r.measurements.push_back(rm);
  }
  // The solve ends at the last measurement: nothing after it enters the fit.
  r.tend = r.times.back() != t0 ? r.times.back() : t_end;
  r.parameters = problem.parameters();
  const std::vector<std::string> parameters = parameter_names(problem);
  r.set_by_condition.assign(estimates.size(), false);
  for (const auto& [name, value] : experiment.conditions) {
    const std::string in = "experiment '" + experiment.id + "': ";
    std::string canonical = name;
    if (name.rfind("y0:", 0) == 0) {
      const std::size_t i = api::resolve_component(info, name.substr(3), in + "condition " + name);
      canonical = "y0:" + api::component_name(info, i);
    }
    for (std::size_t k = 0; k < estimates.size(); ++k)
      if (estimates[k].spec.name == canonical) r.set_by_condition[k] = true;
    if (canonical.rfind("y0:", 0) == 0) {
      r.initial_values[canonical.substr(3)] = value;
      continue;
    }
    const auto p = std::find(parameters.begin(), parameters.end(), name);
    if (p == parameters.end())
      throw UsageError(in + "its condition names '" + name + "', neither a real parameter of problem '" +
                       info.name + "'" + suggestion(name, parameters) + " nor an initial value y0:NAME");
    r.parameters[static_cast<std::size_t>(p - parameters.begin())] = value;
  }
  return r;
}

}  // namespace

std::vector<ResolvedExperiment> resolve_experiments(const loader::ProblemInstance& problem,
                                                    const std::vector<Experiment>& experiments,
                                                    const std::vector<ResolvedEstimate>& estimates,
                                                    const api::RunSettings& run) {
  if (experiments.empty()) throw UsageError("no measurements: give at least one data file (--data)");
  const double t_end = run.tend ? *run.tend : problem.info().tend;
  std::vector<ResolvedExperiment> out;
  for (const Experiment& e : experiments) {
    for (const ResolvedExperiment& before : out)
      if (before.source->id == e.id)
        throw UsageError("two experiments are named '" + e.id + "' (" + before.source->source + " and " + e.source +
                         "): each data file's name names its experiment");
    out.push_back(resolve_one(problem, e, estimates, t_end));
  }
  return out;
}

FitModel::FitModel(const ProblemHandle& problem, const SolverHandle& solver, std::vector<ResolvedEstimate> estimates,
                   std::vector<ResolvedExperiment> experiments, const api::RunSettings& run)
    : problem_(problem), solver_(solver), estimates_(std::move(estimates)), experiments_(std::move(experiments)),
      run_(run), original_parameters_(problem.instance().parameters()) {
  for (const ResolvedExperiment& e : experiments_) residual_count_ += e.measurements.size();
  run_.sensitivities.clear();
  for (const ResolvedEstimate& e : estimates_) run_.sensitivities.push_back(e.spec.name);
  run_.output = DK_OUTPUT_SAVEAT;
  run_.dense = false;
  residuals_.assign(residual_count_, 0.0);
  jacobian_.assign(residual_count_ * estimates_.size(), 0.0);
  model_.assign(residual_count_, 0.0);
}

std::string FitModel::first_output() const {
  for (const ResolvedExperiment& x : experiments_)
    for (const ResolvedMeasurement& m : x.measurements)
      if (m.output >= 0) return problem_.instance().output_name(static_cast<std::size_t>(m.output));
  return "";
}

FitModel::~FitModel() {
  try {
    if (!original_parameters_.empty()) problem_.instance().set_parameters(original_parameters_);
  } catch (...) {
    // The problem refused its own former values: nothing more to restore.
  }
}

bool FitModel::evaluate(const std::vector<double>& values) {
  if (values == last_values_ && !last_values_.empty()) return last_ok_;
  last_values_ = values;
  last_ok_ = true;
  usage_error_ = nullptr;
  std::size_t row = 0;
  for (std::size_t e = 0; e < experiments_.size() && last_ok_; ++e) {
    last_ok_ = solve_experiment(e, values, row);
    row += experiments_[e].measurements.size();
  }
  return last_ok_;
}

SolveOptions FitModel::prepare(std::size_t e, const std::vector<double>& values) {
  const ResolvedExperiment& x = experiments_[e];
  const dk_problem_info& info = problem_.info();
  std::vector<double> p = x.parameters;
  SolveOptions options;
  static_cast<api::RunSettings&>(options) = run_;
  options.saveat = x.times;
  options.tend = x.tend;
  options.initial_values = x.initial_values;
  options.output_vars = x.outputs;
  for (std::size_t k = 0; k < estimates_.size(); ++k) {
    const ResolvedEstimate& est = estimates_[k];
    if (x.set_by_condition[k]) continue;
    if (est.initial_value)
      options.initial_values[api::component_name(info, est.index)] = values[k];
    else
      p[est.index] = values[k];
  }
  if (!p.empty()) problem_.instance().set_parameters(p);
  return options;
}

ModelCurve FitModel::curve(std::size_t e, const std::vector<double>& values) {
  const ResolvedExperiment& x = experiments_[e];
  ModelCurve c;
  c.id = x.source->id;
  std::vector<std::size_t> observed;
  for (const ResolvedMeasurement& m : x.measurements)
    if (m.output < 0 && std::find(observed.begin(), observed.end(), m.component) == observed.end())
      observed.push_back(m.component);
  for (const std::size_t i : observed) c.names.push_back(api::component_name(problem_.info(), i));
  c.names.insert(c.names.end(), x.outputs.begin(), x.outputs.end());
  try {
    SolveOptions options = prepare(e, values);
    options.saveat.clear();
    options.output = DK_OUTPUT_EVERY_STEP;
    options.sensitivities.clear();
    const Solution solution = daekit::solve(problem_, solver_, options);
    if (!solution.success()) c.failure = solution.status_name() + ": " + solution.message;
    for (std::size_t k = 0; k < solution.size(); ++k) {
      c.t.push_back(solution.t[k]);
      for (const std::size_t i : observed) c.values.push_back(solution.point(k)[i]);
      for (std::size_t v = 0; v < x.outputs.size(); ++v)
        c.values.push_back(solution.variables[k * solution.variable_names.size() + v]);
    }
  } catch (const std::exception& error) {
    c.failure = error.what();
  }
  return c;
}

bool FitModel::solve_experiment(std::size_t e, const std::vector<double>& values, std::size_t row) {
  const ResolvedExperiment& x = experiments_[e];
  const std::size_t ns = estimates_.size();
  const std::string in = "experiment '" + x.source->id + "': ";
  Solution solution;
  if (!run(in, [&] { return prepare(e, values); }, solution)) return false;
  if (solution.t != x.times || solution.sensitivity_count() != ns) {
    ++failed_;
    failure_ = in + solution.solver + " did not report y and its sensitivities at every measurement time";
    return false;
  }
  for (std::size_t j = 0; j < x.measurements.size(); ++j) {
    const ResolvedMeasurement& m = x.measurements[j];
    if (m.output >= 0) {
      try {
        observe_output(m, x, solution, row + j);
      } catch (const UsageError& error) {  // no other point will do better: the fit ends
        ++failed_;
        failure_ = in + error.what();
        usage_error_ = std::current_exception();
        return false;
      } catch (const std::exception& error) {  // the model failed here: a rejected point
        ++failed_;
        failure_ = in + error.what();
        return false;
      }
      continue;
    }
    const double y = solution.point(m.time_index)[m.component];
    model_[row + j] = y;
    residuals_[row + j] = (y - m.value) / m.sigma;
    for (std::size_t k = 0; k < ns; ++k)
      jacobian_[(row + j) * ns + k] =
          x.set_by_condition[k] ? 0.0 : solution.sensitivity(m.time_index, m.component, k) / m.sigma;
  }
  return true;
}

void FitModel::observe_output(const ResolvedMeasurement& m, const ResolvedExperiment& x, const Solution& solution,
                              std::size_t row) {
  const loader::ProblemInstance& problem = problem_.instance();
  const double rtol = run_.rtol.value_or(1e-6), atol = run_.atol.value_or(1e-6);
  const ObservedOutput output(problem, static_cast<std::uint32_t>(m.output), atol / rtol);
  const double t = x.times[m.time_index];
  const double* y = solution.point(m.time_index);
  // The value as the solve recorded it at the point (in the point's mode), the derivatives
  // by differences of the output at (t, y) after the solve.
  const std::string& name = problem.output_name(static_cast<std::size_t>(m.output));
  const auto var = std::find(solution.variable_names.begin(), solution.variable_names.end(), name);
  if (var == solution.variable_names.end()) throw std::runtime_error("the solve did not record the output '" + name + "'");
  const std::size_t nvars = solution.variable_names.size();
  const double o = solution.variables[m.time_index * nvars + static_cast<std::size_t>(var - solution.variable_names.begin())];
  // Differences after the solve hold only for an output that is a function of (t, y, p):
  // one that also reads the model's mode (an FMU's discrete state, changed by later events)
  // gives another value at the same point now, and is refused rather than differenced.
  if (const double now = output.value(t, y); std::abs(now - o) > 1e-9 * std::abs(o) + 1e-6 * m.sigma)
    throw api::UsageError("the output '" + name + "' at t = " + number_text(t) + " was " + number_text(o) +
                          " when the solve passed and is " + number_text(now) + " at the same (t, y) after it: it "
                          "depends on the model's state beyond y (a mode changed by a later event), so its "
                          "derivatives cannot be taken by differences; observe components of y instead");
  model_[row] = o;
  residuals_[row] = (o - m.value) / m.sigma;
  const std::size_t ns = estimates_.size(), n = problem.info().n;
  std::vector<double> s(n);
  for (std::size_t k = 0; k < ns; ++k) {
    if (x.set_by_condition[k]) {
      jacobian_[row * ns + k] = 0.0;
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) s[i] = solution.sensitivity(m.time_index, i, k);
    double d = output.along(t, y, s.data());
    if (!estimates_[k].initial_value) d += output.along_parameter(t, y, estimates_[k].index);
    jacobian_[row * ns + k] = d / m.sigma;
  }
}

bool FitModel::evaluate_gradient(const std::vector<double>& values, double& cost, std::vector<double>& gradient) {
  gradient.assign(estimates_.size(), 0.0);
  last_values_.clear();  // the Jacobian's cache no longer holds for these residuals
  usage_error_ = nullptr;
  std::size_t row = 0;
  for (std::size_t e = 0; e < experiments_.size(); ++e) {
    if (!adjoint_experiment(e, values, row, gradient)) return false;
    row += experiments_[e].measurements.size();
  }
  cost = 0;
  for (const double r : residuals_) cost += 0.5 * r * r;
  return true;
}

bool FitModel::adjoint_experiment(std::size_t e, const std::vector<double>& values, std::size_t row,
                                  std::vector<double>& gradient) {
  const ResolvedExperiment& x = experiments_[e];
  const std::string in = "experiment '" + x.source->id + "': ";
  // The data terms in time order; each writes its residual and model value as it is met.
  std::vector<std::size_t> order(x.measurements.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return x.measurements[a].time_index < x.measurements[b].time_index;
                   });
  api::Functional functional;
  for (const std::size_t j : order) functional.data_t.push_back(x.times[x.measurements[j].time_index]);
  functional.data_term = [&](std::size_t k, const double* y, double* dy, double*) {
    const std::size_t j = order[k];
    const ResolvedMeasurement& m = x.measurements[j];
    model_[row + j] = y[m.component];
    residuals_[row + j] = (y[m.component] - m.value) / m.sigma;
    dy[m.component] = 1.0 / m.sigma;
    return residuals_[row + j];
  };
  Solution solution;
  const bool ok = run(in, [&] {
    SolveOptions options = prepare(e, values);
    options.sensitivities.clear();
    options.saveat.clear();
    options.output = DK_OUTPUT_END;
    options.adjoint = &functional;
    return options;
  }, solution);
  if (!ok) return false;
  for (std::size_t k = 0; k < estimates_.size(); ++k) {
    if (x.set_by_condition[k]) continue;
    const ResolvedEstimate& est = estimates_[k];
    gradient[k] += est.initial_value ? solution.gradient_y0[est.index] : solution.gradient[est.index];
  }
  return true;
}

bool FitModel::run(const std::string& in, const std::function<SolveOptions()>& options, Solution& solution) {
  ++solves_;
  try {
    solution = daekit::solve(problem_, solver_, options());
  } catch (const UsageError& error) {
    ++failed_;
    failure_ = in + error.what();
    usage_error_ = std::current_exception();
    return false;
  } catch (const std::exception& error) {
    ++failed_;
    failure_ = in + error.what();
    return false;
  }
  api::add_stats(stats_, solution.stats);
  if (solution.success()) return true;
  ++failed_;
  failure_ = in + solution.solver + " " + solution.status_name() + ": " + solution.message;
  return false;
}

}  // namespace daekit::fit
