// What the CVODES and IDAS adjoint drivers share beyond the functional's terms
// (numerics/adjoint_terms.hpp): the forward pass, the tolerances of the running term, of
// lambda and of the gradient's quadrature, the gradient's integrand and the cached
// backward Jacobian.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/sdk/solver.hpp>
#include <daekit/numerics/adjoint_terms.hpp>
#include <string>
#include <vector>

#include "linear_algebra.hpp"

namespace daekit::plugins::sundials {

// mu' = -(f_p^T lambda + g_p) at (t, y, lambda) into out (np values): mu(t0) is the
// integral of f_p^T lambda + g_p over [t0, T]. A SUNDIALS return code.
inline int gradient_integrand(ProblemView& problem, FunctionalTerms& terms, double t, const double* y,
                              const double* lambda, double* out) {
  const Eigen::Index n = problem.size(), np = static_cast<Eigen::Index>(problem.np());
  Eigen::Map<const Eigen::VectorXd> yv(y, n), l(lambda, n);
  Eigen::Map<Eigen::VectorXd> o(out, np);
  if (const Eval e = problem.dfdp_transpose_times(t, yv, l, o); e != Eval::ok) return e == Eval::recoverable ? 1 : -1;
  o = -o;
  if (terms.has_running()) {
    if (!terms.running(t, y, nullptr)) return -1;
    o -= terms.g_p();
  }
  return 0;
}

// J for the backward pass, evaluated once per point: IDAS and CVODES ask for the adjoint's
// right-hand side and its Jacobian at the same (t, y) again and again.
class BackwardJacobian {
 public:
  IterationMatrix matrix;  // set up by the driver (dense, or in the problem's pattern)

  Eval at(ProblemView& problem, double t, const Eigen::Ref<const Eigen::VectorXd>& y) {
    if (valid_ && t == t_ && y == y_) return Eval::ok;
    f_.resize(y.size());
    Eval e = problem.rhs(t, y, f_);
    if (e == Eval::ok) e = matrix.evaluate_jacobian(t, y, f_);
    if (e != Eval::ok) return e;
    t_ = t, y_ = y, valid_ = true;
    return Eval::ok;
  }
  // out = J^T x, with the last point's J.
  void transpose_times(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd& out) const {
    if (matrix.sparse())
      out = matrix.sparse_jacobian().transpose() * x;
    else
      out.noalias() = matrix.dense_jacobian().transpose() * x;
  }
  // (alpha M - J)^T into a SUNDIALS matrix (KLU's in W^T's pattern, or dense).
  void transposed_w_into(double alpha, SUNMatrix out) {
    matrix.assemble(alpha);
    if (matrix.sparse()) {
      wt_ = matrix.sparse_w().transpose();
      copy_sparse(wt_, out);
    } else {
      copy_dense(matrix.dense_w().transpose(), out);
    }
  }

 private:
  Eigen::VectorXd f_, y_;
  double t_ = 0;
  bool valid_ = false;
  Eigen::SparseMatrix<double> wt_;
};

// The forward pass from t0 (y holds y0) to tend, stopping at every forward_stops time
// for the data terms and the output; advance(stop, y) integrates to `stop` and says
// success or why not.
template <class Advance>
SolveOutcome forward_pass(const SolveRequest& req, FunctionalTerms& terms, OutputSink& sink, Eigen::VectorXd& y,
                          Advance&& advance) {
  auto at_stop = [&](double t) -> SolveOutcome {
    terms.record(t, y);
    if (!terms.failure().empty()) return {Status::evaluation_failure, terms.failure(), t};
    if (!sink.emit(t, y)) return {Status::stopped_by_observer, "", t};
    return {Status::success, "", t};
  };
  if (SolveOutcome out = at_stop(req.t0); out.status != Status::success) return out;
  for (const double stop : forward_stops(req)) {
    if (stop == req.t0) continue;
    if (SolveOutcome out = advance(stop, y); out.status != Status::success) return out;
    if (!terms.failure().empty()) return {Status::evaluation_failure, terms.failure(), stop};
    if (SolveOutcome out = at_stop(stop); out.status != Status::success) return out;
  }
  return {Status::success, "", req.tend};
}

// The absolute tolerance of the forward quadrature of G's integral: rtol times its size
// at the start (|g(t0)| over the span; the components' smallest atol there when g(t0) = 0).
inline double running_term_atol(const SolveRequest& req, double g0) {
  const double span = std::abs(req.tend - req.t0);
  return req.rtol[0] * (g0 != 0 ? std::abs(g0) * span : req.atol.minCoeff() * span);
}

// lambda's absolute tolerance, one for every component: lambda = dG/dy carries G's units
// over y's, so y's atol says nothing of it (with a fit's atol of 1e-16 the backward pass
// crept in tiny steps through lambda's zero crossings). 1e-4 rtol times lambda's size: its
// largest jump (phi_y, the data terms; projected for a DAE), or g_y over the span.
inline double lambda_atol(const SolveRequest& req, FunctionalTerms& terms) {
  double scale = 0;
  for (const auto& [t, jump] : terms.jumps()) scale = std::max(scale, jump.jump_y.cwiseAbs().maxCoeff());
  if (terms.has_running() && terms.running(req.t0, req.y0.data(), nullptr))
    scale = std::max(scale, terms.g_y().cwiseAbs().maxCoeff() * std::abs(req.tend - req.t0));
  return 1e-4 * req.rtol[0] * (scale > 0 ? scale : 1.0);
}

// The absolute tolerances of the gradient's quadrature: a thousandth of rtol |G| per
// typical magnitude of p_k (its scale, else its nominal value, else 1).
inline Eigen::VectorXd gradient_atol(const dk_problem_info& info, double rtol, double value) {
  Eigen::VectorXd atol(static_cast<Eigen::Index>(info.np));
  for (Eigen::Index k = 0; k < atol.size(); ++k) {
    const double typical = info.p_scale && info.p_scale[k] > 0 ? info.p_scale[k]
                           : info.p_nominal[k] != 0        ? std::abs(info.p_nominal[k])
                                                           : 1.0;
    atol[k] = 1e-3 * rtol * std::max(std::abs(value), 1e-300) / typical;
  }
  return atol;
}

}  // namespace daekit::plugins::sundials
