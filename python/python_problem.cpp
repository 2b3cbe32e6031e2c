#include "python_problem.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace daekit::python {

PythonProblem::PythonProblem(const PythonProblemSpec& spec) : spec_(spec) {
  info_.name = spec.name;
  info_.title = "defined in Python";
  info_.n = spec.n;
  info_.t0 = spec.t0;
  info_.tend = spec.tend;
  info_.analytic_jacobian = !spec.jac.is_none();
  info_.has_yp0 = !spec.yp0.empty();
  info_.reference_at_any_time = !spec.exact.is_none();
  info_.index = spec.index;
  info_.differential = spec.differential;
  for (const auto& [name, value] : spec.parameters) info_.parameters.push_back({name, value, 0.0});
  for (const PythonEventFunction& e : spec.events) {
    ProblemInfo::Root root;
    root.name = e.name;
    root.direction = e.direction;
    root.terminal = e.terminal_after == 1;  // later occurrences are counted in on_event
    root.time_scale = e.time_scale;
    info_.roots.push_back(root);
  }
  occurrences_.assign(spec.events.size(), 0);
  if (!spec.mass.is_none()) {
    if (PyCallable_Check(spec.mass.ptr())) {
      info_.mass = MassKind::state_dependent;
    } else {
      // A constant matrix, n x n, read once.
      auto m = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(spec.mass);
      if (!m || m.ndim() != 2 || m.shape(0) != static_cast<py::ssize_t>(spec.n) ||
          m.shape(1) != static_cast<py::ssize_t>(spec.n))
        throw std::invalid_argument("mass must be an n x n matrix or a function mass(t, y)");
      constant_mass_.resize(spec.n * spec.n);
      for (std::size_t i = 0; i < spec.n; ++i)
        for (std::size_t j = 0; j < spec.n; ++j) constant_mass_[j * spec.n + i] = m.at(i, j);
      info_.mass = MassKind::constant;
      if (info_.differential.empty()) {
        // A component is algebraic when its column of M is zero.
        info_.differential.assign(spec.n, 0);
        for (std::size_t j = 0; j < spec.n; ++j)
          for (std::size_t i = 0; i < spec.n; ++i)
            if (constant_mass_[j * spec.n + i] != 0.0) info_.differential[j] = 1;
      }
    }
  } else if (!info_.differential.empty() &&
             std::any_of(info_.differential.begin(), info_.differential.end(), [](std::uint8_t d) { return d == 0; })) {
    info_.mass = MassKind::constant;  // diag(differential), the semi-explicit form
  }
}

PythonProblem::~PythonProblem() {
  // Python objects are released with the GIL held, wherever the last owner lets go.
  py::gil_scoped_acquire gil;
  error_.reset();
  spec_.rhs = py::object();
  spec_.jac = py::object();
  spec_.mass = py::object();
  spec_.exact = py::object();
  spec_.on_event = py::object();
  for (PythonEventFunction& e : spec_.events) e.g = py::object();
}

py::array_t<double> PythonProblem::parameter_values() const {
  return py::array_t<double>(static_cast<py::ssize_t>(p().size()), p().data());
}

std::string PythonProblem::keep_exception(py::error_already_set& raised, const std::string& callback) {
  std::string message = callback + " raised " + raised.what();
  if (!error_) error_ = std::make_unique<py::error_already_set>(std::move(raised));
  return message;
}

std::optional<py::error_already_set> PythonProblem::take_error() {
  if (!error_) return std::nullopt;
  std::optional<py::error_already_set> e(std::move(*error_));
  error_.reset();
  return e;
}

Eval PythonProblem::call(const py::object& fn, const char* what, double t, const double* y, double* out,
                         std::size_t rows, std::size_t cols) {
  py::gil_scoped_acquire gil;
  if (error_) return Eval::fatal;  // the first exception ends the solve; no further calls
  try {
    py::array_t<double> y_arr(static_cast<py::ssize_t>(spec_.n), y);  // a copy: the solver's buffer is reused
    py::object answer = invoke(fn, t, y_arr);
    auto a = py::array_t<double, py::array::f_style | py::array::forcecast>::ensure(answer);
    const std::size_t size = rows * cols;
    if (!a || static_cast<std::size_t>(a.size()) != size ||
        (cols > 1 && (a.ndim() != 2 || a.shape(0) != static_cast<py::ssize_t>(rows))))
      return fail(std::string(what) + " returned " + std::string(py::str(py::repr(answer)).cast<std::string>()).substr(0, 80) +
                  "; expected " + (cols > 1 ? "an n x n array" : "an array of n values") + " (n = " +
                  std::to_string(spec_.n) + ")");
    std::copy(a.data(), a.data() + size, out);  // column-major either way
    return Eval::ok;
  } catch (py::error_already_set& e) {
    return fail(keep_exception(e, what));
  }
}

void PythonProblem::initial_values(Vector y0, Vector yp0) {
  std::fill(occurrences_.begin(), occurrences_.end(), 0);  // a new solve starts here
  for (std::size_t i = 0; i < spec_.n; ++i) y0[static_cast<Eigen::Index>(i)] = spec_.y0[i];
  if (!spec_.yp0.empty())
    for (std::size_t i = 0; i < spec_.n; ++i) yp0[static_cast<Eigen::Index>(i)] = spec_.yp0[i];
}

Eval PythonProblem::rhs(double t, ConstVector y, Vector f) {
  return call(spec_.rhs, "rhs(t, y)", t, y.data(), f.data(), spec_.n, 1);
}

