#include "daekit/numerics/step_end.hpp"

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/driver.hpp"
#include "daekit/numerics/time_text.hpp"

#include <limits>
#include <sstream>

namespace daekit {

namespace {
using detail::where;  // "at t=..., h=...", as the driver's messages say it

// y_of as the event search takes it: NaN where it cannot say y(t) (the caller then stops).
template <class Interpolant>
auto nan_where_failing(const Interpolant& y_of) {
  return [&y_of](double t, Eigen::VectorXd& v) {
    if (!y_of(t, v)) v.setConstant(std::numeric_limits<double>::quiet_NaN());
  };
}
}  // namespace

StepEnd::StepEnd(ProblemView& problem, const SolveRequest& request, OutputSink& sink, EventMonitor& events)
    : problem_(problem), req_(request), sink_(sink), events_(events), dense_(sink.dense_history()) {
  // Interpolated values are asked for at requested points, events and dense samples
  // only; a plain run to tend leaves these two unmade (at 2 10^6 unknowns, 16 MB each).
  const bool with_events = events_.active() || problem.wants_step_notification();
  const Eigen::Index n = problem.size();
  y_out_.setZero(with_events || dense_ || request.output == OutputMode::saveat ? n : 0);
  y_piece_.setZero(with_events ? n : 0);
  if (dense_) dense_->reset(static_cast<std::size_t>(problem.size()));
}

StepEnd::Next StepEnd::finish(SolveOutcome* out, Status status, std::string message, double t) {
  out->status = status;
  out->message = std::move(message);
  out->t_reached = t;
  return Next::finish;
}

bool StepEnd::begin(double t0, const Eigen::VectorXd& y0, SolveOutcome* out, bool emit_points_at_t0) {
  if (const std::string why = events_.sensitivities_refused(); !why.empty()) {
    finish(out, Status::unsupported_problem, why, t0);
    return false;
  }
  if (events_.active() && events_.start(t0, y0) != Eval::ok) {
    finish(out, Status::evaluation_failure, "evaluating the events at t0: " + problem_.last_message(), t0);
    return false;
  }
  bool go_on = !emit_points_at_t0 || req_.output != OutputMode::every_step || sink_.emit(t0, y0);
  while (go_on && req_.output == OutputMode::saveat && next_save_ < req_.saveat.size() &&
         req_.saveat[next_save_] == t0) {
    go_on = !emit_points_at_t0 || sink_.emit(t0, y0);
    ++next_save_;
  }
  if (!go_on) finish(out, Status::stopped_by_observer, "stopped by the observer at t0", t0);
  return go_on;
}

bool StepEnd::emit_saved_until(double t_limit, const Interpolant& y_at, double* t_stopped) {
  const double dir = req_.direction();
  while (req_.output == OutputMode::saveat && next_save_ < req_.saveat.size() &&
         dir * (req_.saveat[next_save_] - t_limit) <= 0.0) {
    const double ts = req_.saveat[next_save_++];
    if (!y_at(ts, y_out_) || !sink_.emit(ts, y_out_)) {
      *t_stopped = ts;
      return false;
    }
  }
  return true;
}

StepEnd::Next StepEnd::after(Step& s, double* t, EventRestart* restart, SolveOutcome* out) {
  Eigen::VectorXd& y_end = *s.y_end;
  const double h = s.t_new - s.t_old;
  // The step's own end, kept apart only where an event or the model may change y_end.
  const Eigen::VectorXd* step_end_value = &y_end;
  if (events_.active() || problem_.wants_step_notification()) {
    y_piece_ = y_end;
    step_end_value = &y_piece_;
  }
  bool interpolation_failed = false;
  double failed_at = s.t_new;
  // The step's dense output, exact at its end.
  const auto y_at = [&](double ts, Eigen::VectorXd& v) {
    if (ts == s.t_new) {
      v = *step_end_value;
      return true;
    }
    if (s.y_at(ts, v)) return true;
    interpolation_failed = true;
    failed_at = ts;
    return false;
  };
  // y(t) as the output has it, and an event's state: between the step's ends an index-1
  // DAE's algebraic components re-solved (one answer for y(t) however it is asked for).
  const auto y_output_at = [&](double ts, Eigen::VectorXd& v) {
    if (!y_at(ts, v)) return false;
    if (projection_ && ts != s.t_new && ts != s.t_old) projection_->apply(ts, v);
    return true;
  };
  const auto y_at_or_nan = nan_where_failing(y_at);
  const auto y_output_or_nan = nan_where_failing(y_output_at);
  const EventMonitor::Interpolant y_refined = y_output_or_nan, y_plain = y_at_or_nan;
  // The run ends before the step's end: the observer stopped at a requested point (y_out_
  // is its value), or the step's dense output could not be evaluated.
  const auto stopped_early = [&](double ts) {
    if (interpolation_failed)
      return finish(out, Status::internal_error, "interpolation failed " + at_time(failed_at) + ": " + problem_.last_message(),
                    s.t_new);
    y_end = y_out_;
    return finish(out, Status::stopped_by_observer, "stopped by the observer", ts);
  };
  // The event protocol at (te, y_out_); false when the run ends there.
  const auto handle = [&](double te, std::uint32_t kind, const RootBracket* root) {
    handled_ = events_.handle(te, kind, root, y_out_);
    if (handled_.status == Status::success) return true;
    y_end = y_out_;
    finish(out, handled_.status, handled_.message, te);
    return false;
  };

  double t_end = s.t_new, t_stopped = 0.0;
  bool cut = false, stopped_by_model = false;
  handled_ = EventMonitor::Handled{};
  // Events inside the step, each root in turn. One that leaves the state as it was is
  // reported and the step goes on; one that changes it (or stops) ends the step there.
  double t_search = s.t_old;
  while (events_.active() && !cut) {
    RootBracket root;
    bool found = false;
    if (events_.find(t_search, s.t_new, *step_end_value, y_at_or_nan, &root, &found, projection_ ? &y_refined : nullptr) !=
        Eval::ok)
      return finish(out, Status::evaluation_failure,
                    "evaluating the events " + where(s.t_new, h) + ": " + problem_.last_message(), s.t_new);
    if (found && land(s, projection_ ? y_refined : y_plain, &root) != Eval::ok)
      return finish(out, Status::evaluation_failure,
                    "evaluating the events " + where(root.t, h) + ": " + problem_.last_message(), root.t);
    if (interpolation_failed) return stopped_early(s.t_new);
    if (!found) break;
    if (!emit_saved_until(root.t, y_output_at, &t_stopped)) return stopped_early(t_stopped);
    y_out_ = events_.state_at_root();
    if (!handle(root.t, DK_EVENT_ROOT, &root)) return Next::finish;
    if (handled_.changed || handled_.action == DK_EVENT_STOP) {
      cut = true;
      t_end = root.t;
      y_end = y_out_;
    } else {
      events_.continue_after_event(root);
      t_search = root.t;
    }
  }
  if (!cut && s.landed_on_time_event) {
    if (!emit_saved_until(s.t_new, y_output_at, &t_stopped)) return stopped_early(t_stopped);
    y_out_ = y_end;
    if (!handle(s.t_new, DK_EVENT_TIME, nullptr)) return Next::finish;
    cut = true;  // the time event is behind us: ask for the next one
    y_end = y_out_;
  }
  // A step no event cut short is reported to a problem that asks (FMI's
  // completedIntegratorStep): it may end the run or want an event here.
  if (!cut && problem_.wants_step_notification()) {
    std::uint32_t asked = DK_EVENT_CONTINUE;
    if (problem_.step_completed(s.t_new, y_end, &asked) != Eval::ok)
      return finish(out, Status::evaluation_failure, where(s.t_new, h) + ": " + problem_.last_message(), s.t_new);
    if (asked == DK_EVENT_STOP) {
      cut = stopped_by_model = true;
      handled_.action = DK_EVENT_STOP;
    } else if (asked == DK_EVENT_HANDLE) {
      if (!emit_saved_until(s.t_new, y_output_at, &t_stopped)) return stopped_early(t_stopped);
      y_out_ = y_end;
      if (!handle(s.t_new, DK_EVENT_STEP, nullptr)) return Next::finish;
      cut = true;
      y_end = y_out_;
    }
  }

  if (!emit_saved_until(t_end, y_output_at, &t_stopped)) return stopped_early(t_stopped);
  if (!keep_dense(s, t_end, y_output_at)) return stopped_early(s.t_new);
  *t = t_end;
  if (req_.output == OutputMode::every_step && !sink_.emit(t_end, y_end))
    return finish(out, Status::stopped_by_observer, "stopped by the observer", t_end);
  if (!cut) return Next::go_on;
  return after_event(t_end, y_end, stopped_by_model, restart, out);
}

bool StepEnd::keep_dense(const Step& s, double t_end, const Interpolant& y_output_at) {
  // The step's polynomial up to where the step ended (an event may have cut it); its end
  // value is the state before any event changed it.
  return !dense_ || s.dense_degree < 0 ||
         dense_->sample(s.t_old, t_end, s.dense_degree, dense_samples_, [&](int, double ts, auto column) {
           if (!y_output_at(ts, y_out_)) return false;
           column = y_out_;
           return true;
         });
}

Eval StepEnd::land(const Step& s, const EventMonitor::Interpolant& y_between, RootBracket* root) {
  if (!s.retake || root->t == s.t_new || !events_.ends_step(*root)) return Eval::ok;
  // On the algebraic equations, as every event's state is (a linearly implicit step leaves
  // them violated by up to its local error).
  const auto retake_consistent = [&](double ts, Eigen::VectorXd& v) {
    if (!(*s.retake)(ts, v)) return false;
    if (projection_) projection_->apply(ts, v);
    return true;
  };
  return events_.land(s.t_old, s.t_new, y_between, retake_consistent, root);
}

StepEnd::Next StepEnd::after_event(double t_end, const Eigen::VectorXd& y_end, bool stopped_by_model,
                                   EventRestart* restart, SolveOutcome* out) {
  if (handled_.action == DK_EVENT_STOP) {
    if (req_.output == OutputMode::end && !sink_.emit(t_end, y_end))
      return finish(out, Status::stopped_by_observer, "stopped by the observer", t_end);
    return finish(out, Status::stopped_by_event,
                  (stopped_by_model ? "stopped by the model after the step to t=" : "stopped by an event at t=") +
                      std::to_string(t_end),
                  t_end);
  }
  if (handled_.changed) {
    restart->reinit = handled_.action == DK_EVENT_REINIT;
    restart->rhs_before = events_.rhs_before_event();
    return Next::restart;
  }
  return resume(t_end, y_end, out) ? Next::event_at_end : Next::finish;
}

bool StepEnd::resume(double t, const Eigen::VectorXd& y, SolveOutcome* out) {
  if (events_.start(t, y) == Eval::ok) return true;
  finish(out, Status::evaluation_failure, "evaluating the events after the event " + at_time(t) + ": " + problem_.last_message(),
         t);
  return false;
}

SolveOutcome StepEnd::success(double t, const Eigen::VectorXd& y) {
  SolveOutcome out;
  if (req_.output == OutputMode::end && !sink_.emit(t, y))
    finish(&out, Status::stopped_by_observer, "stopped by the observer", t);
  else
    finish(&out, Status::success, "", t);
  return out;
}

void StepEnd::failed_at(double t, const Eigen::VectorXd& y) {
  // Not with sensitivities: after rejected attempts not every stepper's interpolant of s
  // still describes the last accepted step, and a point needs its s.
  if (req_.output != OutputMode::end || sink_.wants_sensitivities()) return;
  // The run ends either way: an observer that says stop here changes nothing.
  static_cast<void>(sink_.emit(t, y));
}

}  // namespace daekit
