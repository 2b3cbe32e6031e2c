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
#include <vector>

namespace daekit::python {

namespace py = pybind11;

struct PythonProblemSpec {
  std::string name = "python_problem";
  std::size_t n = 0;
  double t0 = 0, tend = 1;
  std::vector<double> y0, yp0;
  py::object rhs, jac, mass, exact;  // callables (mass: a callable or a constant matrix)
  std::vector<std::uint8_t> differential, index;
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

  // The exception a callback raised during the last solve, taken out (GIL held).
  std::optional<py::error_already_set> take_error();

 private:
  // Calls fn(t, y) and copies its answer (expected_size values) into out, or records why not.
  Eval call(const py::object& fn, const char* what, double t, const double* y, double* out, std::size_t rows,
            std::size_t cols);
  PythonProblemSpec spec_;
  std::vector<double> constant_mass_;  // column-major, when mass is a matrix
  std::vector<double> matrix_;         // what jac or mass returned, column-major (sized once)
  std::unique_ptr<py::error_already_set> error_;
};

}  // namespace daekit::python
