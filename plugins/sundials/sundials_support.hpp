// What the IDA and CVODE adapters share: SUNDIALS objects with owners and the
// capture of SUNDIALS' own error messages; their integration loop is the core's
// (numerics/one_step_loop.hpp). No SUNDIALS type leaves this plugin.
#pragma once

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdlib>
#include <daekit/numerics/driver.hpp>
#include <daekit/numerics/one_step_loop.hpp>
#include <daekit/output_sink.hpp>
#include <daekit/problem_view.hpp>
#include <daekit/solve_request.hpp>
#include <sstream>
#include <string>

namespace daekit::plugins::sundials {

class Context {
 public:
  Context() { SUNContext_Create(nullptr, &ctx_); }
  ~Context() { SUNContext_Free(&ctx_); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  operator SUNContext() const { return ctx_; }

 private:
  SUNContext ctx_ = nullptr;
};

class Vector {
 public:
  Vector(Eigen::Index n, SUNContext ctx) : v_(N_VNew_Serial(n, ctx)) {}
  ~Vector() { N_VDestroy(v_); }
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;
  operator N_Vector() const { return v_; }
  Eigen::Map<Eigen::VectorXd> map() { return {N_VGetArrayPointer(v_), N_VGetLength(v_)}; }

 private:
  N_Vector v_;
};

struct LinearAlgebra {
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  ~LinearAlgebra() {
    if (solver) SUNLinSolFree(solver);
    if (matrix) SUNMatDestroy(matrix);
  }
};

// SUNDIALS reports errors through a handler: keep the last message for our result.
struct ErrorCapture {
  std::string last;
  static void handler(int, const char* module, const char* function, char* msg, void* data) {
    auto* self = static_cast<ErrorCapture*>(data);
    self->last = std::string(module ? module : "") + "/" + (function ? function : "") + ": " + (msg ? msg : "");
  }
};

// Error weights 1 / (rtol_i |y_i| + atol_i): per-component rtol, which SUNDIALS'
// own tolerance setters do not offer.
inline int error_weights(const PerComponent& rtol, const PerComponent& atol, N_Vector y, N_Vector w) {
  const double* yv = N_VGetArrayPointer(y);
  double* wv = N_VGetArrayPointer(w);
  for (Eigen::Index i = 0; i < rtol.size(); ++i) {
    const double s = rtol[i] * std::abs(yv[i]) + atol[i];
    if (!(s > 0.0)) return -1;
    wv[i] = 1.0 / s;
  }
  return 0;
}

// What both integrators count, mapped onto our statistics.
struct Counters {
  long steps = 0, error_test_failures = 0, convergence_failures = 0, jacobians = 0, difference_evaluations = 0,
       setups = 0, newton_iterations = 0;
  // With a Krylov solver: its iterations and failures (J v products are counted where
  // they are made, numerics/jacobian_product.hpp).
  long linear_iterations = 0, linear_convergence_failures = 0;
  int order = 0;
  double h_last = 0.0;

  // A restart (IDAReInit, CVodeReInit) zeroes SUNDIALS' counters: the adapters carry
  // the earlier segments' sums and add them.
  Counters& operator+=(const Counters& o) {
    steps += o.steps, error_test_failures += o.error_test_failures, convergence_failures += o.convergence_failures;
    jacobians += o.jacobians, difference_evaluations += o.difference_evaluations, setups += o.setups;
    newton_iterations += o.newton_iterations;
    linear_iterations += o.linear_iterations, linear_convergence_failures += o.linear_convergence_failures;
    return *this;
  }
};

// jacobians_counted: our IterationMatrix evaluated (and counted) the Jacobians already;
// krylov: SUNDIALS' setups were preconditioner setups (counted by the preconditioner), no LUs.
inline void add_counters(Stats& s, const Counters& c, bool jacobians_counted, bool krylov = false) {
  s.accepted += c.steps;
  s.rejected += c.error_test_failures;
  s.steps += c.steps + c.error_test_failures + c.convergence_failures;
  if (!jacobians_counted) s.njac += c.jacobians;
  s.nfev_jac += c.difference_evaluations;
  if (!krylov) s.nlu += c.setups;
  s.nlin_iters += c.linear_iterations;
  s.nlin_conv_fails += c.linear_convergence_failures;
  s.nsolve += c.newton_iterations;
  s.nnewton += c.newton_iterations;
  s.nnewton_fail += c.convergence_failures;
  s.order_last = c.order;
  s.h_last = c.h_last;
}

// IDAGetReturnFlagName / CVodeGetReturnFlagName return a string the caller frees.
inline std::string flag_name(char* (*name_of)(long int), int flag, const char* fallback) {
  char* name = name_of(flag);
  std::string s = name ? name : fallback;
  free(name);
  return s;
}

// SUNDIALS' own last message and, where the model failed evaluations, the model's last
// word on it ("the right-hand side routine failed" alone hides the cause).
inline std::string last_message(const ErrorCapture& errors, const ProblemView& problem) {
  const std::string model = problem.failure_summary();
  if (errors.last.empty()) return model.empty() ? problem.last_message() : model;
  return model.empty() ? errors.last : errors.last + " (" + model + ")";
}

// A model evaluation's result as SUNDIALS wants it: 0 ok, > 0 recoverable, < 0 fatal.
inline int to_sundials(Eval e) { return e == Eval::ok ? 0 : e == Eval::recoverable ? 1 : -1; }

}  // namespace daekit::plugins::sundials
