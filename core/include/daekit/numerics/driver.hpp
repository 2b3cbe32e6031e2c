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
//   bool leaves_algebraic_defect() const;  // optional: true for a linearly implicit method
//                              // (its steps satisfy a DAE's algebraic equations only to the
//                              // local error): the driver re-solves them when the error
//                              // estimate stalls (Driver::reinit_on_stall)
//   StepAttempt retake(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_end);
//                              // optional (one-step methods): the accepted step taken again
//                              // from its start (t, y) with step h, its end in y_end, the
//                              // accepted step's dense output left as it was; the method
//                              // restarts after it (an event ends the step there)
//   std::string restart_sensitivities(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s);
//                              // with sensitivities: after the restart at an event at (t, y),
//                              // s+ (numerics/sensitivity_jump.hpp), a DAE's made consistent;
//                              // "" or why it failed
//
// Events and sign constraints (ABI 1.2) are the driver's too, so every family handles
// them alike: roots are searched on each accepted step's dense output (EventMonitor),
// time events are landed on like breakpoints, and a state changed by an event restarts
// the method through the solver's `Restart` (consistent initialisation included).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "daekit/eigen_abi.hpp"
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
using Restart = std::function<RestartOutcome(double t, Eigen::VectorXd& y, const EventRestart& cause)>;

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
// Why a run ended at the step limit; model_failures ("" or the model's failed
// evaluations) is named when it made the steps crawl: that is the model's doing.
inline std::string step_limit_message(std::int64_t max_steps, double t, double h, double tend,
                                      const std::string& model_failures) {
  std::ostringstream m;
  m << "reached the maximum of " << max_steps << " steps " << where(t, h) << " before tend=" << tend << "; "
    << (model_failures.empty() ? "raise --max-steps or loosen the tolerances" : model_failures);
  return m.str();
}
}  // namespace detail

// The loop's state and its parts; drive() below is the entry. Each part of a pass either
// lets the loop go on or says how the run ends.
template <class Stepper>
class Driver {
 public:
  Driver(Stepper& stepper, ProblemView& problem, const SolveRequest& req, OutputSink& sink,
         StepController& controller, double h_start, Eigen::VectorXd& y, DriverLimits limits, const Restart& restart,
         AlgebraicProjection* projection = nullptr)
      : stepper_(stepper),
        problem_(problem),
        req_(req),
        controller_(controller),
        y_(y),
        limits_(limits),
        restart_(restart),
        stats_(problem.stats()),
        dir_(req.direction()),
        t_(req.t0),
        // A user's hmin is a floor for the first step too; rejections below it end the run.
        h_(dir_ * std::max(std::min(std::abs(h_start), req.hmax), req.hmin)),
        y_end_(y.size()),
        constraints_(problem, req),
        events_(problem, req, sink),
        step_end_(problem, req, sink, events_) {
    step_end_.project_saved_points(projection);
  }

  SolveOutcome run() {
    if (std::string why; !constraints_.satisfied(y_, &why)) return finish(Status::invalid_input, why);
    if (SolveOutcome ended; !step_end_.begin(t_, y_, &ended)) return finish(ended.status, ended.message);
    while (dir_ * (req_.tend - t_) > 0.0) {
      if (stats_.steps >= req_.max_steps) return finish(Status::too_many_steps, step_limit_message());
      if (!plan_step()) return finish(step_too_small_status(), step_too_small_message());
      ++stats_.steps;
      const StepAttempt a = stepper_.attempt(t_, h_, y_);
      if (a.kind == StepAttempt::Kind::fatal) return finish(Status::evaluation_failure, detail::where(t_, h_) + ": " + a.message);
      if (std::optional<SolveOutcome> ended = failed_attempt(a)) return *ended;
      if (a.kind != StepAttempt::Kind::ok || !(a.error <= 1.0)) continue;  // retried with a smaller h
      y_end_ = stepper_.y_new();
      ConstraintGuard::Verdict verdict = ConstraintGuard::Verdict::satisfied;
      if (constraints_.active()) {
        if (std::optional<SolveOutcome> ended = constraint_rejection(&verdict)) return *ended;
        if (verdict == ConstraintGuard::Verdict::violated) continue;
      }
      if (std::optional<SolveOutcome> ended = accepted(a, verdict)) return *ended;
    }
    const SolveOutcome ended = step_end_.success(t_, y_);
    return finish(ended.status, ended.message);
  }

 private:
  SolveOutcome finish(Status s, std::string msg) {
    if (!is_success(s)) step_end_.failed_at(t_, y_);
    SolveOutcome out;
    out.status = s;
    out.message = std::move(msg);
    out.t_reached = t_;
    stats_.h_last = h_;
    stats_.order_last = stepper_.order();
    return out;
  }

