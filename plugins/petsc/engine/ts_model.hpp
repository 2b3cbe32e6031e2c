// The problem as PETSc's TS sees it: the implicit form F(t, y, y') = M y' - f(t, y) (TS's
// IFunction) and its Jacobian dF/dy + a dF/dy' = a M - J (IJacobian), J the core's
// IterationMatrix gives (analytic, or differences, in the problem's pattern where it has one),
// in a PETSc matrix that is dense or AIJ in that pattern.
#pragma once

#include <petscts.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/problem_view.hpp>
#include <daekit/solve_request.hpp>
#include <string>

namespace daekit::plugins::petsc {

class TsModel {
 public:
  TsModel(ProblemView& problem, const SolveRequest& request) : problem_(problem), request_(request) {}
  ~TsModel();
  TsModel(const TsModel&) = delete;
  TsModel& operator=(const TsModel&) = delete;

  // M and J's storage at (t0, y0); "" or why not.
  std::string setup(const Eigen::VectorXd& y0);
  ProblemView& problem() { return problem_; }
  const SolveRequest& request() const { return request_; }
  const MassMatrix& mass() const { return mass_; }
  Mat matrix() const { return matrix_; }
  bool sparse() const { return jacobian_.sparse(); }
  long jacobians() const { return jacobians_; }
  // The model's failure that stopped the step (fatal), "" if none.
  const std::string& failure() const { return failure_; }

  static PetscErrorCode residual(TS ts, PetscReal t, Vec y, Vec yp, Vec f, void* self);
  static PetscErrorCode iteration_matrix(TS ts, PetscReal t, Vec y, Vec yp, PetscReal a, Mat, Mat p, void* self);

 private:
  PetscErrorCode model_failed(TS ts, Eval e, bool in_jacobian);
  PetscErrorCode copy_into(Mat p);

  ProblemView& problem_;
  const SolveRequest& request_;
  MassMatrix mass_;
  IterationMatrix jacobian_;
  Mat matrix_ = nullptr;
  Eigen::VectorXd f_, yp_, mass_times_;
  Eigen::SparseMatrix<double, Eigen::RowMajor> rows_;  // W by rows, as AIJ takes it
  long jacobians_ = 0;
  std::string failure_;
};

}  // namespace daekit::plugins::petsc
