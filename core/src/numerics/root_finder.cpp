#include "daekit/numerics/root_finder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

namespace {
int sign(double v) { return (v > 0.0) - (v < 0.0); }
constexpr int max_iterations = 200;
}  // namespace

RootFinder::RootFinder(std::vector<std::int8_t> allowed) : allowed_(std::move(allowed)) {}

double RootFinder::time_tolerance(double a, double b) {
  return 100.0 * std::numeric_limits<double>::epsilon() * (std::abs(a) + std::abs(b - a));
}

int RootFinder::crossing(std::size_t i, double left, double right) const {
  const int sl = sign(left), sr = sign(right);
  if (sl == 0 || sl == sr) return 0;  // from zero, or no change of sign: no crossing
  const int direction = -sl;          // rising when it leaves negative values
  return allowed_[i] == 0 || allowed_[i] == direction ? direction : 0;
}

bool RootFinder::any_crossing(const Eigen::VectorXd& left, const Eigen::VectorXd& right) const {
  for (Eigen::Index i = 0; i < left.size(); ++i)
    if (crossing(static_cast<std::size_t>(i), left[i], right[i]) != 0) return true;
  return false;
}

Eval RootFinder::search(const Evaluate& g, double a, double b, const Eigen::VectorXd& ga, const Eigen::VectorXd& gb,
                        RootBracket* root, bool* found) {
  *found = false;
  if (any_crossing(ga, gb)) {
    *found = true;
    return refine(g, a, b, ga, gb, root);
  }
  // No crossing at the ends. A function that is small against its change may have
  // crossed twice: look at the midpoint before believing the ends.
  bool look_inside = false;
  for (Eigen::Index i = 0; i < ga.size() && !look_inside; ++i)
    look_inside = sign(ga[i]) != 0 && std::min(std::abs(ga[i]), std::abs(gb[i])) < std::abs(gb[i] - ga[i]);
  if (!look_inside) return Eval::ok;
  const double m = a + 0.5 * (b - a);
  gmid_.resize(ga.size());
  if (const Eval e = g(m, gmid_); e != Eval::ok) return e;
  if (any_crossing(ga, gmid_)) {
    *found = true;
    return refine(g, a, m, ga, gmid_, root);
  }
  if (any_crossing(gmid_, gb)) {
    *found = true;
    return refine(g, m, b, gmid_, gb, root);
  }
  return Eval::ok;
}

Eval RootFinder::refine(const Evaluate& g, double lo, double hi, Eigen::VectorXd glo, Eigen::VectorXd ghi,
                        RootBracket* root) {
  const double tol = time_tolerance(lo, hi);
  Eigen::VectorXd gt(glo.size());
  // Illinois weights: when the same end moves twice in a row, the other end's value
  // is halved in the secant, so the iteration does not creep from one side.
  double weight_lo = 1.0, weight_hi = 1.0;
  int last_moved = 0;  // -1 lo, +1 hi
  for (int iteration = 0; iteration < max_iterations && std::abs(hi - lo) > tol; ++iteration) {
    // The earliest secant estimate over the functions that cross in the bracket.
    double fraction = 1.0;
    for (Eigen::Index i = 0; i < glo.size(); ++i) {
      if (crossing(static_cast<std::size_t>(i), glo[i], ghi[i]) == 0) continue;
      const double l = weight_lo * glo[i], r = weight_hi * ghi[i];
      fraction = std::min(fraction, l / (l - r));
    }
    // Stay clear of the ends, so the bracket shrinks by a useful amount each time;
    // every fifth try bisects, which bounds the count however the functions curve.
    const double margin = std::max(0.5 * tol / std::abs(hi - lo), 0.01);
    fraction = iteration % 5 == 4 ? 0.5 : std::clamp(fraction, margin, 1.0 - margin);
    const double t = lo + fraction * (hi - lo);
    if (const Eval e = g(t, gt); e != Eval::ok) return e;
    if (any_crossing(glo, gt)) {
      hi = t;
      ghi = gt;
      weight_hi = 1.0;
      if (last_moved == +1) weight_lo *= 0.5;
      last_moved = +1;
    } else {
      lo = t;
      glo = gt;
      weight_lo = 1.0;
      if (last_moved == -1) weight_hi *= 0.5;
      last_moved = -1;
    }
  }
  root->t = hi;
  root->fired.clear();
  root->directions.clear();
  for (Eigen::Index i = 0; i < glo.size(); ++i) {
    const int d = crossing(static_cast<std::size_t>(i), glo[i], ghi[i]);
    if (d != 0) {
      root->fired.push_back(static_cast<std::int32_t>(i));
      root->directions.push_back(static_cast<std::int8_t>(d));
    }
  }
  return Eval::ok;
}

}  // namespace daekit