  std::string step_limit_message() const {
    return detail::step_limit_message(req_.max_steps, t_, h_, req_.tend, problem_.failure_summary());
  }

  std::string step_too_small_message() const {
    std::ostringstream m;
    m << "the step size fell below the minimum " << hmin_ << " " << detail::where(t_, h_) << ": " << last_reason_;
    return m.str();
  }

  // Named by what shrank h last (docs/cli.md, `status`). At round-off's floor, whether the
  // model's failures or the minimum step end a run of failed evaluations is an accident of
  // the step at which they began: the status names the model (or a singular matrix)
  // either way; after the method's own failures (the error test, Newton) it is the step
  // size. A user's hmin above that floor is what stopped the retries.
  Status step_too_small_status() const {
    if (req_.hmin >= hmin_) return Status::step_size_too_small;
    switch (last_failure_) {
      case StepAttempt::Kind::recoverable: return Status::evaluation_failure;
      case StepAttempt::Kind::singular: return Status::singular_matrix;
      default: return Status::step_size_too_small;
    }
  }

  // Where this step may end (a tstop, a time event, tend) and whether it lands there;
  // false when h has fallen below the minimum step.
  bool plan_step() {
    while (next_tstop_ < req_.tstops.size() && dir_ * (req_.tstops[next_tstop_] - t_) <= 0.0) ++next_tstop_;
    stop_ = next_tstop_ < req_.tstops.size() ? req_.tstops[next_tstop_] : req_.tend;
    // A time event is landed on like a breakpoint.
    time_event_next_ = events_.time_event_by(stop_);
    if (time_event_next_) stop_ = events_.next_time_event();
    // Land exactly on the stop; stretch by up to 1% rather than leave a sliver of a step.
    landing_ = false;
    if (dir_ * (t_ + 1.01 * h_ - stop_) >= 0.0) {
      h_ = stop_ - t_;
      landing_ = true;
    }
    // Below a few ulps of t a step no longer moves t (Hairer's 0.1|h| <= |t| uround test).
    hmin_ = std::max(req_.hmin, 10.0 * std::numeric_limits<double>::epsilon() * std::abs(t_));
    return landing_ || (std::abs(h_) >= hmin_ && t_ + h_ != t_);
  }

  // A step that failed (Newton, the model, a singular matrix) or was rejected by the error
  // test: h shrinks for the next try, or the run ends after too many in a row.
  std::optional<SolveOutcome> failed_attempt(const StepAttempt& a) {
    using Kind = StepAttempt::Kind;
    last_failure_ = a.kind;  // ok: rejected by the error test, if at all
    if (a.kind == Kind::convergence) {
      // A Newton iteration that converges too slowly is step-size control for implicit
      // methods (RADAU5 shrinks h and retries): counted with the error-test rejections.
      // Its model evaluations succeeded: a row of the model's failures ends here.
      failures_in_row_ = 0;
      last_reason_ = a.message;
      if (++rejections_in_row_ > limits_.max_consecutive_rejections)
        return finish(Status::convergence_failures, in_a_row(a.message, rejections_in_row_));
      shrink_after_failure(a);
      return std::nullopt;
    }
    if (a.kind != Kind::ok) {
      last_reason_ = a.message;
      if (++failures_in_row_ > limits_.max_consecutive_failures)
        return finish(a.kind == Kind::singular ? Status::singular_matrix : Status::evaluation_failure,
                      in_a_row(a.message, failures_in_row_));
      shrink_after_failure(a);
      return std::nullopt;
    }
    failures_in_row_ = 0;
    if (a.error <= 1.0) return std::nullopt;  // accepted by the error test (NaN is not)
    ++stats_.rejected;
    last_reason_ = "the error test failed";
    if (++rejections_in_row_ > limits_.max_consecutive_rejections) {
      std::ostringstream m;
      m << detail::where(t_, h_) << ": the error test failed " << rejections_in_row_ << " times in a row";
      return finish(Status::error_test_failures, m.str());
    }
    if (std::optional<SolveOutcome> ended = reinit_on_stall(a.error)) return ended;
    // A rejected first step means the automatic estimate was far off: cut hard, as RODAS does.
    h_ *= stats_.accepted == 0 && limits_.first_rejection_cut > 0.0 ? limits_.first_rejection_cut
                                                                      : controller_.rejected(std::abs(h_), a.error);
    last_rejected_ = true;
    return std::nullopt;
  }

