#include "daekit/numerics/event_monitor.hpp"

#include "daekit/numerics/time_text.hpp"

#include <algorithm>
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

// Successive parabolas tried at most per turning point (each one evaluation of g).
constexpr int max_turn_looks = 6;

}  // namespace

EventMonitor::EventMonitor(ProblemView& problem, const SolveRequest& request, OutputSink& sink)
    : problem_(problem),
      request_(request),
      sink_(sink),
      nroots_(problem.nroots()),
      finder_(directions_of(problem)),
      next_time_(request.direction() * std::numeric_limits<double>::infinity()) {
  const auto m = static_cast<Eigen::Index>(nroots_);
  for (auto* g : {&g_left_, &g_right_, &g_root_, &g_piece_left_, &g_piece_right_, &g_probe_}) g->setZero(m);
  // State-sized work for root finding and handling only where events can happen.
  y_scratch_.setZero(nroots_ > 0 ? problem.size() : 0);
  y_root_.setZero(nroots_ > 0 ? problem.size() : 0);
  y_landed_.setZero(nroots_ > 0 ? problem.size() : 0);
  y_moved_.setZero(nroots_ > 0 ? problem.size() : 0);
  g_landed_.setZero(m);
  y_before_.setZero(active() || problem.wants_step_notification() ? problem.size() : 0);
  // A mass-matrix DAE's reaction is checked against the algebraic equations as they were.
  const bool may_react = (active() || problem.wants_step_notification()) && problem.has_on_event();
  if (may_react && !problem.residual_only() && problem.mass_kind() != MassKind::identity)
    rhs_before_.setZero(problem.size());
  // Only where events can happen: the jump keeps its own sensitivity equations.
  if (request.wants_sensitivities() && (active() || problem.wants_step_notification())) jump_.emplace(problem, request);
}

Eval EventMonitor::roots_at(double t, const Eigen::VectorXd& y, Eigen::VectorXd& g) {
  return problem_.roots(t, y, nullptr, g);
}

Eval EventMonitor::start(double t, const Eigen::VectorXd& y) {
  // The method has restarted from s+ (or never jumped): points from here are its own.
  s_jumped_ = false;
  sink_.hold_sensitivities(t, nullptr);
  if (nroots_ > 0)
    if (const Eval e = roots_at(t, y, g_left_); e != Eval::ok) return e;
  recrossing_.clear();
  for (std::size_t k = 0; k < reacted_.fired.size(); ++k) {
    const double g = g_left_[reacted_.fired[k]];
    if (g != 0.0 && (g > 0.0) != (reacted_.directions[k] > 0))
      recrossing_.push_back({reacted_.fired[k], reacted_.directions[k], std::abs(g)});
  }
  reacted_ = RootBracket{};
  next_time_ = request_.direction() * std::numeric_limits<double>::infinity();
  if (problem_.has_time_events()) {
    double t_next = 0.0;
    if (const Eval e = problem_.next_time_event(t, &t_next); e != Eval::ok) return e;
    // Only times ahead count; one at t itself was handled (or is the start).
    if (request_.direction() * (t_next - t) > 0.0) next_time_ = t_next;
  }
  return Eval::ok;
}

bool EventMonitor::at_tend(double t) const {
  const double span = std::abs(request_.tend - request_.t0);
  const double scale = std::max({std::abs(request_.t0), std::abs(request_.tend), span});
  return std::abs(t - request_.tend) <= 1000.0 * std::numeric_limits<double>::epsilon() * scale;
}

