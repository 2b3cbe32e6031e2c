// The Newton matrix as an operator, for Krylov methods: A = M - gamma J for a problem
// M y' = f with a constant M, A = gamma (dF/dy + cj dF/dy') with gamma = 1/cj for a
// residual-form one (the same matrix scaled: both are in y's units, so the error weights
// measure the linear residual as they measure the Newton correction). J v comes from the
// problem's jacobian_vector (exact, or an AutoDiffProblem's dual pass), else from
// differences of f along v (jacobian_product.hpp); nothing n x n is ever formed unless
// the preconditioner asks for J. Options (linear_solver=krylov and the rest) are declared
// here, once.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/jacobian_product.hpp"
#include "daekit/numerics/krylov_solver.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/preconditioner.hpp"
#include "daekit/sdk/solver.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

struct KrylovOptions {
  std::string linear_solver;  // the family's direct choice, or "krylov"
  bool krylov() const { return linear_solver == "krylov"; }
  KrylovMethod method = KrylovMethod::gmres;
  KrylovSettings settings;  // its method is `method` once read
  PreconditionerKind preconditioner = PreconditionerKind::automatic;
  double ilu_droptol = PreconditionerNumbers{}.ilu_droptol;
  int ilu_fill = PreconditionerNumbers{}.ilu_fill;
  double amg_threshold = PreconditionerNumbers{}.amg_threshold;
  PreconditionerNumbers numbers() const { return {ilu_droptol, ilu_fill, amg_threshold}; }
};

// The option rows (for a family's option table) and their reading: `linear_solver` with
// the family's direct choices (e.g. {"auto", "dense", "sparse"}) plus krylov, and the
// Krylov method's own; direct_help, if any, says what the direct choices are. SUNDIALS'
// names (linear_solver=spgmr, spfgmr, spbcgs) read as krylov with that method. A family
// that has no Krylov path does not list them.
std::vector<OptionDesc> krylov_option_rows(const std::vector<std::string>& direct_choices,
                                          const std::string& direct_help = "");
// linear_solver=auto becomes krylov where the problem is built for it (krylov_by_default).
bool read_krylov_options(const ProblemView& problem, const SolveRequest& request,
                         const std::vector<std::string>& direct_choices, KrylovOptions& options, std::string* why);
// What `auto` picks Krylov for: a problem with its own preconditioner and exact J v from
// the size where the direct LU stops being faster (docs/benchmarks/scaling.md,
// "Crossover"), or one that declares no Jacobian pattern and is too large for a dense
// matrix; never with adjoints, which the Krylov path does not take yet.
bool krylov_by_default(const ProblemView& problem, const SolveRequest& request);

class NewtonKrylov {
 public:
  using ConstRef = Eigen::Ref<const Eigen::VectorXd>;
  using Ref = Eigen::Ref<Eigen::VectorXd>;

  // mass: the problem's constant M, or nullptr for the residual form. False with `why`
  // when the preconditioner asked for cannot be had for this problem.
  bool setup(ProblemView& problem, const SolveRequest& request, const KrylovOptions& options, const MassMatrix* mass,
             std::string* why);

  // The point of the products that follow, (t, y, y'), and the matrix's gamma (and cj).
  void linearise_at(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double gamma, double cj);
  // A new preconditioner for gamma at (t, y) (f0 = f(t, y)); fresh: with new Jacobian data.
  Eval prepare_preconditioner(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0, double gamma,
                              bool fresh);
  double preconditioner_gamma() const { return preconditioner_.gamma(); }
  bool preconditioner_approximates_inverse() const { return preconditioner_.approximates_inverse(); }

  // A x = gamma b (the family's W x = b, scaled into y's units), x from 0, to a weighted
  // RMS of the residual (weights: the error norm's) of at most `tol`. x is not b (the
  // solve reads b in place while x, zeroed first, takes the iterates).
  KrylovSolver::Outcome solve(const Eigen::VectorXd& weights, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                              double tol);
  // The Radau methods' complex systems ((a + i b) M - J)(x_re + i x_im) = b_re + i b_im,
  // with J v at the linearisation point, as the real system of size 2n
  //   [aM - J  -bM] [x_re]   [b_re]
  //   [bM   aM - J] [x_im] = [b_im],
  // scaled by 1/a into y's units as the real one is (its algebraic rows by a), each half
  // preconditioned by the real preconditioner as prepared (for a real shift near a: the
  // preconditioned operator's eigenvalues (a + ib - l)/(g - l) stay near 1 for the stiff
  // ones and bounded for the others). Tolerance as solve(), over both halves; the second
  // Krylov workspace (2n) is made at the first call. b and x may be the same vectors (b
  // is read before x is written).
  KrylovSolver::Outcome solve_complex(double a, double b, const Eigen::VectorXd& weights, const Eigen::VectorXd& b_re,
                                      const Eigen::VectorXd& b_im, Eigen::VectorXd& x_re, Eigen::VectorXd& x_im,
                                      double tol);
  Eval model_failure() const { return model_failure_; }
  const KrylovSettings& settings() const { return krylov_.settings(); }

 private:
  Eval apply(ConstRef v, Ref out);
  Eval apply_complex(ConstRef v, Ref out);
  Eval precondition(ConstRef r, Ref z);
  bool scaled_rows() const { return !algebraic_rows_.empty(); }
  KrylovSolver::Outcome counted(KrylovSolver& solver, KrylovSolver::Outcome outcome);

  ProblemView* problem_ = nullptr;
  const MassMatrix* mass_ = nullptr;  // nullptr: residual form
  KrylovSolver krylov_;
  KrylovSolver krylov_2n_;  // the complex systems' (solve_complex), set up at its first use
  Eval model_failure_ = Eval::ok;
  double shift_ratio_ = 0.0;  // b / a of the present complex solve
  Eigen::VectorXd weights_2n_, b_2n_, x_2n_, mv_im_;
  Preconditioner preconditioner_;
  JacobianProduct product_;  // J v at the linearisation point
  double gamma_ = 0.0;
  Eigen::VectorXd v_, mv_, b_rows_, r_rows_;
  // Algebraic equations (zero rows of M; for the residual form, the rows of the components
  // the problem declares algebraic) have gamma J alone in A: their rows are scaled by
  // 1/gamma, so that the linear residual measures a correction of the size it causes
  // (unscaled, a residual of gamma's order in a constraint hides an O(1) error in x).
  std::vector<Eigen::Index> algebraic_rows_;
  Eigen::VectorXd row_scale_;  // empty without algebraic rows
  double delta_ = 0.0;  // the present solve's tolerance, handed to the problem's preconditioner
};

}  // namespace daekit
