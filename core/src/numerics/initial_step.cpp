#include "daekit/numerics/initial_step.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {
namespace {

double rms_differential(const ProblemView& problem, const Eigen::VectorXd& v, const Eigen::VectorXd& w) {
  double sum = 0.0;
  int count = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (problem.is_algebraic(i)) continue;
    sum += (v[i] * w[i]) * (v[i] * w[i]);
    ++count;
  }
  return count ? std::sqrt(sum / count) : 0.0;
}

// The differential components' largest |y'_i| / (|y_i| / 10 + 1 / w_i): the inverse of the
// step that moves none of them by more than a tenth of its size plus its tolerance.
double inverse_step_bound(const ProblemView& problem, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                          const Eigen::VectorXd& w) {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    if (!problem.is_algebraic(i)) largest = std::max(largest, std::abs(yp[i]) / (0.1 * std::abs(y[i]) + 1.0 / w[i]));
  return largest;
}

}  // namespace

Eval first_step_order_one(ProblemView& problem, const ErrorNorm& norm, const MassMatrix& mass, double t0,
                          double tend, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0, double hmax,
                          double* h_out) {
  *h_out = 0.0;
  for (Eigen::Index i = 0; i < y0.size(); ++i)
    if (problem.is_algebraic(i)) return Eval::ok;  // a DAE's y' says little about the first step's error
  const double span = std::abs(tend - t0);
  const double direction = tend >= t0 ? 1.0 : -1.0;
  Eigen::VectorXd w, y1, f1(y0.size()), yp1;
  norm.weights(y0, w);
  const double lower = 100.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t0), std::abs(tend));
  double upper = 0.1 * span;
  if (hmax > 0.0) upper = std::min(upper, hmax);
  const double inverse_bound = inverse_step_bound(problem, y0, yp0, w);
  if (inverse_bound * upper > 1.0) upper = 1.0 / inverse_bound;
  if (!(upper > lower)) return Eval::ok;
  // From deep inside the bounds, y'' measured again at each estimate until two agree.
  double h = std::sqrt(lower * upper), estimate = upper;
  for (int pass = 0; pass < 4; ++pass) {
    y1 = y0 + (direction * h) * yp0;
    const Eval e = problem.rhs(t0 + direction * h, y1, f1);
    if (e == Eval::fatal) return e;
    if (e != Eval::ok) return Eval::ok;  // f is not defined along y': the caller's rule
    derivative_from_mass(mass, problem, f1, yp1);
    const double second = rms_differential(problem, Eigen::VectorXd(yp1 - yp0), w) / h;
    estimate = second > 0.0 ? std::min(upper, std::sqrt(0.5 / second)) : upper;  // h^2/2 |y''| = 1/4
    const double ratio = estimate / h;
    h = estimate;
    if (pass > 0 && ratio > 0.5 && ratio < 2.0) break;
  }
  *h_out = std::max(estimate, lower);
  return Eval::ok;
}

Eval initial_step(ProblemView& problem, const ErrorNorm& norm, const MassMatrix& mass, double t0,
                  const Eigen::VectorXd& y0, const Eigen::VectorXd& f0, int order, double hmax,
                  double* h_out) {
  Eigen::VectorXd w, yp0, yp1, y1, f1(y0.size());
  norm.weights(y0, w);
  derivative_from_mass(mass, problem, f0, yp0);
  const double d0 = rms_differential(problem, y0, w);
  const double d1 = rms_differential(problem, yp0, w);
  double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  h0 = std::min(h0, hmax);
  y1 = y0 + h0 * yp0;
  Eval e = problem.rhs(t0 + h0, y1, f1);
  if (e == Eval::fatal) return e;
  if (e != Eval::ok) {  // the trial point is out of the model's domain: fall back to a cautious step
    *h_out = std::min(h0, hmax) * 1e-3;
    return Eval::ok;
  }
  derivative_from_mass(mass, problem, f1, yp1);
  const double d2 = rms_differential(problem, Eigen::VectorXd(yp1 - yp0), w) / h0;
  const double dmax = std::max(d1, d2);
  const double h1 = dmax <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / dmax, 1.0 / (order + 1));
  *h_out = std::min({100.0 * h0, h1, hmax});
  return Eval::ok;
}

}  // namespace daekit
