#include "ts_model.hpp"

#include "ts_setup.hpp"

#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/initial_step.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace daekit::plugins::petsc {
namespace {

Eigen::Map<const Eigen::VectorXd> read(Vec v, const PetscScalar** data, Eigen::Index n) {
  VecGetArrayRead(v, data);
  return {*data, n};
}

}  // namespace

TsModel::~TsModel() {
  if (matrix_) MatDestroy(&matrix_);
}

std::string TsModel::setup(const Eigen::VectorXd& y0) {
  const auto n = problem_.size();
  const MassKind kind = problem_.mass_kind();
  residual_form_ = problem_.residual_only() || (kind != MassKind::identity && kind != MassKind::constant);
  f_.resize(n);
  y_.resize(n);
  yp_.resize(n);
  if (residual_form_) return setup_residual_form();
  if (mass_.setup(problem_, request_.t0, y0) != Eval::ok) return problem_.last_message();
  jacobian_.setup(problem_, request_, mass_, /*allow_sparse=*/true);
  mass_times_.resize(n);
  if (!jacobian_.sparse()) {
    MatCreateSeqDense(PETSC_COMM_SELF, static_cast<PetscInt>(n), static_cast<PetscInt>(n), nullptr, &matrix_);
    return "";
  }
  // AIJ preallocated in W's pattern (J's and M's), found from W at (t0, y0).
  if (problem_.rhs(request_.t0, y0, f_) != Eval::ok ||
      jacobian_.evaluate_jacobian(request_.t0, y0, f_) != Eval::ok)
    return "the Jacobian at t0: " + problem_.last_message();
  jacobian_.assemble(1.0);
  return create_aij(jacobian_.sparse_w());
}

std::string TsModel::setup_residual_form() {
  const auto n = static_cast<PetscInt>(problem_.size());
  if (system_.setup(problem_, request_, /*allow_sparse=*/true) != Eval::ok) return problem_.last_message();
  if (!system_.sparse_form()) {
    MatCreateSeqDense(PETSC_COMM_SELF, n, n, nullptr, &matrix_);
    return "";
  }
  return create_aij(system_.sparse_matrix());  // its pattern is fixed before any value
}

std::string TsModel::create_aij(const Eigen::SparseMatrix<double, Eigen::RowMajor>& pattern) {
  const auto n = problem_.size();
  rows_ = pattern;
  rows_.makeCompressed();
  std::vector<PetscInt> starts(rows_.outerIndexPtr(), rows_.outerIndexPtr() + n + 1),
      columns(rows_.innerIndexPtr(), rows_.innerIndexPtr() + rows_.nonZeros());
  MatCreate(PETSC_COMM_SELF, &matrix_);
  MatSetSizes(matrix_, static_cast<PetscInt>(n), static_cast<PetscInt>(n), static_cast<PetscInt>(n),
              static_cast<PetscInt>(n));
  MatSetType(matrix_, MATSEQAIJ);
  if (MatSeqAIJSetPreallocationCSR(matrix_, starts.data(), columns.data(), nullptr) != 0)
    return "PETSc could not hold the Jacobian's pattern";
  // A later W with an entry outside the first one's pattern is still taken (slower).
  MatSetOption(matrix_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE);
  return "";
}

bool TsModel::first_step(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double* h, std::string* why) {
  const ErrorNorm norm = ErrorNorm::for_request(request_, problem_);
  if (residual_form_) {
    const double span = std::min(0.001 * std::abs(request_.tend - t), request_.hmax);
    const double slope = yp.size() == y.size() ? norm.rms(yp, y, y, 1.0) : 0.0;
    *h = slope > 0.5 / span ? 0.5 / slope : span;
    return true;
  }
  if (problem_.rhs(t, y, f_) != Eval::ok || initial_step(problem_, norm, mass_, t, y, f_, 2, request_.hmax, h) != Eval::ok) {
    *why = "choosing the first step: " + problem_.last_message();
    return false;
  }
  return true;
}

PetscErrorCode TsModel::residual(TS ts, PetscReal t, Vec y, Vec yp, Vec f, void* self) {
  auto& m = *static_cast<TsModel*>(self);
  const auto n = m.problem_.size();
  const PetscScalar *y_data = nullptr, *yp_data = nullptr;
  const auto y_now = read(y, &y_data, n), yp_now = read(yp, &yp_data, n);
  Eval e = Eval::ok;
  if (m.residual_form_) {
    e = m.problem_.residual(t, y_now, yp_now, m.f_);  // F itself
  } else {
    e = m.problem_.rhs(t, y_now, m.f_);
    if (e == Eval::ok) {
      m.yp_ = yp_now;  // MassMatrix takes a vector
      m.mass_.apply(m.yp_, m.mass_times_);
      m.f_ = m.mass_times_ - m.f_;  // M y' - f
    }
  }
  VecRestoreArrayRead(y, &y_data);
  VecRestoreArrayRead(yp, &yp_data);
  if (e != Eval::ok) return m.model_failed(ts, e, false);
  PetscScalar* out = nullptr;
  VecGetArray(f, &out);
  Eigen::Map<Eigen::VectorXd>(out, n) = m.f_;
  VecRestoreArray(f, &out);
  return 0;
}

