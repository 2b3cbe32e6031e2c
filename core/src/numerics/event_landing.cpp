// EventMonitor::land: an event inside a step at the accuracy of the step itself
// (numerics/event_monitor.hpp says when and why).
#include "daekit/numerics/event_monitor.hpp"

#include <cmath>
#include <limits>

namespace daekit {

namespace {
// Re-taken steps per event at most: the first lands on the interpolant's root, the second
// on Newton's correction of it (the interpolant's error in g over the slope), a third on
// the secant's where the second's still moves the state by more than its tolerance allows.
constexpr int max_retakes = 3;
}  // namespace

bool EventMonitor::ends_step(const RootBracket& root) const {
  if (problem_.has_on_event()) return true;
  for (const std::int32_t i : root.fired)
    if (problem_.root_terminal(static_cast<std::size_t>(i))) return true;
  return false;
}

bool EventMonitor::all_crossed_at(const RootBracket& root, const Eigen::VectorXd& g) const {
  for (std::size_t k = 0; k < root.fired.size(); ++k)
    if (!on_new_side(g[root.fired[k]], root.directions[k])) return false;
  return true;
}

Eval EventMonitor::slope_at_root(double t_from, double t_to, const Interpolant& y_at, const RootBracket& root,
                                 double* slope) {
  // A central difference over a thousandth of the step (the interpolant is a polynomial of
  // low degree: its error there is far below the slope's use), one-sided at the ends.
  const double h = t_to - t_from;
  const double a = (root.t - 1e-3 * h - t_from) * h < 0.0 ? t_from : root.t - 1e-3 * h;
  const double b = (root.t + 1e-3 * h - t_to) * h > 0.0 ? t_to : root.t + 1e-3 * h;
  *slope = 0.0;
  if (a == b) return Eval::ok;
  const auto i = static_cast<Eigen::Index>(root.fired[0]);
  y_at(a, y_scratch_);
  if (const Eval e = roots_at(a, y_scratch_, g_probe_); e != Eval::ok) return e;
  const double g_a = g_probe_[i];
  y_at(b, y_scratch_);
  if (const Eval e = roots_at(b, y_scratch_, g_probe_); e != Eval::ok) return e;
  *slope = root.directions[0] * (g_probe_[i] - g_a) / (b - a);
  return Eval::ok;
}

double EventMonitor::moved_by(const Interpolant& y_at, double t, double dt) {
  y_at(t, y_scratch_);
  y_at(t + dt, y_moved_);
  y_moved_ -= y_scratch_;
  return request_.in_tolerances(y_moved_, y_scratch_);
}

Eval EventMonitor::land(double t_from, double t_to, const Interpolant& y_at, const Retake& retake, RootBracket* root) {
  if (root->fired.empty() || root->t == t_to) return Eval::ok;  // the step's end is its own
  double slope = 0.0;
  if (const Eval e = slope_at_root(t_from, t_to, y_at, *root, &slope); e != Eval::ok) return e;
  const double h = t_to - t_from;
  // The fired function must be on its way to the new side there, or Newton has no slope.
  if (!std::isfinite(slope) || !(slope * h > 0.0)) return Eval::ok;
  const double tolerance = RootFinder::time_tolerance(t_from, t_to);
  const auto i = static_cast<Eigen::Index>(root->fired[0]);
  const double direction = root->directions[0];
  double t = root->t, t_before = 0.0, along_before = 0.0;
  for (int k = 0; k < max_retakes; ++k) {
    if (!retake(t, y_landed_)) break;  // the interpolant's state stays (or the last landed)
    if (const Eval e = roots_at(t, y_landed_, g_landed_); e != Eval::ok) return e;
    // g_i times its direction: below zero on the old side, rising through the root.
    const double along = direction * g_landed_[i];
    const bool crossed = all_crossed_at(*root, g_landed_);
    if (crossed) {
      root->t = t;
      y_root_ = y_landed_;
      g_root_ = g_landed_;
    }
    if (k > 0 && t != t_before) {
      const double secant = (along - along_before) / (t - t_before);
      if (std::isfinite(secant) && secant * h > 0.0) slope = secant;
    }
    double correction = -along / slope;
    // Done where the correction would move the state by a hundredth of its tolerance or less.
    if (crossed && (std::abs(correction) <= tolerance || moved_by(y_at, t, correction) <= 1e-2)) break;
    // Short of the new side: aim a little past the root (the slope is the interpolant's or
    // a secant's), so the next landing has crossed.
    if (!crossed) correction = 1.01 * correction + std::copysign(tolerance, h);
    const double next = t + correction;
    if (next == t || !((next - t_from) * h > 0.0 && (t_to - next) * h > 0.0)) break;
    t_before = t;
    along_before = along;
    t = next;
  }
  return Eval::ok;
}

}  // namespace daekit