Eval EventMonitor::find(double t_from, double t_to, const Eigen::VectorXd& y_to, const Interpolant& y_at,
                        RootBracket* root, bool* found, const Interpolant* y_refined_at) {
  *found = false;
  if (nroots_ == 0) return Eval::ok;
  if (const Eval e = roots_at(t_to, y_to, g_right_); e != Eval::ok) return e;
  const Interpolant& y_search = y_refined_at ? *y_refined_at : y_at;
  const auto g_with = [&](const Interpolant& y_between, double t, Eigen::VectorXd& out) {
    if (t == t_to) {
      out = g_right_;
      return Eval::ok;
    }
    y_between(t, y_scratch_);
    return roots_at(t, y_scratch_, out);
  };
  const auto g_sample = [&](double t, Eigen::VectorXd& out) { return g_with(y_at, t, out); };
  const auto g = [&](double t, Eigen::VectorXd& out) { return g_with(y_search, t, out); };
  // All samples first, then the pieces between them in turn, so the earliest crossing is
  // found first and each piece has its neighbours at hand.
  const int pieces = request_.event_samples + 1;
  const auto m = static_cast<Eigen::Index>(nroots_);
  times_.resize(static_cast<std::size_t>(pieces) + 1);
  samples_.resize(m, pieces + 1);
  times_[0] = t_from;
  samples_.col(0) = g_left_;
  for (int j = 1; j < pieces; ++j) {
    times_[static_cast<std::size_t>(j)] = t_from + (t_to - t_from) * (static_cast<double>(j) / pieces);
    if (const Eval e = g_sample(times_[static_cast<std::size_t>(j)], g_probe_); e != Eval::ok) return e;
    samples_.col(j) = g_probe_;
  }
  times_[static_cast<std::size_t>(pieces)] = t_to;
  samples_.col(pieces) = g_right_;
  for (int j = 0; j < pieces && !*found; ++j) {
    const double a = times_[static_cast<std::size_t>(j)], b = times_[static_cast<std::size_t>(j) + 1];
    g_piece_left_ = samples_.col(j);
    g_piece_right_ = samples_.col(j + 1);
    double probe = 0.0;
    Eigen::Index turning = -1;
    if (!turning_point(j, pieces, &probe, &turning)) {
      if (const Eval e = finder_.search(g, a, b, g_piece_left_, g_piece_right_, root, found); e != Eval::ok) return e;
    } else {
      // A function may turn back inside the piece: the halves at its turning point, found
      // by successive parabolas through the piece's ends and the last look.
      if (const Eval e = look_at_turn(g, a, b, turning, &probe); e != Eval::ok) return e;
      if (const Eval e = finder_.search(g, a, probe, g_piece_left_, g_probe_, root, found); e != Eval::ok) return e;
      if (!*found)
        if (const Eval e = finder_.search(g, probe, b, g_probe_, g_piece_right_, root, found); e != Eval::ok)
          return e;
    }
    if (*found && y_refined_at && root->t == b && b != t_to) {
      // Found at the piece's end, whose sample is the interpolant's: by the refined state
      // there the crossing may lie in the next piece, which then starts from that state.
      if (const Eval e = g(b, g_probe_); e != Eval::ok) return e;
      if (!crossed_at(*root, g_probe_)) {
        *found = false;
        samples_.col(j + 1) = g_probe_;
      }
    }
  }
  // A root at tend is not an event: the run ends there with the state before it.
  if (*found && at_tend(root->t)) *found = false;
  if (*found && crossed_again(*root)) {
    // The crossing of the event the method restarted from: the search goes on after it.
    if (root->t == t_to) {
      g_left_ = g_right_;
      *found = false;
      return Eval::ok;
    }
    y_search(root->t, y_root_);
    if (const Eval e = roots_at(root->t, y_root_, g_root_); e != Eval::ok) return e;
    continue_after_event(*root);
    return find(root->t, t_to, y_to, y_at, root, found, y_refined_at);
  }
  if (!*found) forget_turned_away();
  if (*found) {
    // The values where it was found start the search of the rest of the step.
    if (root->t == t_to) {
      g_root_ = g_right_;
      y_root_ = y_to;
    } else {
      y_search(root->t, y_root_);
      if (const Eval e = roots_at(root->t, y_root_, g_root_); e != Eval::ok) return e;
    }
  } else {
    g_left_ = g_right_;
  }
  return Eval::ok;
}

bool EventMonitor::crossed_again(const RootBracket& root) {
  if (recrossing_.empty()) return false;
  for (std::size_t k = 0; k < root.fired.size(); ++k) {
    const auto same = [&](const Recrossing& r) {
      return r.function == root.fired[k] && r.direction == root.directions[k];
    };
    if (std::find_if(recrossing_.begin(), recrossing_.end(), same) == recrossing_.end()) return false;
  }
  std::erase_if(recrossing_, [&](const Recrossing& r) {
    return std::find(root.fired.begin(), root.fired.end(), r.function) != root.fired.end();
  });
  return true;
}