PetscErrorCode TsModel::iteration_matrix(TS ts, PetscReal t, Vec y, Vec yp, PetscReal a, Mat, Mat p, void* self) {
  auto& m = *static_cast<TsModel*>(self);
  if (m.residual_form_) return m.residual_form_matrix(ts, t, y, yp, a, p);
  const auto n = m.problem_.size();
  const PetscScalar* y_data = nullptr;
  const auto y_now = read(y, &y_data, n);
  // f at y only where J is differenced from it.
  Eval e = m.jacobian_.analytic() ? Eval::ok : m.problem_.rhs(t, y_now, m.f_);
  if (e == Eval::ok) e = m.jacobian_.evaluate_jacobian(t, y_now, m.f_);
  VecRestoreArrayRead(y, &y_data);
  if (e != Eval::ok) return m.model_failed(ts, e, true);
  ++m.jacobians_;
  m.jacobian_.assemble(a);  // a M - J
  return m.jacobian_.sparse() ? m.copy_sparse(p, m.jacobian_.sparse_w()) : m.copy_dense(p, m.jacobian_.dense_w());
}

// dF/dy + a dF/dy' at (t, y, y'): the core's ImplicitSystem differences F from its value
// there (unless the problem gives the matrix), as bdf forms its Newton matrix.
PetscErrorCode TsModel::residual_form_matrix(TS ts, PetscReal t, Vec y, Vec yp, PetscReal a, Mat p) {
  const auto n = problem_.size();
  const PetscScalar *y_data = nullptr, *yp_data = nullptr;
  y_ = read(y, &y_data, n);
  yp_ = read(yp, &yp_data, n);
  VecRestoreArrayRead(y, &y_data);
  VecRestoreArrayRead(yp, &yp_data);
  Eval e = system_.analytic_matrix() ? Eval::ok : problem_.residual(t, y_, yp_, f_);
  if (e == Eval::ok) e = system_.assemble(t, y_, yp_, f_, a);
  if (e != Eval::ok) return model_failed(ts, e, true);
  ++jacobians_;
  return system_.sparse_form() ? copy_sparse(p, system_.sparse_matrix()) : copy_dense(p, system_.dense_matrix());
}

PetscErrorCode TsModel::copy_dense(Mat p, const Eigen::MatrixXd& w) {
  const auto n = problem_.size();
  PetscScalar* values = nullptr;
  MatDenseGetArray(p, &values);
  Eigen::Map<Eigen::MatrixXd>(values, n, n) = w;  // both column-major, lda = n
  MatDenseRestoreArray(p, &values);
  MatAssemblyBegin(p, MAT_FINAL_ASSEMBLY);
  return MatAssemblyEnd(p, MAT_FINAL_ASSEMBLY);
}

template <class Sparse>
PetscErrorCode TsModel::copy_sparse(Mat p, const Sparse& w) {
  rows_ = w;  // by rows, as AIJ takes them
  for (PetscInt r = 0; r < static_cast<PetscInt>(problem_.size()); ++r) {
    const auto first = rows_.outerIndexPtr()[r], count = rows_.outerIndexPtr()[r + 1] - first;
    MatSetValues(p, 1, &r, static_cast<PetscInt>(count), rows_.innerIndexPtr() + first, rows_.valuePtr() + first,
                 INSERT_VALUES);
  }
  MatAssemblyBegin(p, MAT_FINAL_ASSEMBLY);
  return MatAssemblyEnd(p, MAT_FINAL_ASSEMBLY);
}

// A recoverable failure (a state the model cannot evaluate) fails this Newton solve as out
// of the domain, and TS retries with a smaller step; a fatal one stops the step.
PetscErrorCode TsModel::model_failed(TS ts, Eval e, bool in_jacobian) {
  if (e == Eval::recoverable) {
    mark_out_of_domain(ts, in_jacobian);
    return 0;
  }
  failure_ = problem_.last_message();
  return PETSC_ERR_USER;
}

}  // namespace daekit::plugins::petsc
