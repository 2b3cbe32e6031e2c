// The compiled part of the Python module `daekit` (daekit/__init__.py is the rest):
// the library's registry, solve and Solution, and problems written in Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <csignal>
#include <pybind11/stl.h>

#include <cmath>
#include <daekit/api/stat_fields.hpp>
#include <daekit/api/sweep_settings.hpp>
#include <daekit/daekit.hpp>
#include <memory>
#include <mutex>

#include "fit_binding.hpp"
#include "module_support.hpp"
#include "python_problem.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace daekit::python {
namespace {

PyProblemHandle python_problem(const PythonProblemSpec& spec) {
  if (spec.n == 0) throw UsageError("Problem: n must be at least 1");
  if (spec.y0.size() != spec.n) throw UsageError("Problem: y0 must have n = " + std::to_string(spec.n) + " values");
  if (!spec.yp0.empty() && spec.yp0.size() != spec.n) throw UsageError("Problem: yp0 must have n values");
  if (!PyCallable_Check(spec.rhs.ptr())) throw UsageError("Problem: rhs must be a function rhs(t, y)");
  for (const PythonEventFunction& e : spec.events)
    if (!PyCallable_Check(e.g.ptr())) throw UsageError("Problem: event " + e.name + " must be a function g(t, y)");
  if (!spec.on_event.is_none() && !PyCallable_Check(spec.on_event.ptr()))
    throw UsageError("Problem: on_event must be a function on_event(t, y, fired)");
  if (!spec.on_event.is_none() && spec.events.empty())
    throw UsageError("Problem: on_event is given but no events: it would never be called");
  auto problem = std::make_unique<PythonProblem>(spec);
  PythonProblem* raw = problem.get();
  const bool reacts = raw->reacts_to_events();
  return {ProblemHandle::from(std::move(problem), reacts), raw};
}


py::object optional_number(const std::optional<Accuracy>& a, double Accuracy::*field) {
  if (!a || !std::isfinite((*a).*field)) return py::none();
  return py::float_((*a).*field);
}

py::dict plugin_info(const std::string& name) {
  const loader::Plugin& plugin = [&]() -> const loader::Plugin& {
    const loader::Plugin* p = registry().plugins().find(name);
    if (p) return *p;
    // The library's message for an unknown name, with the closest names.
    std::vector<std::string> all = registry().solvers();
    for (const auto& q : registry().problems()) all.push_back(q);
    std::string msg = "unknown plugin '" + name + "'";
    const auto close = api::closest_names(name, all);
    if (!close.empty()) msg += "; did you mean '" + close.front() + "'?";
    throw UsageError(msg);
  }();
  py::dict d("name"_a = plugin.manifest.name, "kind"_a = loader::kind_name(plugin.manifest.kind),
             "version"_a = plugin.manifest.version, "description"_a = plugin.manifest.description,
             "file"_a = plugin.file.string());
  if (plugin.manifest.kind == DK_KIND_SOLVER) {
    const SolverHandle s(plugin);
    const dk_solver_info& i = s.info();
    py::list options;
    for (std::size_t k = 0; k < i.noptions; ++k)
      options.append(py::dict("key"_a = i.options[k].key, "type"_a = i.options[k].type,
                              "default"_a = i.options[k].default_value, "help"_a = i.options[k].help));
    d["order"] = i.order;
    d["max_dae_index"] = i.max_dae_index;
    d["max_mass_kind"] = i.max_mass_kind;
    d["residual_form"] = i.residual_form != 0;
    d["events"] = (i.flags & DK_SOLVER_EVENTS) != 0;
    d["dense"] = (i.flags & DK_SOLVER_KEEP_DENSE) != 0;
    d["options"] = options;
  } else {
    const ProblemHandle p = registry().problem(name);
    const dk_problem_info& i = p.info();
    py::list components, params;
    for (std::size_t k = 0; k < i.n; ++k) components.append(api::component_name(i, k));
    for (std::size_t k = 0; k < i.nparams; ++k)
      params.append(py::dict("name"_a = i.params[k].name, "default"_a = i.params[k].default_value,
                             "help"_a = i.params[k].help));
    d["title"] = i.title;
    d["n"] = i.n;
    d["t0"] = i.t0;
    d["tend"] = i.tend;
    d["components"] = components;
    d["index"] = std::vector<int>(i.index, i.index + i.n);
    d["differential"] = std::vector<int>(i.differential, i.differential + i.n);
    d["parameters"] = params;
    d["has_reference"] = i.has_reference != 0;
  }
  return d;
}


std::shared_ptr<Solution> run_solve(const PyProblemHandle& problem, const std::string& solver_name,
                                    const SolveOptions& options) {
  const SolverHandle solver = registry().solver(solver_name);
  std::shared_ptr<Solution> s;
  SigintDuringSolve sigint;
  SolveOptions watched = options;
  watched.interrupt = sigint.flag();
  {
    py::gil_scoped_release released;  // Python callbacks take the GIL back for themselves
    s = std::make_shared<Solution>(solve(problem.handle, solver, watched));
  }
  if (problem.python)
    if (auto error = problem.python->take_error()) throw std::move(*error);  // the callback's own exception
  sigint.hand_over();
  return s;
}

}  // namespace

