#include "fit_binding.hpp"

#include <pybind11/stl.h>

#include <daekit/fit/fit.hpp>

#include "module_support.hpp"

namespace daekit::python {
namespace {

using namespace pybind11::literals;

// Experiments from (id, CSV text, source) triples, read by the library's own reader so
// Python data get the command's checks and messages; conditions likewise.
std::vector<fit::Experiment> experiments_of(const std::vector<std::tuple<std::string, std::string, std::string>>& data,
                                            const std::string& conditions) {
  std::vector<fit::Experiment> out;
  for (const auto& [id, text, source] : data) out.push_back(fit::parse_experiment(text, id, source));
  if (!conditions.empty()) fit::parse_conditions(conditions, "conditions", out);
  return out;
}

py::dict result_dict(const fit::FitResult& r) {
  py::list experiments, starts;
  for (const auto& e : r.experiments) {
    py::list points;
    for (const auto& p : e.points)
      points.append(py::dict("t"_a = p.t, "name"_a = p.name, "value"_a = p.value, "sigma"_a = p.sigma,
                             "model"_a = p.model, "residual"_a = p.residual));
    experiments.append(py::dict("id"_a = e.id, "chi2"_a = e.chi2, "points"_a = points));
  }
  for (const auto& s : r.starts)
    starts.append(py::dict("initial"_a = s.initial, "final"_a = s.final, "status"_a = s.status, "cost"_a = s.cost,
                           "iterations"_a = s.iterations));
  return py::dict("status"_a = r.status, "message"_a = r.message, "names"_a = r.names, "initial"_a = r.initial,
                  "estimates"_a = r.estimates, "covariance"_a = r.covariance, "standard_errors"_a = r.standard_errors,
                  "lower"_a = r.lower, "upper"_a = r.upper, "identifiability"_a = r.identifiability,
                  "chi2"_a = r.chi2, "residual_norm"_a = r.residual_norm, "measurements"_a = r.measurements,
                  "iterations"_a = r.iterations, "gradient"_a = r.gradient, "solves"_a = r.solves,
                  "failed_solves"_a = r.failed_solves,
                  "stats"_a = stats_dict(r.solver_stats), "wall_s"_a = r.wall_s, "experiments"_a = experiments,
                  "starts"_a = starts);
}

py::dict run_fit(const PyProblemHandle& problem, const std::string& solver_name,
                 const std::vector<std::tuple<std::string, std::string, std::string>>& data,
                 const std::string& conditions, const std::vector<fit::Estimate>& estimates,
                 const SolveOptions& options, const py::dict& optimiser) {
  const SolverHandle solver = registry().solver(solver_name);
  fit::FitSettings s;
  s.run = options;
  s.estimate = estimates;
  s.max_iterations = optimiser["max_iterations"].cast<int>();
  s.method = optimiser["method"].cast<std::string>();
  s.gradient = optimiser["gradient"].cast<std::string>();
  s.starts = optimiser["starts"].cast<int>();
  s.seed = optimiser["seed"].cast<std::uint64_t>();
  s.confidence = optimiser["confidence"].cast<double>();
  s.function_tolerance = optimiser["function_tolerance"].cast<double>();
  s.parameter_tolerance = optimiser["parameter_tolerance"].cast<double>();
  s.gradient_tolerance = optimiser["gradient_tolerance"].cast<double>();
  const std::vector<fit::Experiment> experiments = experiments_of(data, conditions);
  SigintDuringSolve sigint;
  s.interrupt = sigint.flag();
  fit::FitResult r;
  std::vector<fit::ModelCurve> curves;
  {
    py::gil_scoped_release released;  // Python callbacks take the GIL back for themselves
    r = fit::fit(problem.handle, solver, experiments, s);
    if (!r.estimates.empty() && !r.experiments.empty())
      curves = fit::model_curves(problem.handle, solver, experiments, s, r.estimates);
  }
  if (problem.python)
    if (auto error = problem.python->take_error()) throw std::move(*error);
  sigint.hand_over();
  py::dict d = result_dict(r);
  py::list model;
  for (const auto& c : curves)
    model.append(py::dict("id"_a = c.id, "names"_a = c.names, "t"_a = c.t, "values"_a = c.values, "failure"_a = c.failure));
  d["curves"] = model;
  return d;
}

}  // namespace

void bind_fit(py::module_& m) {
  py::class_<fit::Estimate>(m, "_Estimate")
      .def(py::init<>())
      .def_readwrite("name", &fit::Estimate::name)
      .def_readwrite("initial", &fit::Estimate::initial)
      .def_readwrite("lower", &fit::Estimate::lower)
      .def_readwrite("upper", &fit::Estimate::upper)
      .def_readwrite("log_scale", &fit::Estimate::log_scale);
  m.def("_fit", &run_fit, "problem"_a, "solver"_a, "data"_a, "conditions"_a, "estimates"_a, "options"_a, "optimiser"_a);
}

}  // namespace daekit::python
