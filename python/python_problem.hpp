// A problem written in Python (daekit.Problem): a daekit::Problem whose callbacks call
// Python functions. Solvers run with the GIL released; each callback takes it back. A
// Python exception in a callback ends the solve as an evaluation failure and is kept,
// so that solve() re-raises the very exception (type, message, traceback).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <daekit/sdk/problem.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace daekit::python {

namespace py = pybind11;

// One event function g(t, y) -> float, as scipy's solve_ivp takes them: an event is a
// sign change of g in `direction` (DK_ROOT_*); the run ends at its `terminal_after`-th
// occurrence (0: never).
struct PythonEventFunction {
  py::object g;
  std::string name;
  int direction = DK_ROOT_BOTH;
  long terminal_after = 0;
  double time_scale = 0.0;  // ProblemInfo::Root::time_scale
};

struct PythonProblemSpec {
  std::string name = "python_problem";
  std::size_t n = 0;
  double t0 = 0, tend = 1;
  std::vector<double> y0, yp0;
  py::object rhs, jac, mass, exact;  // callables (mass: a callable or a constant matrix)
  std::vector<std::uint8_t> differential, index;
  std::vector<PythonEventFunction> events;
  // Named real parameters and their values: every callback then takes p (their values, in
  // this order) as its last argument, as scipy's args; sensitivities and fits take them.
  std::vector<std::pair<std::string, double>> parameters;
  // on_event(t, y, fired) -> None (nothing changes), y+ (a reset) or "stop"; None: none.
  py::object on_event;
};

class PythonProblem : public Problem {
 public:
  explicit PythonProblem(const PythonProblemSpec& spec);
  ~PythonProblem() override;

  void initial_values(Vector y0, Vector yp0) override;
  Eval rhs(double t, ConstVector y, Vector f) override;
  Eval jacobian(double t, ConstVector y, MatrixView dfdy) override;
  Eval mass(double t, ConstVector y, MatrixView m) override;
  Eval reference_at(double t, Vector yref) override;
  Eval roots(double t, ConstVector y, Vector g) override;
  EventAction on_event(const Event& event, Vector y) override;

  // Whether on_event must be called at events (a reaction, or terminal counts to keep):
  // else solvers report the events and go on without restarting.
  bool reacts_to_events() const;

  // The exception a callback raised during the last solve, taken out (GIL held).
  std::optional<py::error_already_set> take_error();

 private:
  // fn(arguments...), with p last when the problem has parameters (as scipy's args).
  template <class... Arguments>
  py::object invoke(const py::object& fn, Arguments&&... arguments) {
    if (info_.parameters.empty()) return fn(std::forward<Arguments>(arguments)...);
    return fn(std::forward<Arguments>(arguments)..., parameter_values());
  }
  // The message for a callback that raised; the first exception is kept for solve() to
  // raise again (later callbacks are not called: each fails at once).
  std::string keep_exception(py::error_already_set& raised, const std::string& callback);
  py::array_t<double> parameter_values() const;  // a copy: a callback may keep it
  // Calls fn(t, y) and copies its answer (expected_size values) into out, or records why not.
  Eval call(const py::object& fn, const char* what, double t, const double* y, double* out, std::size_t rows,
            std::size_t cols);
  PythonProblemSpec spec_;
  std::vector<double> constant_mass_;  // column-major, when mass is a matrix
  std::vector<double> matrix_;         // what jac or mass returned, column-major (sized once)
  std::vector<long> occurrences_;      // of each event function, for terminal_after > 1
  std::unique_ptr<py::error_already_set> error_;
};

}  // namespace daekit::python
