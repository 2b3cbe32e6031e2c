#include "daekit/numerics/implicit_system.hpp"

#include <cmath>
#include <vector>

#include "daekit/numerics/finite_difference.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

Eval ImplicitSystem::setup(ProblemView& problem, const SolveRequest& request, bool allow_sparse, bool krylov) {
  problem_ = &problem;
  krylov_ = krylov;
  const Eigen::Index n = problem.size();
  const MassKind kind = problem.mass_kind();
  mass_form_ = !problem.residual_only() && (kind == MassKind::identity || kind == MassKind::constant);
  f_.resize(n);
  if (mass_form_) {
    const Eval e = mass_.setup(problem, request.t0, request.y0);
    if (e != Eval::ok) return e;
    if (!krylov) matrix_.setup(problem, request, mass_, allow_sparse);
    return Eval::ok;
  }
  if (krylov) return Eval::ok;
  analytic_residual_jacobian_ = problem.has_residual_jacobian() && request.jacobian != JacobianSource::finite_difference;
  problem.stats().jacobian_used = analytic_residual_jacobian_ ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
  y_work_.resize(n);
  yp_work_.resize(n);
  r_work_.resize(n);
  delta_.resize(n);
  rtol_ = request.rtol;
  atol_ = request.atol;
  // A time- or state-dependent M stored diagonal or sparse, with a Jacobian pattern: the
  // Newton matrix dF/dy + cj dF/dy' lives in the union of the two patterns, differenced one
  // colour at a time, with a sparse LU; nothing is n x n.
  sparse_residual_ = allow_sparse && !analytic_residual_jacobian_ && !problem.residual_only() &&
                     (problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN) &&
                     problem.mass_storage() != DK_MASS_STORAGE_DENSE;
  problem.stats().linear_algebra = sparse_residual_ ? DK_LINEAR_ALGEBRA_SPARSE : DK_LINEAR_ALGEBRA_DENSE;
  if (!sparse_residual_) {
    w_.setZero(n, n);
    return Eval::ok;
  }
  const Eigen::SparseMatrix<double> jac = problem.sparsity_pattern();
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index j = 0; j < n; ++j) {
    entries.emplace_back(j, j, 0.0);
    for (Eigen::SparseMatrix<double>::InnerIterator it(jac, j); it; ++it) entries.emplace_back(it.row(), j, 0.0);
  }
  if (problem.mass_storage() == DK_MASS_STORAGE_SPARSE) {
    std::vector<Eigen::Index> positions;
    const Eigen::SparseMatrix<double> m = problem.mass_pattern(positions);
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(m, j); it; ++it) entries.emplace_back(it.row(), j, 0.0);
  }
  w_sparse_.resize(n, n);
  w_sparse_.setFromTriplets(entries.begin(), entries.end(), [](double a, double) { return a; });
  w_sparse_.makeCompressed();
  colouring_ = colour_columns(static_cast<std::size_t>(n), w_sparse_.outerIndexPtr(), w_sparse_.innerIndexPtr());
  configure_sparse_lu(request, sparse_lu_);
  return Eval::ok;
}

std::string ImplicitSystem::setup_krylov(const SolveRequest& request, const KrylovOptions& options) {
  std::string why;
  // The residual form's operator needs no M: its products difference F along (v, cj v).
  if (!newton_krylov_.setup(*problem_, request, options, mass_form_ ? &mass_ : nullptr, &why)) return why;
  return "";
}

Eval ImplicitSystem::residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, Eigen::VectorXd& r) {
  if (!mass_form_) return problem_->residual(t, y, yp, r);
  const Eval e = problem_->rhs(t, y, f_);
  if (e != Eval::ok) return e;
  mass_.apply(yp, r);
  r -= f_;
  return Eval::ok;
}

