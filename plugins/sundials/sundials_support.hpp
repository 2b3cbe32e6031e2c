// What the IDA and CVODE adapters share: SUNDIALS objects with owners, the
// capture of SUNDIALS' own error messages, and the one-step integration loop
// that gives both the same output, stop-time and step-limit behaviour as the
// core driver. No SUNDIALS type leaves this plugin.
#pragma once

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdlib>
#include <daekit/numerics/driver.hpp>
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
inline int error_weights(const Eigen::VectorXd& rtol, const Eigen::VectorXd& atol, N_Vector y, N_Vector w) {
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
  int order = 0;
  double h_last = 0.0;

  // A restart (IDAReInit, CVodeReInit) zeroes SUNDIALS' counters: the adapters carry
  // the earlier segments' sums and add them.
  Counters& operator+=(const Counters& o) {
    steps += o.steps, error_test_failures += o.error_test_failures, convergence_failures += o.convergence_failures;
    jacobians += o.jacobians, difference_evaluations += o.difference_evaluations, setups += o.setups;
    newton_iterations += o.newton_iterations;
    return *this;
  }
};

// jacobians_counted: our IterationMatrix evaluated (and counted) the Jacobians already.
inline void add_counters(Stats& s, const Counters& c, bool jacobians_counted) {
  s.accepted += c.steps;
  s.rejected += c.error_test_failures;
  s.steps += c.steps + c.error_test_failures + c.convergence_failures;
  if (!jacobians_counted) s.njac += c.jacobians;
  s.nfev_jac += c.difference_evaluations;
  s.nlu += c.setups;
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

// SUNDIALS' root directions (0 both, > 0 rising only, < 0 falling only) from the problem's.
inline std::vector<int> root_directions(const ProblemView& problem) {
  std::vector<int> d(problem.nroots());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = problem.root_direction(i);
  return d;
}

// The problem's sign constraints as SUNDIALS wants them (the same codes); false when none.
inline bool constraint_vector(const ProblemView& problem, N_Vector c) {
  const std::int8_t* codes = problem.constraints();
  if (!codes) return false;
  bool any = false;
  double* v = N_VGetArrayPointer(c);
  for (std::size_t i = 0; i < problem.n(); ++i) {
    v[i] = codes[i];
    any = any || codes[i] != 0;
  }
  return any;
}

// CVodeGetRootInfo / IDAGetRootInfo's answer (+1 rising, -1 falling, 0 not found) as a bracket.
inline RootBracket root_bracket(double t, const std::vector<int>& info) {
  RootBracket root;
  root.t = t;
  for (std::size_t i = 0; i < info.size(); ++i) {
    if (info[i] == 0) continue;
    root.fired.push_back(static_cast<std::int32_t>(i));
    root.directions.push_back(static_cast<std::int8_t>(info[i] > 0 ? 1 : -1));
  }
  return root;
}

// The one-step loop over a SUNDIALS integrator. A Backend provides
//   int step(double tout, double* t);   // one internal step (one-step mode), flag as SUNDIALS returns it
//   bool interpolate(double t, Eigen::VectorXd& out);
//   Eigen::Map<Eigen::VectorXd> state();
//   void set_stop_time(double t);
//   int restart(double t);               // at a breakpoint: reinitialise from the current state
//   long steps();                        // attempted steps: accepted and failed (--max-steps counts these)
//   double last_step(); double current_step();  // last taken / next to try
//   int tstop_return() const;            // the flag meaning "stopped at the stop time"
//   Status status_of(int flag) const;  std::string flag_name(int flag) const;
//   std::string message() const;         // SUNDIALS' or the model's last message
//   std::string model_failures() const;  // "" or the model's failed evaluations (ProblemView)
//   int root_return() const;             // the flag meaning "stopped at a root" (SUNDIALS' root finder)
//   RootBracket roots_found(double t);   // which functions fired there
//   RestartOutcome reset(double t, bool reinit);  // after an event changed state(): consistent, reinitialised
//   int dense_degree() const;            // a bound on the degree of interpolate's polynomial
// With keep_dense, each return's interpolant from the previous return is kept (the same
// that saveat reads), sampled as the core's driver does (numerics/dense_history.hpp).
// Events: roots are found by SUNDIALS (CVodeRootInit / IDARootInit); time events are stop
// times; what happens at each is the core's EventMonitor, as in every other family.
template <class Backend>
SolveOutcome one_step_loop(Backend& b, const SolveRequest& req, OutputSink& sink, long step_budget,
                           EventMonitor& events) {
  SolveOutcome out;
  const double dir = req.direction();
  double t = req.t0;
  std::size_t next_save = 0, next_tstop = 0;
  while (next_save < req.saveat.size() && req.saveat[next_save] == t) ++next_save;  // emitted by the caller
  Eigen::VectorXd y_out(b.state().size());
  auto stop_after = [&](double from) {
    while (next_tstop < req.tstops.size() && dir * (req.tstops[next_tstop] - from) <= 0.0) ++next_tstop;
    const double breakpoint = next_tstop < req.tstops.size() ? req.tstops[next_tstop] : req.tend;
    return dir * (events.next_time_event() - breakpoint) < 0.0 ? events.next_time_event() : breakpoint;
  };
  if (events.active() && events.start(t, Eigen::VectorXd(b.state())) != Eval::ok) {
    out.status = Status::evaluation_failure;
    out.message = "evaluating the events at t0: " + b.message();
    out.t_reached = t;
    return out;
  }
  double stop = stop_after(t);
  b.set_stop_time(stop);
  const long first_steps = b.steps();
  DenseHistory* const dense = sink.dense_history();
  Eigen::MatrixXd dense_samples;
  if (dense) dense->reset(static_cast<std::size_t>(y_out.size()));
  while (dir * (req.tend - t) > 0.0) {
    if (b.steps() - first_steps >= step_budget) {
      std::ostringstream m;
      m << "reached the maximum of " << req.max_steps << " steps " << detail::where(t, b.last_step())
        << " before tend=" << req.tend;
      // Steps that crawl because the model fails beyond some t are the model's doing.
      if (const std::string model = b.model_failures(); !model.empty())
        m << "; " << model;
      else
        m << "; raise --max-steps or loosen the tolerances";
      out.status = Status::too_many_steps;
      out.message = m.str();
      out.t_reached = t;
      return out;
    }
    const double t_previous = t;
    const int flag = b.step(req.tend, &t);
    if (flag < 0) {
      out.status = b.status_of(flag);
      out.message = b.flag_name(flag) + " " + detail::where(t, b.current_step()) + ": " + b.message();
      out.t_reached = t;
      return out;
    }
    if (dense && t != t_previous) {
      const int degree = b.dense_degree();
      double failed_at = 0.0;
      const bool kept = dense->sample(t_previous, t, degree, dense_samples, [&](int j, double ts, auto column) {
        if (j == degree) {
          column = b.state();
        } else if (!b.interpolate(ts, y_out)) {
          failed_at = ts;
          return false;
        } else {
          column = y_out;
        }
        return true;
      });
      if (!kept) {
        out.status = Status::internal_error;
        out.message = "interpolation failed at t=" + std::to_string(failed_at) + ": " + b.message();
        out.t_reached = t_previous;
        return out;
      }
    }
    while (req.output == OutputMode::saveat && next_save < req.saveat.size() &&
           dir * (req.saveat[next_save] - t) <= 0.0) {
      const double ts = req.saveat[next_save++];
      if (ts == t)
        y_out = b.state();
      else if (!b.interpolate(ts, y_out)) {
        out.status = Status::internal_error;
        out.message = "interpolation failed at t=" + std::to_string(ts) + ": " + b.message();
        out.t_reached = t;
        return out;
      }
      if (!sink.emit(ts, y_out)) {
        out.status = Status::stopped_by_observer;
        out.t_reached = ts;
        return out;
      }
    }
    if (req.output == OutputMode::every_step && !sink.emit(t, b.state())) {
      out.status = Status::stopped_by_observer;
      out.t_reached = t;
      return out;
    }
    const bool at_root = flag == b.root_return();
    const bool at_time_event = flag == b.tstop_return() && t == events.next_time_event();
    // A step that ended at no event is reported to a problem that asks (FMI's
    // completedIntegratorStep): it may end the run or want an event here.
    bool at_step_event = false;
    if (!at_root && !at_time_event && t != t_previous && events.problem().wants_step_notification()) {
      std::uint32_t asked = DK_EVENT_CONTINUE;
      if (events.problem().step_completed(t, b.state(), &asked) != Eval::ok) {
        out.status = Status::evaluation_failure;
        out.message = "at t=" + std::to_string(t) + ": " + events.problem().last_message();
        out.t_reached = t;
        return out;
      }
      if (asked == DK_EVENT_STOP) {
        out.status = Status::stopped_by_event;
        out.message = "stopped by the model after the step to t=" + std::to_string(t);
        if (req.output == OutputMode::end && !sink.emit(t, b.state())) out.status = Status::stopped_by_observer;
        out.t_reached = t;
        return out;
      }
      at_step_event = asked == DK_EVENT_HANDLE;
    }
    if (at_root || at_time_event || at_step_event) {
      const RootBracket root = at_root ? b.roots_found(t) : RootBracket{};
      y_out = b.state();
      const std::uint32_t kind = at_root ? DK_EVENT_ROOT : at_time_event ? DK_EVENT_TIME : DK_EVENT_STEP;
      const EventMonitor::Handled handled = events.handle(t, kind, at_root ? &root : nullptr, y_out);
      if (handled.status != Status::success || handled.action == DK_EVENT_STOP) {
        out.status = handled.status != Status::success ? handled.status : Status::stopped_by_event;
        out.message = handled.status != Status::success ? handled.message : "stopped by an event at t=" + std::to_string(t);
        if (handled.changed) b.state() = y_out;
        if (out.status == Status::stopped_by_event && req.output == OutputMode::end && !sink.emit(t, b.state()))
          out.status = Status::stopped_by_observer;
        out.t_reached = t;
        return out;
      }
      if (handled.changed) {
        b.state() = y_out;
        const RestartOutcome r = b.reset(t, handled.action == DK_EVENT_REINIT);
        if (r.status != Status::success) {
          out.status = r.status;
          out.message = "after the event at t=" + std::to_string(t) + ": " + r.message;
          out.t_reached = t;
          return out;
        }
      }
      if (handled.changed || at_time_event) {
        if (events.start(t, Eigen::VectorXd(b.state())) != Eval::ok) {
          out.status = Status::evaluation_failure;
          out.message = "evaluating the events after the event at t=" + std::to_string(t) + ": " + b.message();
          out.t_reached = t;
          return out;
        }
        stop = stop_after(t);
        b.set_stop_time(stop);
      }
      // A step event that changed nothing at a breakpoint still restarts there (below).
      if (!(at_step_event && !handled.changed && flag == b.tstop_return())) continue;
    }
    if (flag == b.tstop_return() && t != req.tend) {
      // A breakpoint: restart the multistep history there, as the test set's drivers do.
      stop = stop_after(t);
      const int r = b.restart(t);
      if (r < 0) {
        out.status = b.status_of(r);
        out.message = b.flag_name(r) + " restarting at t=" + std::to_string(t) + ": " + b.message();
        out.t_reached = t;
        return out;
      }
      b.set_stop_time(stop);
    }
  }
  out.status = Status::success;
  if (req.output == OutputMode::end && !sink.emit(t, b.state())) out.status = Status::stopped_by_observer;
  out.t_reached = t;
  return out;
}

}  // namespace daekit::plugins::sundials
