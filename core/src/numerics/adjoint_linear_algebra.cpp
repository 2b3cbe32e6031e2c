#include "daekit/numerics/adjoint_linear_algebra.hpp"

namespace daekit {

void TransposedIterationMatrix::setup(const SolveRequest& request, bool sparse) {
  sparse_ = sparse;
  analysed_ = false;
  if (sparse_) configure_sparse_lu(request, sparse_lu_);
}

bool TransposedIterationMatrix::factor(const IterationMatrix& matrix) {
  scaled_ = matrix.scaled();
  if (scaled_) scale_ = matrix.scale(), scale_inv_ = matrix.scale_inverse();
  if (!sparse_) {
    dense_.matrix() = matrix.dense_w().transpose();
    return dense_.factor();
  }
  wt_ = matrix.sparse_w().transpose();
  if (!analysed_) sparse_lu_.analyze(wt_), analysed_ = true;  // W's pattern does not change
  return sparse_lu_.factor(wt_);
}

void TransposedIterationMatrix::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  const Eigen::VectorXd* rhs = &b;
  if (scaled_) {
    scaled_rhs_ = b.cwiseProduct(scale_inv_);
    rhs = &scaled_rhs_;
  }
  if (sparse_)
    sparse_lu_.solve(*rhs, x);
  else
    dense_.solve(*rhs, x);
  if (scaled_) x.array() *= scale_.array();
}

void JacobianTransposeProducts::setup(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                                      bool allow_sparse) {
  problem_ = &problem;
  matrix_.setup(problem, request, mass, allow_sparse);
  f_.setZero(problem.size());
}

Eval JacobianTransposeProducts::times(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& v,
                                      Eigen::VectorXd& out) {
  Eval e = problem_->rhs(t, y, f_);
  if (e == Eval::ok) e = matrix_.evaluate_jacobian(t, y, f_);
  if (e == Eval::ok) times(matrix_, v, out);
  return e;
}

void JacobianTransposeProducts::times(const IterationMatrix& jacobian, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
  if (jacobian.sparse())
    out = jacobian.sparse_jacobian().transpose() * v;
  else
    out.noalias() = jacobian.dense_jacobian().transpose() * v;
}

void mass_transpose_apply(const MassMatrix& mass, const Eigen::VectorXd& x, Eigen::VectorXd& out) {
  if (mass.is_identity()) {
    out = x;
    return;
  }
  out.setZero(x.size());
  mass.for_each_nonzero([&](Eigen::Index i, Eigen::Index j, double m) { out[j] += m * x[i]; });
}

}  // namespace daekit