namespace {

// The problems: a plugin's, or one written in Python.
void bind_problems(py::module_& m) {
  py::class_<PyProblemHandle>(m, "_ProblemHandle")
      .def_property_readonly("name", [](const PyProblemHandle& p) { return p.handle.name(); })
      .def_property_readonly("n", [](const PyProblemHandle& p) { return p.handle.info().n; })
      .def_property_readonly("root_names", [](const PyProblemHandle& p) {
        // The event functions' names by index, None where the problem gives none (as the
        // command's JSON report's null).
        const dk_problem_info& info = p.handle.info();
        py::list names;
        for (std::size_t k = 0; DK_HAS_FIELD(&info, dk_problem_info, nroots) && k < info.nroots; ++k) {
          const std::string name = api::root_name(info, k);
          names.append(name.empty() ? py::object(py::none()) : py::object(py::str(name)));
        }
        return names;
      });
  m.def("_plugin_problem", [](const std::string& name, const std::map<std::string, std::string>& params) {
    return PyProblemHandle{registry().problem(name, params), nullptr};
  });
  m.def("_tolerances", [](const std::string& text) { return api::parse_tolerances(text, "tols"); });
  m.attr("_reference_solver") = api::default_reference_solver;
  m.attr("_reference_tol") = api::default_reference_tol;
  m.attr("_sweep_max_steps") = api::sweep_max_steps;
  m.def("_python_problem",
        [](std::string name, std::size_t n, py::object rhs, py::object jac, py::object mass, py::object exact,
           std::vector<double> y0, std::vector<double> yp0, double t0, double tend,
           std::vector<std::uint8_t> differential, std::vector<std::uint8_t> index,
           std::vector<std::tuple<py::object, std::string, int, long, double>> events, py::object on_event,
           std::vector<std::pair<std::string, double>> parameters) {
          PythonProblemSpec spec;
          spec.name = std::move(name);
          spec.n = n;
          spec.rhs = std::move(rhs);
          spec.jac = std::move(jac);
          spec.mass = std::move(mass);
          spec.exact = std::move(exact);
          spec.y0 = std::move(y0);
          spec.yp0 = std::move(yp0);
          spec.t0 = t0;
          spec.tend = tend;
          spec.differential = std::move(differential);
          spec.index = std::move(index);
          for (auto& [g, event_name, direction, terminal_after, time_scale] : events)
            spec.events.push_back({std::move(g), std::move(event_name), direction, terminal_after, time_scale});
          spec.on_event = std::move(on_event);
          spec.parameters = std::move(parameters);
          try {
            return python_problem(spec);
          } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("Problem: ") + e.what());
          }
        });
}

// The settings of a solve, as the library's SolveOptions.
void bind_options(py::module_& m) {
  py::class_<SolveOptions>(m, "_Options")
      .def(py::init<>())
      .def_readwrite("rtol", &SolveOptions::rtol)
      .def_readwrite("atol", &SolveOptions::atol)
      .def_readwrite("tend", &SolveOptions::tend)
      .def_readwrite("h0", &SolveOptions::h0)
      .def_readwrite("hmin", &SolveOptions::hmin)
      .def_readwrite("hmax", &SolveOptions::hmax)
      .def_readwrite("max_steps", &SolveOptions::max_steps)
      .def_readwrite("max_events", &SolveOptions::max_events)
      .def_readwrite("event_samples", &SolveOptions::event_samples)
      .def_readwrite("derivative_check", &SolveOptions::derivative_check)
      .def_readwrite("solver_options", &SolveOptions::solver_options)
      .def_readwrite("jacobian", &SolveOptions::jacobian)
      .def_readwrite("init", &SolveOptions::init)
      .def_readwrite("index_scaling", &SolveOptions::index_scaling)
      .def_readwrite("suppress_algebraic", &SolveOptions::suppress_algebraic)
      .def_readwrite("saveat", &SolveOptions::saveat)
      .def_readwrite("dense", &SolveOptions::dense)
      .def_readwrite("output_vars", &SolveOptions::output_vars)
      .def_readwrite("sensitivities", &SolveOptions::sensitivities)
      .def_readwrite("sensitivity_error_control", &SolveOptions::sensitivity_error_control)
      .def_property(
          "output_end_only", [](const SolveOptions& o) { return o.output == DK_OUTPUT_END; },
          [](SolveOptions& o, bool end) { o.output = end ? DK_OUTPUT_END : DK_OUTPUT_EVERY_STEP; });
}

