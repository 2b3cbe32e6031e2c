#include "daekit/numerics/iteration_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "daekit/numerics/finite_difference.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

void configure_sparse_lu(const SolveRequest& request, SparseLUSolver& lu) {
  const std::string ordering = request.extra_text("sparse_ordering", "auto");
  const std::string factoriser = request.extra_text("sparse_lu", "auto");
  lu.set_ordering(ordering == "metis" ? SparseOrdering::metis : ordering == "colamd" ? SparseOrdering::colamd
                                                                                     : SparseOrdering::automatic);
  lu.set_factoriser(factoriser == "supernodal" ? SparseFactoriser::supernodal
                    : factoriser == "klu"      ? SparseFactoriser::klu
                    : factoriser == "umfpack"  ? SparseFactoriser::umfpack
                                               : SparseFactoriser::automatic);
}

void IterationMatrix::setup(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                            bool allow_sparse) {
  problem_ = &problem;
  mass_ = &mass;
  const Eigen::Index n = problem.size();
  sparse_ = allow_sparse && (problem.info().flags & DK_PROBLEM_SPARSE_JACOBIAN);
  const bool has_analytic = sparse_ ? problem.has_sparse_jacobian() : problem.has_analytic_jacobian();
  analytic_ = request.jacobian != JacobianSource::finite_difference && has_analytic;
  problem.stats().jacobian_used = analytic_ ? DK_JACOBIAN_ANALYTIC : DK_JACOBIAN_FINITE_DIFFERENCE;
  problem.stats().linear_algebra = sparse_ ? DK_LINEAR_ALGEBRA_SPARSE : DK_LINEAR_ALGEBRA_DENSE;
  y_work_.resize(n);
  f_work_.resize(n);
  delta_.resize(n);
  rtol_ = request.rtol;
  atol_ = request.atol;
  colouring_allowed_ = request.extra_bool("fd_colouring", true);
  check_ = analytic_ && request.check_derivatives;
  if (check_) {
    derivative_check_.setup(problem, request);
    y_check_.resize(n);
    f_check_.resize(n);
  }
  colouring_ = ColumnColouring{};
  pattern_.resize(0, 0);
  if (!sparse_) {
    // n x n storage comes with the first Jacobian: a solver that only asks for J's action
    // (linear_solver=krylov) never allocates it.
    jac_.resize(0, 0);
    w_.resize(0, 0);
    if (!analytic_) use_differences();
    return;
  }
  // W's pattern: the Jacobian's, the mass matrix's and the diagonal.
  jac_sparse_ = problem.sparsity_pattern();
  if (!analytic_) use_differences();
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index j = 0; j < n; ++j) {
    entries.emplace_back(j, j, 0.0);
    for (Eigen::SparseMatrix<double>::InnerIterator it(jac_sparse_, j); it; ++it)
      entries.emplace_back(it.row(), j, 0.0);
  }
  mass.for_each_nonzero([&](Eigen::Index i, Eigen::Index j, double) { entries.emplace_back(i, j, 0.0); });
  w_sparse_.resize(n, n);
  w_sparse_.setFromTriplets(entries.begin(), entries.end(), [](double a, double) { return a; });
  w_sparse_.makeCompressed();
  auto position = [&](Eigen::Index i, Eigen::Index j) {
    const auto* outer = w_sparse_.outerIndexPtr();
    const auto* inner = w_sparse_.innerIndexPtr();
    const auto* first = inner + outer[j];
    const auto* last = inner + outer[j + 1];
    return static_cast<Eigen::Index>(std::lower_bound(first, last, static_cast<int>(i)) - inner);
  };
  jac_to_w_.clear();
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(jac_sparse_, j); it; ++it)
      jac_to_w_.push_back(position(it.row(), j));
  mass_in_w_.clear();
  mass_values_.clear();
  mass.for_each_nonzero([&](Eigen::Index i, Eigen::Index j, double value) {
    mass_in_w_.push_back(position(i, j));
    mass_values_.push_back(value);
  });
  configure_sparse_lu(request, sparse_lu_);
  ordering_ = sparse_lu_.ordering();
  factoriser_ = sparse_lu_.factoriser();
  // Analysed on the first factor(): a solver with a linear solver of its own (IDA, CVODE)
  // only assembles W here and never pays for an analysis it does not use.
}

void IterationMatrix::use_differences() {
  analytic_ = false;
  problem_->stats().jacobian_used = DK_JACOBIAN_FINITE_DIFFERENCE;
  // Differences in a declared pattern: one evaluation per colour, not per column. The
  // pattern is the sparse Jacobian's own, or, for a dense Jacobian, kept beside it.
  if (!colouring_allowed_ || !(problem_->info().flags & DK_PROBLEM_SPARSE_JACOBIAN)) return;
  if (!sparse_) pattern_ = problem_->sparsity_pattern();
  const Eigen::SparseMatrix<double>& pattern = sparse_ ? jac_sparse_ : pattern_;
  colouring_ = colour_columns(static_cast<std::size_t>(problem_->size()), pattern.outerIndexPtr(),
                              pattern.innerIndexPtr());
}