Eval ImplicitSystem::refresh(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const Eigen::VectorXd& r,
                             double cj, bool new_jacobian) {
  cj_ = cj;
  singular_ = false;
  if (krylov_) {
    // The preconditioner for M - J/cj (f_ holds f(t, y) for the mass form; the residual
    // form's preconditioners need no f).
    const Eval e = newton_krylov_.prepare_preconditioner(t, y, mass_form_ ? f_ : r, 1.0 / cj, new_jacobian);
    singular_ = e == Eval::recoverable;  // an incomplete factorisation that broke down
    return e == Eval::recoverable ? Eval::ok : e;
  }
  if (mass_form_) {
    // A new Jacobian with every new matrix (jacobian_survives_cj_change()); f_ holds
    // f(t, y) from the residual just evaluated there.
    const Eval e = matrix_.evaluate_jacobian(t, y, f_);
    if (e != Eval::ok) return e;
    singular_ = !matrix_.factor(cj);
    return Eval::ok;
  }
  if (const Eval e = assemble(t, y, yp, r, cj); e != Eval::ok) return e;
  ++problem_->stats().nlu;
  singular_ = sparse_residual_ ? !sparse_lu_.factor(w_sparse_) : !lu_.factor(w_);
  if (singular_) ++problem_->stats().nsingular;
  return Eval::ok;
}

Eval ImplicitSystem::assemble(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const Eigen::VectorXd& r,
                              double cj) {
  ++problem_->stats().njac;
  return analytic_residual_jacobian_ ? problem_->residual_jacobian(t, y, yp, cj, w_)
         : sparse_residual_         ? coloured_difference_matrix(t, y, yp, r, cj)
                                    : difference_matrix(t, y, yp, r, cj);
}

// Column j of dF/dy + cj dF/dy' is the change of F along (e_j, cj e_j), as DASSL forms it.
Eval ImplicitSystem::difference_matrix(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                       const Eigen::VectorXd& r, double cj) {
  y_work_ = y;
  yp_work_ = yp;
  for (Eigen::Index j = 0; j < y.size(); ++j) {
    const double delta = fd_increment(y[j], atol_[j] + rtol_[j] * std::abs(y[j]));
    y_work_[j] = y[j] + delta;
    yp_work_[j] = yp[j] + cj * delta;
    const Eval e = problem_->residual(t, y_work_, yp_work_, r_work_, true);
    y_work_[j] = y[j];
    yp_work_[j] = yp[j];
    if (e != Eval::ok) return e;
    w_.col(j) = (r_work_ - r) / delta;
  }
  return Eval::ok;
}

// The same along (e_j, cj e_j) for all columns j of a colour at once: they share no row
// of the pattern, so each row's change belongs to one of them.
Eval ImplicitSystem::coloured_difference_matrix(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                                const Eigen::VectorXd& r, double cj) {
  y_work_ = y;
  yp_work_ = yp;
  for (Eigen::Index j = 0; j < y.size(); ++j) delta_[j] = fd_increment(y[j], atol_[j] + rtol_[j] * std::abs(y[j]));
  for (const auto& columns : colouring_.columns_of) {
    for (const std::size_t c : columns) {
      const auto j = static_cast<Eigen::Index>(c);
      y_work_[j] = y[j] + delta_[j];
      yp_work_[j] = yp[j] + cj * delta_[j];
    }
    const Eval e = problem_->residual(t, y_work_, yp_work_, r_work_, true);
    for (const std::size_t c : columns) {
      const auto j = static_cast<Eigen::Index>(c);
      y_work_[j] = y[j];
      yp_work_[j] = yp[j];
    }
    if (e != Eval::ok) return e;
    for (const std::size_t c : columns) {
      const auto j = static_cast<Eigen::Index>(c);
      for (Eigen::SparseMatrix<double>::InnerIterator it(w_sparse_, j); it; ++it)
        it.valueRef() = (r_work_[it.row()] - r[it.row()]) / delta_[j];
    }
  }
  return Eval::ok;
}

void ImplicitSystem::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  if (mass_form_) {
    matrix_.solve(b, x);
    return;
  }
  ++problem_->stats().nsolve;
  if (sparse_residual_)
    sparse_lu_.solve(b, x);
  else
    lu_.solve(b, x);
}

ImplicitSystem::Correction ImplicitSystem::correction(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                                      double cj, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                                      const Eigen::VectorXd& weights, double tol) {
  if (!krylov_) {
    solve(b, x);
    return {};
  }
  // W x = b as (M - J/cj) x = b/cj: the linear residual then has y's units, and the error
  // weights measure it as they measure x (IDA scales its system so, too).
  newton_krylov_.linearise_at(t, y, yp, 1.0 / cj, cj);
  Correction c;
  c.outcome = newton_krylov_.solve(weights, b, x, tol);
  if (c.outcome == KrylovSolver::Outcome::model_failed) c.model = newton_krylov_.model_failure();
  return c;
}

}  // namespace daekit
