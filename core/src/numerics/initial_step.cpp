#include "daekit/numerics/initial_step.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

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

}  // namespace

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
