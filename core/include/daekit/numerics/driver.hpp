// The integration loop every one-step solver shares (the "driver" layer of
// Boost.Odeint's stepper / controller / driver ladder). It owns what no
// solver may get wrong on its own: the hard limits (max steps, minimum step,
// repeated failures) so that nothing spins forever, landing exactly on tstop
// and tend, output at the end, every step or given times (dense output), and
// a message saying where and why it gave up.
//
// A Stepper provides:
//   StepAttempt attempt(double t, double h, const Eigen::VectorXd& y);  // trial step
//   const Eigen::VectorXd& y_new() const;
//   void accept();                                   // commit, prepare dense output
//   void interpolate(double theta, Eigen::VectorXd& out) const;  // on the last accepted step
//   int order() const;
//   void projected(const Eigen::VectorXd& y);  // the accepted end was moved onto a constraint
//   int dense_degree() const;  // optional: the degree of interpolate's polynomial in theta,
//                              // for keeping the dense output (numerics/dense_history.hpp)
//
// Events and sign constraints (ABI 1.2) are the driver's too, so every family handles
// them alike: roots are searched on each accepted step's dense output (EventMonitor),
// time events are landed on like breakpoints, and a state changed by an event restarts
// the method through the solver's `Restart` (consistent initialisation included).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/constraint_guard.hpp"
#include "daekit/numerics/controller.hpp"
#include "daekit/numerics/event_monitor.hpp"
#include "daekit/numerics/step_end.hpp"
#include "daekit/output_sink.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

struct StepAttempt {
  enum class Kind { ok, recoverable, singular, convergence, fatal };
  Kind kind = Kind::ok;
  double error = 0.0;   // weighted error norm when kind == ok
  std::string message;  // why, when not ok
  double shrink = 0.0;  // step reduction the stepper asks for after a failure (0: the driver's default)

  static StepAttempt failed(Kind kind, std::string message, double shrink = 0.0) {
    StepAttempt a;
    a.kind = kind;
    a.message = std::move(message);
    a.shrink = shrink;
    return a;
  }
};

// The model must be evaluable where a step ends: a point where it is not (a concentration
// driven below zero) is rejected by the step that produced it, with a smaller step, rather
// than kept and failed on at every later try. Steppers evaluate f there when the error test
// passes and start the next step with it, so an accepted step costs nothing more.
// Returns true with f filled, or false with the failure in *failure.
inline bool evaluate_step_end(ProblemView& problem, double t, const Eigen::VectorXd& y, Eigen::VectorXd& f,
                              StepAttempt* failure, double shrink = 0.0) {
  const Eval e = problem.rhs(t, y, f);
  if (e == Eval::ok) return true;
  *failure = StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                                 "where the step ends: " + problem.last_message(), shrink);
  return false;
}

// After an event changed the state the method starts afresh at (t, y) (RestartOutcome,
// reinitialise_after_event: numerics/consistency.hpp) and proposes its first step.
using Restart = std::function<RestartOutcome(double t, Eigen::VectorXd& y, bool reinit)>;

struct DriverLimits {
  int max_consecutive_rejections = 50;  // error-test failures in a row before giving up
  int max_consecutive_failures = 10;    // recoverable model failures / singular matrices in a row
  double failure_shrink = 0.25;         // step reduction after such a failure
  double first_rejection_cut = 0.1;     // cut after a rejected first step; 0: ask the controller
};

namespace detail {
inline std::string where(double t, double h) {
  std::ostringstream m;
  m.precision(6);
  m << "at t=" << t << ", h=" << h;
  return m.str();
}
}  // namespace detail