Eval IterationMatrix::evaluate_jacobian(double t, Eigen::Ref<const Eigen::VectorXd> y, Eigen::Ref<const Eigen::VectorXd> f0) {
  ++problem_->stats().njac;
  if (!sparse_ && jac_.rows() != problem_->size()) jac_.setZero(problem_->size(), problem_->size());
  if (analytic_) {
    const Eval e = sparse_ ? problem_->jacobian_sparse(t, y, jac_sparse_) : problem_->jacobian(t, y, jac_);
    if (e != Eval::ok || !check_ || !derivative_check_.due()) return e;
    return check_supplied(t, y);
  }
  return sparse_ ? finite_difference_sparse(t, y, f0) : finite_difference_dense(t, y, f0);
}

Eval IterationMatrix::check_supplied(double t, Eigen::Ref<const Eigen::VectorXd> y) {
  y_check_ = y;
  bool agrees = true;
  const auto product = [&](const Eigen::VectorXd& d, Eigen::VectorXd& out) { apply_jacobian(d, out); };
  const auto abs_product = [&](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    if (sparse_)
      out = jac_sparse_.cwiseAbs() * v;
    else
      out.noalias() = jac_.cwiseAbs() * v;
  };
  const auto entry = [&](Eigen::Index i, Eigen::Index j) { return sparse_ ? jac_sparse_.coeff(i, j) : jac_(i, j); };
  if (const Eval e = derivative_check_.compare(t, y_check_, product, abs_product, entry, &agrees);
      e != Eval::ok || agrees)
    return e;
  problem_->warn(derivative_check_.finding() + "; the solver used differences from there on (daekit check shows "
                 "every entry; --derivative-check off trusts the supplied one)");
  check_ = false;
  use_differences();
  // Differences need f at the point (the caller's f0 may not be there for an analytic Jacobian).
  if (const Eval e = problem_->rhs(t, y_check_, f_check_); e != Eval::ok) return e;
  return sparse_ ? finite_difference_sparse(t, y_check_, f_check_) : finite_difference_dense(t, y_check_, f_check_);
}

template <class Store>
Eval IterationMatrix::finite_difference_columns(double t, Eigen::Ref<const Eigen::VectorXd> y, Store&& store) {
  y_work_ = y;
  for (Eigen::Index j = 0; j < y.size(); ++j) delta_[j] = fd_increment(y[j], atol_[j] + rtol_[j] * std::abs(y[j]));
  if (colouring_.colours > 0) {
    // All columns of a colour at once: they share no row, so each row's change in f
    // belongs to exactly one of them.
    for (const auto& columns : colouring_.columns_of) {
      for (const std::size_t j : columns) y_work_[static_cast<Eigen::Index>(j)] += delta_[static_cast<Eigen::Index>(j)];
      const Eval e = problem_->rhs(t, y_work_, f_work_, true);
      for (const std::size_t j : columns) y_work_[static_cast<Eigen::Index>(j)] = y[static_cast<Eigen::Index>(j)];
      if (e != Eval::ok) return e;
      for (const std::size_t j : columns) store(static_cast<Eigen::Index>(j), delta_[static_cast<Eigen::Index>(j)]);
    }
    return Eval::ok;
  }
  for (Eigen::Index j = 0; j < y.size(); ++j) {
    y_work_[j] = y[j] + delta_[j];
    Eval e = problem_->rhs(t, y_work_, f_work_, true);
    y_work_[j] = y[j];
    if (e != Eval::ok) return e;
    store(j, delta_[j]);
  }
  return Eval::ok;
}

Eval IterationMatrix::finite_difference_dense(double t, Eigen::Ref<const Eigen::VectorXd> y, Eigen::Ref<const Eigen::VectorXd> f0) {
  if (colouring_.colours > 0)  // entries outside the pattern stay the zeros setup() left
    return finite_difference_columns(t, y, [&](Eigen::Index j, double delta) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(pattern_, j); it; ++it)
        jac_(it.row(), j) = (f_work_[it.row()] - f0[it.row()]) / delta;
    });
  return finite_difference_columns(t, y, [&](Eigen::Index j, double delta) { jac_.col(j) = (f_work_ - f0) / delta; });
}