// A solve's result; its arrays are views on the solution's own memory.
void bind_solution(py::module_& m) {
  py::class_<Solution, std::shared_ptr<Solution>>(m, "_Solution")
      .def_property_readonly("status", &Solution::status_name)
      .def_readonly("message", &Solution::message)
      .def_property_readonly("success", &Solution::success)
      .def_readonly("problem", &Solution::problem)
      .def_readonly("solver", &Solution::solver)
      .def_readonly("t_reached", &Solution::t_reached)
      .def_readonly("rtol", &Solution::rtol)
      .def_readonly("atol", &Solution::atol)
      .def_property_readonly("stats", [](const Solution& s) { return stats_dict(s.stats); })
      .def_property_readonly("scd", [](const Solution& s) { return optional_number(s.accuracy, &Accuracy::scd); })
      .def_property_readonly("mescd", [](const Solution& s) { return optional_number(s.accuracy, &Accuracy::mescd); })
      .def_readonly("reference_used", &Solution::reference_used)
      // Views on the solution's own memory (no copy); they keep the solution alive.
      .def_property_readonly("t",
                             [](py::object self) {
                               const auto& s = self.cast<const Solution&>();
                               return py::array_t<double>({static_cast<py::ssize_t>(s.t.size())}, {sizeof(double)},
                                                          s.t.data(), self);
                             })
      .def_property_readonly("y",
                             [](py::object self) {
                               const auto& s = self.cast<const Solution&>();
                               const auto n = static_cast<py::ssize_t>(s.n);
                               return py::array_t<double>({static_cast<py::ssize_t>(s.t.size()), n},
                                                          {static_cast<py::ssize_t>(sizeof(double)) * n,
                                                           static_cast<py::ssize_t>(sizeof(double))},
                                                          s.y.data(), self);
                             })
      .def_readonly("variable_names", &Solution::variable_names)
      .def_property_readonly("variables",
                             [](py::object self) {
                               const auto& s = self.cast<const Solution&>();
                               const auto width = static_cast<py::ssize_t>(s.variable_names.size());
                               const auto rows = width == 0 ? py::ssize_t{0} : static_cast<py::ssize_t>(s.variables.size()) / width;
                               return py::array_t<double>({rows, width},
                                                          {static_cast<py::ssize_t>(sizeof(double)) * width,
                                                           static_cast<py::ssize_t>(sizeof(double))},
                                                          s.variables.data(), self);
                             })
      .def_readonly("sensitivity_names", &Solution::sensitivity_names)
      // (points x n x ns): [p, i, k] = d y_i / d q_k at point p, a view on the solution.
      .def_property_readonly("sensitivities",
                             [](py::object self) {
                               const auto& s = self.cast<const Solution&>();
                               const auto n = static_cast<py::ssize_t>(s.n);
                               const auto ns = static_cast<py::ssize_t>(s.sensitivity_count());
                               const auto block = n * ns;
                               const auto rows = block == 0 ? py::ssize_t{0} : static_cast<py::ssize_t>(s.s.size()) / block;
                               const auto d = static_cast<py::ssize_t>(sizeof(double));
                               return py::array_t<double>({rows, n, ns}, {d * block, d, d * n}, s.s.data(), self);
                             })
      .def_property_readonly("events",
                             [](const Solution& s) {
                               py::list out;
                               for (const auto& e : s.events)
                                 out.append(py::dict("t"_a = e.t, "kind"_a = e.kind == DK_EVENT_ROOT ? "root" : "time",
                                                     "index"_a = e.index, "direction"_a = e.direction));
                               return out;
                             })
      .def_property_readonly("has_dense", &Solution::has_dense)
      .def("_at", [](const Solution& s, double t) {
        py::array_t<double> out(static_cast<py::ssize_t>(s.n));
        s.at(t, out.mutable_data());
        return out;
      });
}

}  // namespace

PYBIND11_MODULE(_daekit, m) {
  m.doc() = "daekit: stiff ODE and DAE solver plugins on problem plugins or on problems written in Python";
  py::register_exception<UsageError>(m, "UsageError", PyExc_ValueError);

  m.def("solvers", [] { return registry().solvers(); });
  m.def("problems", [] { return registry().problems(); });
  m.def("info", &plugin_info, "name"_a);
  m.def("skipped", [] {
    py::list out;
    for (const auto& r : registry().skipped()) out.append(py::make_tuple(r.file.string(), r.reason));
    return out;
  });

  bind_problems(m);
  bind_options(m);
  bind_solution(m);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::out_of_range& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::logic_error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def("_solve", &run_solve, "problem"_a, "solver"_a, "options"_a);
  bind_fit(m);
}

}  // namespace daekit::python
