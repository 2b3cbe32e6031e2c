#include "daekit/numerics/jacobian_product.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/problem_view.hpp"

namespace daekit {

void JacobianProduct::setup(ProblemView& problem, const SolveRequest& request, bool mass_form) {
  problem_ = &problem;
  mass_form_ = mass_form;
  atol_ = &request.atol;
  // Work space for the differences only: with the problem's own J v a product needs none
  // (at 2 10^6 unknowns each vector is 16 MB).
  const Eigen::Index n = by_differences() ? problem.size() : 0;
  y_work_.resize(n);
  f_back_.resize(n);
  yp_work_.resize(mass_form ? 0 : n);
}

void JacobianProduct::at(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj) {
  t_ = t;
  y_ = &y;
  yp_ = &yp;
  cj_ = cj;
}

double JacobianProduct::increment(ConstRef v) const {
  // The step moves each component by at most eps^(1/3) of its scale: its size, or its
  // absolute tolerance where it is smaller, but never below sqrt(eps) of the state's
  // largest component (where f's round-off would drown the difference).
  const double eps = std::numeric_limits<double>::epsilon();
  const double floor = std::sqrt(eps) * y_->cwiseAbs().maxCoeff();
  double largest = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    largest = std::max(largest, std::abs(v[i]) / (std::abs((*y_)[i]) + std::max((*atol_)[i], floor) + 1e-300));
  return largest > 0.0 ? std::cbrt(eps) / largest : 0.0;
}

bool JacobianProduct::by_differences() const {
  return mass_form_ ? !problem_->has_jacobian_vector() : !problem_->has_residual_jacobian_vector();
}

Eval JacobianProduct::apply(ConstRef v, Ref out) {
  if (mass_form_ && problem_->has_jacobian_vector()) return problem_->jacobian_vector(t_, *y_, v, out);
  if (!mass_form_ && problem_->has_residual_jacobian_vector())
    return problem_->residual_jacobian_vector(t_, *y_, *yp_, cj_, v, out);
  ++problem_->stats().njtv;
  const double sigma = increment(v);
  if (sigma == 0.0) {
    out.setZero();
    return Eval::ok;
  }
  // The forward value goes straight into out (v is never out: the callers' products go
  // from one vector into another).
  if (Eval e = evaluate_at(-sigma, v, f_back_); e != Eval::ok) return e;
  if (Eval e = evaluate_at(sigma, v, out); e != Eval::ok) return e;
  out = (out - f_back_) / (2.0 * sigma);
  return Eval::ok;
}

Eval JacobianProduct::evaluate_at(double sigma, ConstRef v, Ref value) {
  y_work_ = *y_ + sigma * v;
  if (mass_form_) return problem_->rhs(t_, y_work_, value, true);
  yp_work_ = *yp_ + (cj_ * sigma) * v;
  return problem_->residual(t_, y_work_, yp_work_, value, true);
}

}  // namespace daekit