Eval PythonProblem::jacobian(double t, ConstVector y, MatrixView dfdy) {
  if (spec_.jac.is_none()) return Eval::not_provided;
  matrix_.resize(spec_.n * spec_.n);
  const Eval e = call(spec_.jac, "jac(t, y)", t, y.data(), matrix_.data(), spec_.n, spec_.n);
  if (e != Eval::ok) return e;
  const auto n = static_cast<Eigen::Index>(spec_.n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) dfdy(i, j) = matrix_[static_cast<std::size_t>(j * n + i)];
  return Eval::ok;
}

Eval PythonProblem::mass(double t, ConstVector y, MatrixView m) {
  const auto n = static_cast<Eigen::Index>(spec_.n);
  if (!constant_mass_.empty()) {
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) m(i, j) = constant_mass_[static_cast<std::size_t>(j * n + i)];
    return Eval::ok;
  }
  if (spec_.mass.is_none()) return Problem::mass(t, y, m);
  matrix_.resize(spec_.n * spec_.n);
  const Eval e = call(spec_.mass, "mass(t, y)", t, y.data(), matrix_.data(), spec_.n, spec_.n);
  if (e != Eval::ok) return e;
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) m(i, j) = matrix_[static_cast<std::size_t>(j * n + i)];
  return Eval::ok;
}

Eval PythonProblem::reference_at(double t, Vector yref) {
  if (spec_.exact.is_none()) return Eval::not_provided;
  py::gil_scoped_acquire gil;
  try {
    const py::object answer = invoke(spec_.exact, t);
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(answer);
    if (!a || a.ndim() != 1 || static_cast<std::size_t>(a.size()) != spec_.n) {
      // A wrong shape is the caller's error, raised from solve() as ValueError: never a
      // run that passes without its score.
      const std::string message = "exact(t) must return " + std::to_string(spec_.n) + " values (a 1-D array), not " +
                                  std::string(py::str(py::repr(answer))).substr(0, 80);
      if (!error_) {
        PyErr_SetString(PyExc_ValueError, message.c_str());
        error_ = std::make_unique<py::error_already_set>();
      }
      return fail(message);
    }
    std::copy(a.data(), a.data() + spec_.n, yref.data());
    return Eval::ok;
  } catch (py::error_already_set& e) {
    // Raised again from solve(), as a callback's exception is: a broken exact solution
    // must not pass as a run without a score.
    return fail(keep_exception(e, "exact(t)"));
  }
}

Eval PythonProblem::roots(double t, ConstVector y, Vector g) {
  py::gil_scoped_acquire gil;
  if (error_) return Eval::fatal;
  const py::array_t<double> y_arr(static_cast<py::ssize_t>(spec_.n), y.data());
  for (std::size_t i = 0; i < spec_.events.size(); ++i) {
    const PythonEventFunction& e = spec_.events[i];
    py::object answer;
    try {
      answer = invoke(e.g, t, y_arr);
    } catch (py::error_already_set& raised) {
      return fail(keep_exception(raised, "event function " + e.name + "(t, y)"));
    }
    // A number: a float, an int, a NumPy scalar or a one-element array.
    const double value = PyFloat_AsDouble(answer.ptr());
    if (value == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return fail("event function " + e.name + "(t, y) returned " +
                  std::string(py::str(py::repr(answer))).substr(0, 80) + "; expected a number");
    }
    g[static_cast<Eigen::Index>(i)] = value;
  }
  return Eval::ok;
}

EventAction PythonProblem::on_event(const Event& event, Vector y) {
  py::gil_scoped_acquire gil;
  bool stop = false;
  for (const std::int32_t i : event.fired) {
    const auto k = static_cast<std::size_t>(i);
    if (spec_.events[k].terminal_after > 1 && ++occurrences_[k] >= spec_.events[k].terminal_after) stop = true;
  }
  if (spec_.on_event.is_none()) return stop ? EventAction::stop : EventAction::proceed;
  const auto n = static_cast<py::ssize_t>(spec_.n);
  py::list fired;
  for (const std::int32_t i : event.fired) fired.append(i);
  py::object answer;
  try {
    answer = invoke(spec_.on_event, event.t, py::array_t<double>(n, y.data()), fired);
  } catch (py::error_already_set& raised) {
    // The run ends here as an evaluation failure (on_event returns no Eval).
    throw std::runtime_error(keep_exception(raised, "on_event(t, y, fired)"));
  }
  if (answer.is_none()) return stop ? EventAction::stop : EventAction::proceed;
  if (py::isinstance<py::str>(answer) && answer.cast<std::string>() == "stop") return EventAction::stop;
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(answer);
  if (!a || a.ndim() != 1 || a.size() != n || py::isinstance<py::str>(answer))
    throw std::runtime_error("on_event(t, y, fired) returned " + std::string(py::str(py::repr(answer))).substr(0, 80) +
                             "; expected None, the n = " + std::to_string(spec_.n) + " values of y after the event, or 'stop'");
  std::copy(a.data(), a.data() + n, y.data());
  if (stop) return EventAction::stop;
  // After a reset a DAE's algebraic components are solved again from the new y.
  const bool algebraic = std::find(info_.differential.begin(), info_.differential.end(), 0) != info_.differential.end();
  return algebraic ? EventAction::reinit : EventAction::proceed;
}

bool PythonProblem::reacts_to_events() const {
  return !spec_.on_event.is_none() ||
         std::any_of(spec_.events.begin(), spec_.events.end(), [](const PythonEventFunction& e) { return e.terminal_after > 1; });
}

}  // namespace daekit::python
