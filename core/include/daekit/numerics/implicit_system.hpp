// Any problem as the residual F(t, y, y') = 0 that multistep methods iterate on,
// with the Newton matrix dF/dy + cj dF/dy'. Two ways to get there:
//  * constant mass matrix (identity, diagonal, dense): F = M y' - f, and the
//    matrix is the core's IterationMatrix W = cj M - J (analytic or finite-
//    difference J, dense or sparse), so a new cj needs a new LU but not a new J;
//  * time- or state-dependent mass, or a residual-only problem: the problem's own
//    residual, and the matrix from its residual Jacobian or by differences of F
//    along (e_j, cj e_j): dense, or, for an M stored diagonal or sparse with a Jacobian
//    pattern, in the union of the two patterns, one difference per colour, with a sparse
//    LU (the pattern must then cover d(M(y) y')/dy too). Here the matrix depends on cj.
#pragma once

#include <Eigen/Dense>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/dense_lu.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/newton_krylov.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

class ImplicitSystem {
 public:
  // With `krylov` (options.krylov()), nothing n x n is allocated: the matrix is an operator
  // and setup_krylov() must follow.
  Eval setup(ProblemView& problem, const SolveRequest& request, bool allow_sparse, bool krylov = false);
  // The Krylov path (numerics/newton_krylov.hpp): "" or why it cannot serve this problem.
  std::string setup_krylov(const SolveRequest& request, const KrylovOptions& options);
  bool krylov() const { return krylov_; }
  // Krylov with a preconditioner near W^-1 (Preconditioner::approximates_inverse).
  bool krylov_preconditioned() const { return krylov_ && newton_krylov_.preconditioner_approximates_inverse(); }

  bool mass_form() const { return mass_form_; }
  const MassMatrix& mass() const { return mass_; }
  ProblemView& problem() { return *problem_; }

  Eval residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, Eigen::VectorXd& r);

  // Factorises the Newton matrix for `cj` at (t, y, y'), where `r` = F(t, y, y') was
  // the last residual evaluated. A stored matrix always gets a new Jacobian; a Krylov
  // solve's preconditioner keeps the one it holds when `new_jacobian` is false
  // (jacobian_survives_cj_change()). Returns ok or why the model failed; `singular()`
  // tells whether the LU failed.
  Eval refresh(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const Eigen::VectorXd& r, double cj,
               bool new_jacobian);
  bool singular() const { return singular_; }
  double matrix_cj() const { return cj_; }
  // Whether a change of cj alone may keep the Jacobian: only a Krylov solve's
  // preconditioner with a constant mass matrix (the Krylov operator applies f's own
  // derivative). A stored matrix, as in DASSL and IDA, never: the modified Newton's
  // convergence test trusts it, and a Jacobian from a state far behind makes two small
  // corrections look converged while the residual is not (bdf on van der Pol after a
  // relaxation jump kept the one from inside the jump, df2/dy1 5e11 where it was 6e5,
  // for 100 steps and ended on the wrong branch with success).
  bool jacobian_survives_cj_change() const { return krylov_ && mass_form_; }

  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);

  // The residual form's matrix dF/dy + cj dF/dy' at (t, y, y'), r = F there, without its
  // LU: for an engine that factorises it itself (PETSc's TS). In sparse_matrix() where
  // sparse_form() (its pattern fixed by setup), else in dense_matrix().
  Eval assemble(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const Eigen::VectorXd& r, double cj);
  bool sparse_form() const { return sparse_residual_; }
  bool analytic_matrix() const { return analytic_residual_jacobian_; }  // no F needed at the point
  const Eigen::MatrixXd& dense_matrix() const { return w_; }
  const Eigen::SparseMatrix<double>& sparse_matrix() const { return w_sparse_; }

  // The Newton correction x = W^-1 b at the iterate (t, y, y') where residual() was last
  // evaluated, b that residual: the LU's back-solve, or with Krylov a solve to a weighted
  // RMS of `tol` (weights: the Newton norm's at this step), with J v at the iterate and
  // the present cj. Ok, or the Krylov method's failure, or the model's.
  struct Correction {
    KrylovSolver::Outcome outcome = KrylovSolver::Outcome::converged;
    Eval model = Eval::ok;
  };
  Correction correction(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                        const Eigen::VectorXd& b, Eigen::VectorXd& x, const Eigen::VectorXd& weights, double tol);

 private:
  Eval difference_matrix(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const Eigen::VectorXd& r,
                         double cj);
  Eval coloured_difference_matrix(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                  const Eigen::VectorXd& r, double cj);

  ProblemView* problem_ = nullptr;
  bool mass_form_ = true;
  bool analytic_residual_jacobian_ = false;
  MassMatrix mass_;
  IterationMatrix matrix_;
  Eigen::VectorXd f_, y_work_, yp_work_, r_work_, delta_;
  Eigen::MatrixXd w_;
  DenseLU lu_;
  bool sparse_residual_ = false;  // the sparse residual-form path (see above)
  Eigen::SparseMatrix<double> w_sparse_;
  ColumnColouring colouring_;
  SparseLUSolver sparse_lu_;
  PerComponent rtol_, atol_;
  double cj_ = 0.0;
  bool singular_ = false;
  bool krylov_ = false;
  NewtonKrylov newton_krylov_;
};

}  // namespace daekit
