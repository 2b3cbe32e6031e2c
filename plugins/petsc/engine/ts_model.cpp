#include "ts_model.hpp"

#include "ts_setup.hpp"

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
  if (mass_.setup(problem_, request_.t0, y0) != Eval::ok) return problem_.last_message();
  jacobian_.setup(problem_, request_, mass_, /*allow_sparse=*/true);
  f_.resize(n);
  yp_.resize(n);
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
  rows_ = jacobian_.sparse_w();
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

PetscErrorCode TsModel::residual(TS ts, PetscReal t, Vec y, Vec yp, Vec f, void* self) {
  auto& m = *static_cast<TsModel*>(self);
  const auto n = m.problem_.size();
  const PetscScalar *y_data = nullptr, *yp_data = nullptr;
  const auto y_now = read(y, &y_data, n), yp_now = read(yp, &yp_data, n);
  Eval e = m.problem_.rhs(t, y_now, m.f_);
  if (e == Eval::ok) {
    m.yp_ = yp_now;  // MassMatrix takes a vector
    m.mass_.apply(m.yp_, m.mass_times_);
  }
  VecRestoreArrayRead(y, &y_data);
  VecRestoreArrayRead(yp, &yp_data);
  if (e != Eval::ok) return m.model_failed(ts, e, false);
  PetscScalar* out = nullptr;
  VecGetArray(f, &out);
  Eigen::Map<Eigen::VectorXd>(out, n) = m.mass_times_ - m.f_;
  VecRestoreArray(f, &out);
  return 0;
}

PetscErrorCode TsModel::iteration_matrix(TS ts, PetscReal t, Vec y, Vec, PetscReal a, Mat, Mat p, void* self) {
  auto& m = *static_cast<TsModel*>(self);
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
  return m.copy_into(p);
}

PetscErrorCode TsModel::copy_into(Mat p) {
  const auto n = problem_.size();
  if (!jacobian_.sparse()) {
    PetscScalar* values = nullptr;
    MatDenseGetArray(p, &values);
    Eigen::Map<Eigen::MatrixXd>(values, n, n) = jacobian_.dense_w();  // both column-major, lda = n
    MatDenseRestoreArray(p, &values);
  } else {
    rows_ = jacobian_.sparse_w();
    for (PetscInt r = 0; r < static_cast<PetscInt>(n); ++r) {
      const auto first = rows_.outerIndexPtr()[r], count = rows_.outerIndexPtr()[r + 1] - first;
      MatSetValues(p, 1, &r, static_cast<PetscInt>(count), rows_.innerIndexPtr() + first, rows_.valuePtr() + first,
                   INSERT_VALUES);
    }
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