template <class Stepper>
SolveOutcome drive(Stepper& stepper, ProblemView& problem, const SolveRequest& req, OutputSink& sink,
                   StepController& controller, double h_start, Eigen::VectorXd& y, DriverLimits limits = {},
                   const Restart& restart = nullptr) {
  Stats& stats = problem.stats();
  const double dir = req.direction();
  const double eps = std::numeric_limits<double>::epsilon();
  double t = req.t0;
  // A user's hmin is a floor for the first step too; rejections below it end the run.
  double h = dir * std::max(std::min(std::abs(h_start), req.hmax), req.hmin);
  std::size_t next_tstop = 0;
  int rejections_in_row = 0, failures_in_row = 0;
  bool last_rejected = false;
  std::string last_reason = "the error test failed";
  SolveOutcome out;
  Eigen::VectorXd y_end(y.size());
  ConstraintGuard constraints(problem, req);
  EventMonitor events(problem, req, sink);
  StepEnd step_end(problem, req, sink, events);

  auto finish = [&](Status s, std::string msg) {
    out.status = s;
    out.message = std::move(msg);
    out.t_reached = t;
    stats.h_last = h;
    stats.order_last = stepper.order();
    return out;
  };
  // The run ends as StepEnd said, at the state it left in y_end.
  auto finish_at_step_end = [&](const SolveOutcome& ended) {
    t = ended.t_reached;
    y = y_end;
    return finish(ended.status, ended.message);
  };

  if (std::string why; !constraints.satisfied(y, &why)) return finish(Status::invalid_input, why);
  if (SolveOutcome ended; !step_end.begin(t, y, &ended)) return finish(ended.status, ended.message);

  while (dir * (req.tend - t) > 0.0) {
    if (stats.steps >= req.max_steps) {
      std::ostringstream m;
      m << "reached the maximum of " << req.max_steps << " steps " << detail::where(t, h)
        << " before tend=" << req.tend;
      // Steps that crawl because the model fails beyond some t are the model's doing.
      if (const std::string model = problem.failure_summary(); !model.empty())
        m << "; " << model;
      else
        m << "; raise --max-steps or loosen the tolerances";
      return finish(Status::too_many_steps, m.str());
    }
    while (next_tstop < req.tstops.size() && dir * (req.tstops[next_tstop] - t) <= 0.0) ++next_tstop;
    double stop = next_tstop < req.tstops.size() ? req.tstops[next_tstop] : req.tend;
    // A time event is landed on like a breakpoint.
    const bool time_event_next = dir * (events.next_time_event() - stop) < 0.0;
    if (time_event_next) stop = events.next_time_event();
    // Land exactly on the stop; stretch by up to 1% rather than leave a sliver of a step.
    bool landing = false;
    if (dir * (t + 1.01 * h - stop) >= 0.0) {
      h = stop - t;
      landing = true;
    }
    // Below a few ulps of t a step no longer moves t (Hairer's 0.1|h| <= |t| uround test).
    const double hmin = std::max(req.hmin, 10.0 * eps * std::abs(t));
    if ((std::abs(h) < hmin || t + h == t) && !landing) {
      std::ostringstream m;
      m << "the step size fell below the minimum " << hmin << " " << detail::where(t, h) << ": " << last_reason;
      return finish(Status::step_size_too_small, m.str());
    }

    ++stats.steps;
    StepAttempt a = stepper.attempt(t, h, y);
    if (a.kind == StepAttempt::Kind::fatal) {
      return finish(Status::evaluation_failure, detail::where(t, h) + ": " + a.message);
    }
    if (a.kind == StepAttempt::Kind::convergence) {
      // A Newton iteration that converges too slowly is step-size control for implicit
      // methods (RADAU5 shrinks h and retries): counted with the error-test rejections.
      last_reason = a.message;
      if (++rejections_in_row > limits.max_consecutive_rejections) {
        std::ostringstream m;
        m << detail::where(t, h) << ": " << a.message << " (" << rejections_in_row << " times in a row)";
        return finish(Status::convergence_failures, m.str());
      }
      h *= a.shrink > 0.0 ? a.shrink : limits.failure_shrink;
      last_rejected = true;
      continue;
    }
    if (a.kind != StepAttempt::Kind::ok) {
      last_reason = a.message;
      if (++failures_in_row > limits.max_consecutive_failures) {
        Status s = a.kind == StepAttempt::Kind::singular ? Status::singular_matrix : Status::evaluation_failure;
        std::ostringstream m;
        m << detail::where(t, h) << ": " << a.message << " (" << failures_in_row << " times in a row)";
        return finish(s, m.str());
      }
      h *= a.shrink > 0.0 ? a.shrink : limits.failure_shrink;
      last_rejected = true;
      continue;
    }
    failures_in_row = 0;
    if (!(a.error <= 1.0)) {  // also catches NaN
      ++stats.rejected;
      last_reason = "the error test failed";
      if (++rejections_in_row > limits.max_consecutive_rejections) {
        std::ostringstream m;
        m << detail::where(t, h) << ": the error test failed " << rejections_in_row << " times in a row";
        return finish(Status::error_test_failures, m.str());
      }
      // A rejected first step means the automatic estimate was far off: cut hard, as RODAS does.
      h *= stats.accepted == 0 && limits.first_rejection_cut > 0.0 ? limits.first_rejection_cut
                                                                   : controller.rejected(std::abs(h), a.error);
      last_rejected = true;
      continue;
    }
    y_end = stepper.y_new();
    ConstraintGuard::Verdict verdict = ConstraintGuard::Verdict::satisfied;
    if (constraints.active()) {
      double shrink = 1.0;
      verdict = constraints.check(y, y_end, &shrink, &last_reason);
      if (verdict == ConstraintGuard::Verdict::violated) {
        ++stats.rejected;
        ++stats.nconstraint_fails;
        if (++rejections_in_row > limits.max_consecutive_rejections) {
          std::ostringstream m;
          m << detail::where(t, h) << ": " << last_reason << " (" << rejections_in_row << " times in a row)";
          return finish(Status::error_test_failures, m.str());
        }
        h *= shrink;
        last_rejected = true;
        continue;
      }
    }

    // Accepted.
    ++stats.accepted;
    rejections_in_row = 0;
    stepper.accept();
    if (verdict == ConstraintGuard::Verdict::projected) stepper.projected(y_end);
    const double t_old = t;
    const double t_new = landing ? stop : t + h;
    auto y_at = [&](double ts, Eigen::VectorXd& v) {
      stepper.interpolate((ts - t_old) / (t_new - t_old), v);
      return true;
    };
    int degree = -1;
    if constexpr (requires { stepper.dense_degree(); }) degree = stepper.dense_degree();
    StepEnd::Step step{t_old, t_new, &y_end, y_at, degree, landing && time_event_next};
    bool reinit = false;
    SolveOutcome ended;
    const StepEnd::Next next = step_end.after(step, &t, &reinit, &ended);
    if (next == StepEnd::Next::finish) return finish_at_step_end(ended);
    y = y_end;

    const double h_used = h;
    if (next == StepEnd::Next::restart) {
      if (!restart) return finish(Status::internal_error, "this solver cannot restart after an event");
      const RestartOutcome r = restart(t, y, reinit);
      if (r.status != Status::success) return finish(r.status, "after the event " + detail::where(t, h) + ": " + r.message);
      h = r.h > 0.0 ? dir * std::min(r.h, req.hmax) : dir * std::abs(h_used);
      if (!step_end.resume(t, y, &ended)) return finish(ended.status, ended.message);
    }
    if (next != StepEnd::Next::go_on) {
      last_rejected = false;
      continue;
    }

    double fac = controller.accepted(std::abs(h), a.error);
    if (last_rejected) fac = std::min(fac, 1.0);
    last_rejected = false;
    h = dir * std::min(std::abs(h_used) * fac, req.hmax);
    // A step cut short to land on a stop says nothing about the step the error allows:
    // the next one is at least as long. Not for a stepper that restarts at the stop: it
    // chose its first step from the state there, and the cut step's length (wherever the
    // previous step happened to end) must not steer it.
    bool restarted = false;
    if constexpr (requires { stepper.restarted_at_stop(); }) restarted = stepper.restarted_at_stop();
    if (landing && t != req.tend && !restarted) h = dir * std::max(std::abs(h), std::abs(h_used));
  }
  const SolveOutcome ended = step_end.success(t, y);
  return finish(ended.status, ended.message);
}

}  // namespace daekit