void EventMonitor::forget_turned_away() {
  std::erase_if(recrossing_, [&](Recrossing& r) {
    const double g = g_right_[r.function];
    if (g == 0.0 || (g > 0.0) == (r.direction > 0) || std::abs(g) >= r.distance) return true;
    r.distance = std::abs(g);
    return false;
  });
}

bool EventMonitor::crossed_at(const RootBracket& root, const Eigen::VectorXd& g) const {
  for (std::size_t k = 0; k < root.fired.size(); ++k)
    if (on_new_side(g[root.fired[k]], root.directions[k])) return true;
  return false;
}

bool EventMonitor::turning_point(int j, int pieces, double* probe, Eigen::Index* function) const {
  const double a = times_[static_cast<std::size_t>(j)], b = times_[static_cast<std::size_t>(j) + 1];
  bool any = false;
  // The parabolas through the piece's samples and a neighbour on either side.
  for (const int first : {j - 1, j}) {
    if (first < 0 || first + 2 > pieces) continue;
    const double x0 = times_[static_cast<std::size_t>(first)], x1 = times_[static_cast<std::size_t>(first) + 1],
                 x2 = times_[static_cast<std::size_t>(first) + 2];
    for (Eigen::Index i = 0; i < samples_.rows(); ++i) {
      const double ga = samples_(i, j), gb = samples_(i, j + 1);
      if (ga == 0.0 || (ga > 0.0) != (gb > 0.0)) continue;  // a sign change is the search's anyway
      const double y0 = samples_(i, first), y1 = samples_(i, first + 1), y2 = samples_(i, first + 2);
      const double d01 = (y1 - y0) / (x1 - x0), d12 = (y2 - y1) / (x2 - x1), d012 = (d12 - d01) / (x2 - x0);
      if (d012 == 0.0 || !std::isfinite(d012)) continue;
      const double vertex = 0.5 * (x0 + x1) - d01 / (2.0 * d012);
      if (!((vertex - a) * (b - vertex) > 0.0)) continue;  // not strictly inside the piece
      const double value = y0 + d01 * (vertex - x0) + d012 * (vertex - x0) * (vertex - x1);
      if ((value > 0.0) == (ga > 0.0) && value != 0.0) continue;  // turns without reaching zero
      // The earliest turning point over all functions.
      if (!any || (vertex - *probe) * (b - a) < 0.0) {
        *probe = vertex;
        *function = i;
      }
      any = true;
    }
  }
  return any;
}

template <class G>
Eval EventMonitor::look_at_turn(G& g, double a, double b, Eigen::Index i, double* probe) {
  // Three points around the turn: the piece's ends and the look; each new parabola's vertex
  // replaces the point on its side, until g_i has the other sign there or the looks stop
  // moving (a turn that does not reach zero).
  double xl = a, xr = b, yl = g_piece_left_[i], yr = g_piece_right_[i];
  const double sign = yl > 0.0 ? 1.0 : -1.0;
  for (int look = 0; look < max_turn_looks; ++look) {
    if (const Eval e = g(*probe, g_probe_); e != Eval::ok) return e;
    const double xm = *probe, ym = g_probe_[i];
    if (sign * ym <= 0.0) return Eval::ok;
    const double d01 = (ym - yl) / (xm - xl), d12 = (yr - ym) / (xr - xm), d012 = (d12 - d01) / (xr - xl);
    if (d012 == 0.0 || !std::isfinite(d012)) return Eval::ok;
    const double vertex = 0.5 * (xl + xm) - d01 / (2.0 * d012);
    const double value = yl + d01 * (vertex - xl) + d012 * (vertex - xl) * (vertex - xm);
    if (!((vertex - xl) * (xr - vertex) > 0.0) || sign * value > 0.0) return Eval::ok;
    if (std::abs(vertex - xm) <= RootFinder::time_tolerance(a, b)) return Eval::ok;
    if ((vertex - xm) * (xr - xl) > 0.0) {
      xl = xm;
      yl = ym;
    } else {
      xr = xm;
      yr = ym;
    }
    *probe = vertex;
  }
  return g(*probe, g_probe_);
}