Eval IterationMatrix::finite_difference_sparse(double t, Eigen::Ref<const Eigen::VectorXd> y, Eigen::Ref<const Eigen::VectorXd> f0) {
  return finite_difference_columns(t, y, [&](Eigen::Index j, double delta) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(jac_sparse_, j); it; ++it)
      it.valueRef() = (f_work_[it.row()] - f0[it.row()]) / delta;
  });
}

template <class Scalar>
void IterationMatrix::assemble_into(Scalar alpha, Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& out) const {
  out = -jac_.cast<Scalar>();
  mass_->add_scaled_to(out, alpha);
}

template <class Scalar>
void IterationMatrix::assemble_into(Scalar alpha, Eigen::SparseMatrix<Scalar>& out) const {
  Scalar* w = out.valuePtr();
  std::fill(w, w + out.nonZeros(), Scalar(0.0));
  const double* jv = jac_sparse_.valuePtr();
  for (std::size_t k = 0; k < jac_to_w_.size(); ++k) w[jac_to_w_[k]] -= jv[k];
  for (std::size_t k = 0; k < mass_in_w_.size(); ++k) w[mass_in_w_[k]] += alpha * mass_values_[k];
}

template void IterationMatrix::assemble_into(double, Eigen::MatrixXd&) const;
template void IterationMatrix::assemble_into(std::complex<double>, Eigen::MatrixXcd&) const;
template void IterationMatrix::assemble_into(double, Eigen::SparseMatrix<double>&) const;
template void IterationMatrix::assemble_into(std::complex<double>, Eigen::SparseMatrix<std::complex<double>>&) const;

void IterationMatrix::assemble(double alpha) {
  w_scaled_ = false;
  if (sparse_)
    assemble_into(alpha, w_sparse_);
  else
    assemble_into(alpha, w_);
}

bool IterationMatrix::factor(double alpha) {
  ++problem_->stats().nlu;
  assemble(alpha);
  lu_scaled_ = false;
  return factor_assembled();
}

bool IterationMatrix::factor_assembled() {
  const bool ok = sparse_ ? sparse_lu_.factor(w_sparse_) : dense_lu_.factor(w_);
  if (!ok) ++problem_->stats().nsingular;
  return ok;
}

bool IterationMatrix::factor_scaled(double alpha, const Eigen::VectorXd& weights) {
  ++problem_->stats().nlu;
  set_scaling(weights);
  if (sparse_) {
    assemble(alpha);
    for (Eigen::Index j = 0; j < w_sparse_.outerSize(); ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(w_sparse_, j); it; ++it)
        it.valueRef() *= scale_[it.row()] * scale_inv_[j];
  } else {
    // One pass over the n^2 entries, as assemble() makes: the scaling rides on its copy.
    w_.resize(jac_.rows(), jac_.cols());
    for (Eigen::Index j = 0; j < w_.cols(); ++j) w_.col(j) = jac_.col(j).cwiseProduct(scale_) * -scale_inv_[j];
    mass_->for_each_nonzero(
        [&](Eigen::Index i, Eigen::Index j, double m) { w_(i, j) += alpha * m * scale_[i] * scale_inv_[j]; });
  }
  w_scaled_ = lu_scaled_ = true;
  return factor_assembled();
}

void IterationMatrix::set_scaling(const Eigen::VectorXd& weights) {
  // Powers of two keep the scaling exact; the exponents' range keeps every ratio and its
  // products with W's entries finite (weights of 0 or infinity are left at 1). Always,
  // not only where the tolerances span many decades: on E5 the rounding of steps whose
  // tolerances spanned 2^23 stayed in a conserved combination of components and was
  // 10^3 times their tolerance once they had decayed.
  constexpr int kMaxExponent = 200;
  const Eigen::Index n = weights.size();
  scale_.resize(n);
  scale_inv_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    int exponent = 0;
    if (std::isfinite(weights[i]) && weights[i] > 0.0) std::frexp(weights[i], &exponent);
    exponent = std::clamp(exponent, -kMaxExponent, kMaxExponent);
    scale_[i] = std::ldexp(1.0, exponent);
    scale_inv_[i] = std::ldexp(1.0, -exponent);
  }
}

void IterationMatrix::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  ++problem_->stats().nsolve;
  const Eigen::VectorXd* rhs = &b;
  if (lu_scaled_) {
    scaled_rhs_ = b.cwiseProduct(scale_);
    rhs = &scaled_rhs_;
  }
  if (!sparse_)
    dense_lu_.solve(*rhs, x);
  else
    sparse_lu_.solve(*rhs, x);
  if (lu_scaled_) x.array() *= scale_inv_.array();
}

void IterationMatrix::apply_jacobian(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  if (!sparse_)
    out.noalias() = jac_ * x;
  else
    out = jac_sparse_ * x;
}

}  // namespace daekit
