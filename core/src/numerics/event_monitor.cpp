#include "daekit/numerics/event_monitor.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace daekit {

namespace {
std::vector<std::int8_t> directions_of(const ProblemView& problem) {
  std::vector<std::int8_t> d(problem.nroots());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::int8_t>(problem.root_direction(i));
  return d;
}

std::string at(double t) {
  std::ostringstream m;
  m.precision(10);
  m << "at t=" << t;
  return m.str();
}
}  // namespace

EventMonitor::EventMonitor(ProblemView& problem, const SolveRequest& request, OutputSink& sink)
    : problem_(problem),
      request_(request),
      sink_(sink),
      nroots_(problem.nroots()),
      finder_(directions_of(problem)),
      next_time_(request.direction() * std::numeric_limits<double>::infinity()) {
  const auto m = static_cast<Eigen::Index>(nroots_);
  for (auto* g : {&g_left_, &g_right_, &g_root_}) g->setZero(m);
  y_scratch_.setZero(problem.size());
  y_before_.setZero(problem.size());
}

Eval EventMonitor::roots_at(double t, const Eigen::VectorXd& y, Eigen::VectorXd& g) {
  return problem_.roots(t, y, nullptr, g);
}

Eval EventMonitor::start(double t, const Eigen::VectorXd& y) {
  if (nroots_ > 0)
    if (const Eval e = roots_at(t, y, g_left_); e != Eval::ok) return e;
  next_time_ = request_.direction() * std::numeric_limits<double>::infinity();
  if (problem_.has_time_events()) {
    double t_next = 0.0;
    if (const Eval e = problem_.next_time_event(t, &t_next); e != Eval::ok) return e;
    // Only times ahead count; one at t itself was handled (or is the start).
    if (request_.direction() * (t_next - t) > 0.0) next_time_ = t_next;
  }
  return Eval::ok;
}

Eval EventMonitor::find(double t_from, double t_to, const Eigen::VectorXd& y_to, const Interpolant& y_at,
                        RootBracket* root, bool* found) {
  *found = false;
  if (nroots_ == 0) return Eval::ok;
  if (const Eval e = roots_at(t_to, y_to, g_right_); e != Eval::ok) return e;
  const auto g = [&](double t, Eigen::VectorXd& out) {
    if (t == t_to) {
      out = g_right_;
      return Eval::ok;
    }
    y_at(t, y_scratch_);
    return roots_at(t, y_scratch_, out);
  };
  if (const Eval e = finder_.search(g, t_from, t_to, g_left_, g_right_, root, found); e != Eval::ok) return e;
  if (*found) {
    // The values where it was found start the search of the rest of the step.
    if (root->t == t_to) {
      g_root_ = g_right_;
    } else {
      y_at(root->t, y_scratch_);
      if (const Eval e = roots_at(root->t, y_scratch_, g_root_); e != Eval::ok) return e;
    }
  } else {
    g_left_ = g_right_;
  }
  return Eval::ok;
}

EventMonitor::Handled EventMonitor::handle(double t, std::uint32_t kind, const RootBracket* root,
                                           Eigen::VectorXd& y) {
  Handled out;
  Stats& stats = problem_.stats();
  if (++stats.nevents > request_.max_events) {
    std::ostringstream m;
    m << "more than " << request_.max_events << " events " << at(t)
      << " (chattering? raise --max-events if they are real)";
    out.status = Status::too_many_events;
    out.message = m.str();
    return out;
  }
  if (!sink_.emit_marked(t, y, DK_MARK_LEFT_LIMIT)) {
    out.status = Status::stopped_by_observer;
    out.message = "stopped by the observer at an event";
    return out;
  }
  dk_event event{};
  event.struct_size = sizeof event;
  event.t = t;
  event.kind = kind;
  if (root) {
    event.nfired = root->fired.size();
    event.fired = root->fired.data();
    event.directions = root->directions.data();
  }
  y_before_ = y;
  std::uint32_t action = DK_EVENT_CONTINUE;
  if (const Eval e = problem_.on_event(event, y, yp_none_, &action); e != Eval::ok) {
    out.status = Status::evaluation_failure;
    out.message = at(t) + ": " + problem_.last_message();
    return out;
  }
  for (std::size_t k = 0; root && k < root->fired.size(); ++k)
    if (problem_.root_terminal(static_cast<std::size_t>(root->fired[k]))) action = DK_EVENT_STOP;
  out.action = action;
  // A problem that reacts may have switched its own mode without touching y: the step
  // beyond the event was computed with the old equations, so any reaction restarts there.
  out.changed = problem_.has_on_event() || action == DK_EVENT_REINIT || y != y_before_;
  if (!sink_.event(event, action)) {
    out.status = Status::stopped_by_observer;
    out.message = "stopped by the observer at an event";
    return out;
  }
  if (out.changed && !sink_.emit_marked(t, y, DK_MARK_RIGHT_LIMIT)) {
    out.status = Status::stopped_by_observer;
    out.message = "stopped by the observer at an event";
  }
  return out;
}

}  // namespace daekit