  // A linearly implicit step (Rosenbrock) leaves a DAE's algebraic equations violated by
  // up to its local error, and a method whose embedded solution is not stiffly accurate
  // (ROS34PW2: R^(inf) = -0.48) carries that defect of the step's start into its error
  // estimate whatever h is. Where an algebraic component approaches zero its tolerance
  // shrinks below the defect the previous steps left, and every retry failed alike (the
  // estimate 1.54, 1.30, 1.21, 1.16, 1.14, ... while h fell twentyfold, until the run
  // gave up). So when the estimate stalls (h cut by 1.3 or more over two rejections, the
  // error down by less than a tenth: an estimate of order 2 or more would have fallen by
  // 40 %), the algebraic components are re-solved once, as after an event; a point that
  // is consistent is left as it is, a failure to re-solve leaves y alone. Not on every
  // run of rejections: at tba's input switches (three and more in a row, the error
  // falling 39, 13, 6.1) re-solving to the initialisation's residual test moved a
  // voltage by 2.6e-4 and made the estimate stall there. Not before a step has been
  // accepted (the initial values are what the initialisation made them), nor with
  // sensitivities or an adjoint, whose columns or record would have to follow.
  std::optional<SolveOutcome> reinit_on_stall(double error) {
    if constexpr (requires { stepper_.leaves_algebraic_defect(); }) {
      const double h = std::abs(h_);
      if (rejections_in_row_ == 1) reinit_done_ = false;
      const bool stalled =
          rejections_in_row_ >= 3 && 1.3 * h <= rejected_h_[0] && error >= 0.9 * rejected_error_[0];
      rejected_h_ = {rejected_h_[1], h};
      rejected_error_ = {rejected_error_[1], error};
      if (!stalled || reinit_done_ || stats_.accepted == 0 || !restart_ || !stepper_.leaves_algebraic_defect() ||
          req_.wants_sensitivities() || req_.wants_adjoint())
        return std::nullopt;
      reinit_done_ = true;
      Eigen::VectorXd y = y_;
      if (restart_(t_, y, EventRestart{.reinit = true}).status != Status::success) return std::nullopt;
      y_ = y;
      // The root functions' values at the re-solved point, for the next step's sign test.
      if (SolveOutcome ended; !step_end_.resume(t_, y_, &ended)) return finish(ended.status, ended.message);
    }
    return std::nullopt;
  }

  void shrink_after_failure(const StepAttempt& a) {
    h_ *= a.shrink > 0.0 ? a.shrink : limits_.failure_shrink;
    last_rejected_ = true;
  }

  std::string in_a_row(const std::string& what, int times) const {
    std::ostringstream m;
    m << detail::where(t_, h_) << ": " << what << " (" << times << " times in a row)";
    return m.str();
  }

  // Sign constraints at the step's end: satisfied, projected, or the step is rejected.
  std::optional<SolveOutcome> constraint_rejection(ConstraintGuard::Verdict* verdict) {
    double shrink = 1.0;
    *verdict = constraints_.check(y_, y_end_, &shrink, &last_reason_);
    if (*verdict != ConstraintGuard::Verdict::violated) return std::nullopt;
    ++stats_.rejected;
    ++stats_.nconstraint_fails;
    if (++rejections_in_row_ > limits_.max_consecutive_rejections)
      return finish(Status::error_test_failures, in_a_row(last_reason_, rejections_in_row_));
    h_ *= shrink;
    last_rejected_ = true;
    return std::nullopt;
  }

  // An accepted step: what follows it (events, output: StepEnd), then the next h.
  std::optional<SolveOutcome> accepted(const StepAttempt& a, ConstraintGuard::Verdict verdict) {
    ++stats_.accepted;
    rejections_in_row_ = 0;
    stepper_.accept();
    if (verdict == ConstraintGuard::Verdict::projected) stepper_.projected(y_end_);
    const double t_old = t_;
    const double t_new = landing_ ? stop_ : t_ + h_;
    auto y_at = [&](double ts, Eigen::VectorXd& v) {
      stepper_.interpolate((ts - t_old) / (t_new - t_old), v);
      return true;
    };
    int degree = -1;
    if constexpr (requires { stepper_.dense_degree(); }) degree = stepper_.dense_degree();
    StepEnd::Step step{t_old, t_new, &y_end_, y_at, degree, landing_ && time_event_next_};
    auto retake = [&](double ts, Eigen::VectorXd& v) { return retake_to(t_old, ts, v); };
    const EventMonitor::Retake retake_ref = retake;
    if (retakes()) step.retake = &retake_ref;
    EventRestart cause;
    SolveOutcome ended;
    const StepEnd::Next next = step_end_.after(step, &t_, &cause, &ended);
    if (next == StepEnd::Next::finish) {
      // The run ends as StepEnd said, at the state it left in y_end.
      t_ = ended.t_reached;
      y_ = y_end_;
      return finish(ended.status, ended.message);
    }
    y_ = y_end_;
    const double h_used = h_;
    if (next == StepEnd::Next::restart) {
      if (!restart_) return finish(Status::internal_error, "this solver cannot restart after an event");
      const RestartOutcome r = restart_(t_, y_, cause);
      if (r.status != Status::success)
        return finish(r.status, "after the event " + detail::where(t_, h_) + ": " + r.message);
      if (const Eigen::MatrixXd* s = step_end_.sensitivities_after_event()) {
        if constexpr (requires { stepper_.restart_sensitivities(t_, y_, *s); }) {
          if (const std::string why = stepper_.restart_sensitivities(t_, y_, *s); !why.empty())
            return finish(Status::evaluation_failure,
                          "restarting the sensitivities after the event " + detail::where(t_, h_) + ": " + why);
        } else
          return finish(Status::internal_error, "this solver cannot restart its sensitivities after an event");
      }
      h_ = r.h > 0.0 ? dir_ * std::min(r.h, req_.hmax) : dir_ * std::abs(h_used);
      if (!step_end_.resume(t_, y_, &ended)) return finish(ended.status, ended.message);
    }
    if (next != StepEnd::Next::go_on) {
      last_rejected_ = false;
      return std::nullopt;
    }
    next_step_size(a.error, h_used);
    return std::nullopt;
  }

