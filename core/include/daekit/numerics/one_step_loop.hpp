// One loop for every integrator the core does not step itself (numerics/driver.hpp is the
// core families' own): the adapters of SUNDIALS and PETSc drive theirs through it.
#pragma once

#include <Eigen/Core>
#include <sstream>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/constraint_guard.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/event_monitor.hpp"
#include "daekit/numerics/step_end.hpp"
#include "daekit/output_sink.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

// The one-step loop over an integrator that is not the core's (SUNDIALS' CVODE and IDA,
// PETSc's TS): the same output, stop-time, step-limit, event and constraint behaviour as
// the core driver. A Backend provides
//   int step(double tout, double* t);   // one internal step; < 0 failed, else ok (tstop_return(): at the stop time)
//   bool interpolate(double t, Eigen::VectorXd& out);  // on the last step
//   Eigen::Map<Eigen::VectorXd> state();
//   void set_stop_time(double t);
//   int restart(double t);               // at a breakpoint: reinitialise from the current state
//   void after_breakpoint(double t);     // optional: after restart() at a breakpoint (not a projection)
//   long steps();                        // attempted steps: accepted and failed (--max-steps counts these)
//   double last_step(); double current_step();  // last taken / next to try
//   int tstop_return() const;            // the flag meaning "stopped at the stop time"
//   Status status_of(int flag) const;  std::string flag_name(int flag) const;
//   std::string message() const;         // the integrator's or the model's last message
//   std::string model_failures() const;  // "" or the model's failed evaluations (ProblemView)
//   RestartOutcome reset(double t, const EventRestart& cause);  // after an event changed state():
//                                                                // consistent, reinitialised
//   void carry_sensitivities(const MatrixXd& s);  // optional: s+ at that event, where reset starts s
//   int dense_degree() const;            // a bound on the degree of interpolate's polynomial
//   void copy_derivative(Eigen::VectorXd& out);  // y' at the last step's end (empty: none kept)
//   int roll_back(double t, y, yp, double h);  // reinitialise at an earlier point, next step <= h
// Sign constraints are the core's ConstraintGuard's, as in every family, not SUNDIALS'
// (IDASetConstraints / CVodeSetConstraints project small violations onto the bound and
// so add mass each step: Robertson at rtol = atol = 0.1 ended at y3 = 1.84): a step that
// leaves a constraint is rolled back (the integrator restarted at its start, the next
// step shorter), a small violation the budget covers is projected (a restart there).
// After each step the core's StepEnd does what every family does (numerics/step_end.hpp):
// root functions searched on the step's interpolant (CVodeGetDky, IDAGetDky, TSInterpolate)
// with the same sampling as the core's families, so an integrator's own root finder (SUNDIALS'
// looks at step ends only and stops at flat roots) is not used; time events are stop times; output.
// The points at t0 were emitted by the caller. `projection` re-solves an index-1 DAE's
// algebraic components between the steps, as in the core's driver (StepEnd::project_saved_points).
template <class Backend>
SolveOutcome one_step_loop(Backend& b, const SolveRequest& req, OutputSink& sink, long step_budget,
                           EventMonitor& events, AlgebraicProjection* projection = nullptr) {
  SolveOutcome out;
  const double dir = req.direction();
  double t = req.t0;
  std::size_t next_tstop = 0;
  Eigen::VectorXd y_end = b.state();
  StepEnd step_end(events.problem(), req, sink, events);
  step_end.project_saved_points(projection);
  auto stop_after = [&](double from) {
    while (next_tstop < req.tstops.size() && dir * (req.tstops[next_tstop] - from) <= 0.0) ++next_tstop;
    const double breakpoint = next_tstop < req.tstops.size() ? req.tstops[next_tstop] : req.tend;
    return events.time_event_by(breakpoint) ? events.next_time_event() : breakpoint;
  };
  // (t, y_end) is the last state reached wherever the run can end: a failed step or a
  // rolled-back one leaves it where the last accepted step did.
  auto ended = [&](Status status, std::string message) {
    if (!is_success(status)) step_end.failed_at(t, y_end);
    out.status = status;
    out.message = std::move(message);
    out.t_reached = t;
    return out;
  };
  if (!step_end.begin(t, y_end, &out, false)) return out;
  double stop = stop_after(t);
  b.set_stop_time(stop);
  const long first_steps = b.steps();
  ConstraintGuard constraints(events.problem(), req);
  // The last accepted point, to roll back to: kept only where constraints are watched.
  Eigen::VectorXd y_start, yp_start;
  if (constraints.active()) {
    y_start = y_end;
    b.copy_derivative(yp_start);
  }
  int constraint_rejections = 0;
  constexpr int max_constraint_rejections = 50;
  while (dir * (req.tend - t) > 0.0) {
    if (b.steps() - first_steps >= step_budget)
      return ended(Status::too_many_steps,
                   detail::step_limit_message(req.max_steps, t, b.last_step(), req.tend, b.model_failures()));
    const double t_previous = t;
    const int flag = b.step(req.tend, &t);
    if (flag < 0) {
      std::string why = b.flag_name(flag) + " " + detail::where(t, b.current_step()) + ": " + b.message();
      t = t_previous;
      return ended(b.status_of(flag), std::move(why));
    }
    if (t == t_previous) continue;
    y_end = b.state();
    bool projected = false;
    if (constraints.active()) {
      double shrink = 1.0;
      std::string why;
      const auto verdict = constraints.check(y_start, y_end, &shrink, &why, false);
      if (verdict == ConstraintGuard::Verdict::violated) {
        ++events.problem().stats().nconstraint_fails;
        const double h = t - t_previous;
        t = t_previous;
        y_end = y_start;
        if (++constraint_rejections > max_constraint_rejections)
          return ended(Status::error_test_failures, detail::where(t_previous, h) + ": " + why + " (" +
                                                        std::to_string(constraint_rejections) + " times in a row)");
        const int r = b.roll_back(t, y_start, yp_start, shrink * h);
        if (r < 0) return ended(b.status_of(r), b.flag_name(r) + " restarting at t=" + std::to_string(t) + ": " + b.message());
        b.set_stop_time(stop);
        continue;
      }
      constraint_rejections = 0;
      projected = verdict == ConstraintGuard::Verdict::projected;
    }
    const bool at_time_event = flag == b.tstop_return() && t == events.next_time_event() && events.time_event_by(t);
    auto y_at = [&](double ts, Eigen::VectorXd& v) { return b.interpolate(ts, v); };
    StepEnd::Step step{t_previous, t, &y_end, y_at, b.dense_degree(), at_time_event};
    EventRestart cause;
    const StepEnd::Next next = step_end.after(step, &t, &cause, &out);
    if (next == StepEnd::Next::finish) return out;
    if (next == StepEnd::Next::restart) {
      b.state() = y_end;
      if (const Eigen::MatrixXd* s = step_end.sensitivities_after_event()) {
        if constexpr (requires { b.carry_sensitivities(*s); })
          b.carry_sensitivities(*s);
        else
          return ended(Status::internal_error, "this solver cannot restart its sensitivities after an event");
      }
      const RestartOutcome r = b.reset(t, cause);
      if (r.status != Status::success) return ended(r.status, "after the event at t=" + std::to_string(t) + ": " + r.message);
      y_end = b.state();  // as the restart made it consistent
      if (!step_end.resume(t, y_end, &out)) return out;
    }
    if (constraints.active()) {
      y_start = y_end;
      b.copy_derivative(yp_start);
    }
    if (next != StepEnd::Next::go_on) {
      stop = stop_after(t);
      b.set_stop_time(stop);
      // A step event that changed nothing at a breakpoint still restarts there (below).
      if (next == StepEnd::Next::restart || at_time_event) continue;
    }
    const bool at_breakpoint = flag == b.tstop_return() && t != req.tend;
    if (projected && !at_breakpoint) {
      // The projected state becomes the integrator's: a restart there.
      b.state() = y_end;
      const int r = b.restart(t);
      if (r < 0) return ended(b.status_of(r), b.flag_name(r) + " restarting at t=" + std::to_string(t) + ": " + b.message());
      b.set_stop_time(stop);
      continue;
    }
    if (projected) b.state() = y_end;  // the breakpoint's restart below takes it
    if (at_breakpoint) {
      // A breakpoint: restart the multistep history there, as the test set's drivers do.
      stop = stop_after(t);
      const int r = b.restart(t);
      if (r < 0) return ended(b.status_of(r), b.flag_name(r) + " restarting at t=" + std::to_string(t) + ": " + b.message());
      if constexpr (requires { b.after_breakpoint(t); }) b.after_breakpoint(t);
      b.set_stop_time(stop);
    }
  }
  return step_end.success(t, y_end);
}

}  // namespace daekit