void EventMonitor::continue_after_event(const RootBracket& root) {
  g_left_ = g_root_;
  // A function that fired and is exactly zero where it was found has crossed: it starts
  // the rest of the step on its new side, so it can cross back inside the step (a flat
  // root's pair). Zero at the left end would otherwise mean "not crossed".
  for (std::size_t k = 0; k < root.fired.size(); ++k)
    if (g_left_[root.fired[k]] == 0.0)
      g_left_[root.fired[k]] = root.directions[k] * std::numeric_limits<double>::denorm_min();
}

EventMonitor::Handled EventMonitor::handle(double t, std::uint32_t kind, const RootBracket* root,
                                           Eigen::VectorXd& y) {
  Handled out;
  Stats& stats = problem_.stats();
  if (root) stats.nroots_fired += static_cast<std::int64_t>(root->fired.size());
  if (++stats.nevents > request_.max_events) {
    std::ostringstream m;
    m << "more than " << request_.max_events << " events " << at_time(t)
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
  // Without a reaction nothing changes at the event, and s goes on as it was.
  if (jump_ && problem_.has_on_event() && !sensitivities_before(event, y, out)) return out;
  if (rhs_before_.size() > 0)
    if (const Eval e = problem_.rhs(t, y, rhs_before_); e != Eval::ok) {
      out.status = Status::evaluation_failure;
      out.message = "evaluating the model at the event " + at_time(t) + ": " + problem_.last_message();
      return out;
    }
  std::uint32_t action = DK_EVENT_CONTINUE;
  if (const Eval e = problem_.on_event(event, y, yp_none_, &action); e != Eval::ok) {
    out.status = Status::evaluation_failure;
    out.message = at_time(t) + ": " + problem_.last_message();
    return out;
  }
  for (std::size_t k = 0; root && k < root->fired.size(); ++k)
    if (problem_.root_terminal(static_cast<std::size_t>(root->fired[k]))) action = DK_EVENT_STOP;
  out.action = action;
  // A problem that reacts may have switched its own mode without touching y: the step
  // beyond the event was computed with the old equations, so any reaction restarts there.
  out.changed = problem_.has_on_event() || action == DK_EVENT_REINIT || y != y_before_;
  reacted_ = RootBracket{};
  if (root && out.changed && action != DK_EVENT_REINIT && y == y_before_) {
    // Only functions the reaction left as they were (a mode may move a threshold).
    if (const Eval e = roots_at(t, y, g_probe_); e != Eval::ok) {
      out.status = Status::evaluation_failure;
      out.message = "evaluating the events after the reaction " + at_time(t) + ": " + problem_.last_message();
      return out;
    }
    for (std::size_t k = 0; k < root->fired.size(); ++k)
      if (g_probe_[root->fired[k]] == g_root_[root->fired[k]]) {
        reacted_.fired.push_back(root->fired[k]);
        reacted_.directions.push_back(root->directions[k]);
      }
  }
  if (jump_ && out.changed) {
    std::string why;
    if (const Status st = jump_->after(event, y, y != y_before_, action == DK_EVENT_REINIT, s_event_, &why);
        st != Status::success) {
      out.status = st;
      out.message = "the sensitivities at the event: " + why;
      return out;
    }
    s_jumped_ = true;
    sink_.hold_sensitivities(t, &s_event_);
  }
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

bool EventMonitor::sensitivities_before(const dk_event& event, const Eigen::VectorXd& y, Handled& out) {
  if (!sink_.sensitivities_at(event.t, s_event_)) {
    out.status = Status::internal_error;
    out.message = "the sensitivities could not be interpolated at the event " + at_time(event.t);
    return false;
  }
  std::string why;
  if (const Status st = jump_->before(event, y, s_event_, &why); st != Status::success) {
    out.status = st;
    out.message = "the sensitivities at the event: " + why;
    return false;
  }
  return true;
}

}  // namespace daekit