  // Whether an event inside a step gets the state of the step taken again to it: a
  // one-step method's (its interpolant is of lower order than its step), not with
  // sensitivities or an adjoint, whose columns and record follow the steps taken.
  static constexpr bool can_retake = requires(Stepper& s, Eigen::VectorXd& v) { s.retake(0.0, 0.0, v, v); };
  bool retakes() const { return can_retake && !req_.wants_sensitivities() && !req_.wants_adjoint(); }
  // The accepted step again from its start (t_old, y_: the step's end is not taken yet) to
  // t, its end in y: a step attempted, and accepted when it passes the error test.
  bool retake_to(double t_old, double t, Eigen::VectorXd& y) {
    if constexpr (can_retake) {
      ++stats_.steps;
      const StepAttempt again = stepper_.retake(t_old, t - t_old, y_, y);
      if (again.kind != StepAttempt::Kind::ok || !(again.error <= 1.0)) return false;
      ++stats_.accepted;
      return true;
    } else {
      return false;
    }
  }

  void next_step_size(double error, double h_used) {
    double fac = controller_.accepted(std::abs(h_), error);
    if (last_rejected_) fac = std::min(fac, 1.0);
    last_rejected_ = false;
    h_ = dir_ * std::min(std::abs(h_used) * fac, req_.hmax);
    // A step cut short to land on a stop says nothing about the step the error allows:
    // the next one is at least as long. Not for a stepper that restarts at the stop: it
    // chose its first step from the state there, and the cut step's length (wherever the
    // previous step happened to end) must not steer it.
    bool restarted = false;
    if constexpr (requires { stepper_.restarted_at_stop(); }) restarted = stepper_.restarted_at_stop();
    if (landing_ && t_ != req_.tend && !restarted) h_ = dir_ * std::max(std::abs(h_), std::abs(h_used));
  }

  Stepper& stepper_;
  ProblemView& problem_;
  const SolveRequest& req_;
  StepController& controller_;
  Eigen::VectorXd& y_;
  const DriverLimits limits_;
  const Restart& restart_;
  Stats& stats_;
  const double dir_;
  double t_, h_;
  double stop_ = 0.0, hmin_ = 0.0;
  bool landing_ = false, time_event_next_ = false, last_rejected_ = false;
  std::size_t next_tstop_ = 0;
  int rejections_in_row_ = 0, failures_in_row_ = 0;
  // |h| and the error of the two rejections before this one in the row (reinit_on_stall).
  std::array<double, 2> rejected_h_{}, rejected_error_{};
  bool reinit_done_ = false;
  StepAttempt::Kind last_failure_ = StepAttempt::Kind::ok;  // of the last attempt; ok: none, or the error test
  std::string last_reason_ = "the error test failed";
  Eigen::VectorXd y_end_;
  ConstraintGuard constraints_;
  EventMonitor events_;
  StepEnd step_end_;
};

template <class Stepper>
SolveOutcome drive(Stepper& stepper, ProblemView& problem, const SolveRequest& req, OutputSink& sink,
                   StepController& controller, double h_start, Eigen::VectorXd& y, DriverLimits limits = {},
                   const Restart& restart = nullptr, AlgebraicProjection* projection = nullptr) {
  Driver<Stepper> driver(stepper, problem, req, sink, controller, h_start, y, limits, restart, projection);
  return driver.run();
}

}  // namespace daekit
