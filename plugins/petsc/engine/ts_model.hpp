// The problem as PETSc's TS sees it: the implicit form F(t, y, y') = M y' - f(t, y) (TS's
// IFunction) and its Jacobian dF/dy + a dF/dy' = a M - J (IJacobian), J the core's
// IterationMatrix gives (analytic, or differences, in the problem's pattern where it has one),
// in a PETSc matrix that is dense or AIJ in that pattern. A problem given only as a residual,
// or with a time- or state-dependent M, is TS's IFunction as it stands: F from the problem,
// dF/dy + a dF/dy' from the core's ImplicitSystem (the problem's residual Jacobian, or
// differences of F along (e_j, a e_j), coloured in the union of the J and M patterns).
#pragma once

#include <petscts.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <daekit/numerics/implicit_system.hpp>
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
  // F is the problem's own residual (no constant M: mass() is not set up).
  bool residual_form() const { return residual_form_; }
  const MassMatrix& mass() const { return mass_; }
  Mat matrix() const { return matrix_; }
  bool sparse() const { return residual_form_ ? system_.sparse_form() : jacobian_.sparse(); }
  long jacobians() const { return jacobians_; }
  // A first step from (t, y) (y' for the residual form): the core's estimate for a method
  // of order 2 (the lowest of the TS types here after backward Euler, whose estimate is
  // no safer); for the residual form DASSL's (0.001 of the span left, shorter so that
  // |h y'| <= 1/2 in the error norm), as bdf takes it. False with why.
  bool first_step(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double* h, std::string* why);
  // The model's failure that stopped the step (fatal), "" if none.
  const std::string& failure() const { return failure_; }

  static PetscErrorCode residual(TS ts, PetscReal t, Vec y, Vec yp, Vec f, void* self);
  static PetscErrorCode iteration_matrix(TS ts, PetscReal t, Vec y, Vec yp, PetscReal a, Mat, Mat p, void* self);

 private:
  std::string setup_residual_form();
  // An AIJ matrix preallocated in `pattern`; "" or why not.
  std::string create_aij(const Eigen::SparseMatrix<double, Eigen::RowMajor>& pattern);
  PetscErrorCode residual_form_matrix(TS ts, PetscReal t, Vec y, Vec yp, PetscReal a, Mat p);
  PetscErrorCode model_failed(TS ts, Eval e, bool in_jacobian);
  PetscErrorCode copy_dense(Mat p, const Eigen::MatrixXd& w);
  template <class Sparse>
  PetscErrorCode copy_sparse(Mat p, const Sparse& w);

  ProblemView& problem_;
  const SolveRequest& request_;
  bool residual_form_ = false;
  MassMatrix mass_;            // the mass-matrix form's
  IterationMatrix jacobian_;   // the mass-matrix form's a M - J
  ImplicitSystem system_;      // the residual form's dF/dy + a dF/dy'
  Mat matrix_ = nullptr;
  Eigen::VectorXd f_, y_, yp_, mass_times_;
  Eigen::SparseMatrix<double, Eigen::RowMajor> rows_;  // W by rows, as AIJ takes it
  long jacobians_ = 0;
  std::string failure_;
};

}  // namespace daekit::plugins::petsc
