// Preconditioners for the Krylov solution of the Newton matrix M - gamma J (every family's
// matrix in that form, docs/krylov.md): none; Jacobi (the diagonal); ILUT, Eigen's
// incomplete LU with threshold on the Jacobian's declared pattern; algebraic multigrid
// (hypre's BoomerAMG, one V-cycle) on the same matrix; or the problem's own (ABI 1.3
// prec_setup / prec_solve). Jacobi, ILUT and AMG form J (analytic, or by coloured
// differences in the pattern) the way the direct LUs do, and are rebuilt only when the
// family would have factorised anew: with a new Jacobian or a gamma that moved too far.
#pragma once

#include <Eigen/Core>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <memory>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;
class AlgebraicMultigrid;

enum class PreconditionerKind { automatic, none, jacobi, ilu, amg, problem };

// The numbers of the pattern-based preconditioners.
struct PreconditionerNumbers {
  double ilu_droptol = 1e-4;
  int ilu_fill = 10;
  double amg_threshold = 0.25;  // BoomerAMG's strength threshold (hypre's default; 0.5 for 3D is usual)
};

class Preconditioner {
 public:
  Preconditioner();
  ~Preconditioner();
  Preconditioner(const Preconditioner&) = delete;
  Preconditioner& operator=(const Preconditioner&) = delete;

  // The kind to use (automatic resolved: the problem's own if it has one, else ILUT when it
  // declares a Jacobian pattern, else none); an error text when `kind` cannot be had.
  static PreconditionerKind resolve(PreconditionerKind kind, const ProblemView& problem, std::string* why);
  // Jacobi, ILUT and AMG: built from J in the declared pattern.
  static bool forms_jacobian(PreconditionerKind kind);

  // For a mass-matrix problem (its constant M) or, with mass = nullptr, a residual-form one
  // (only none and the problem's own there). False with why when hypre cannot be had (amg).
  bool setup(ProblemView& problem, const SolveRequest& request, const MassMatrix* mass, PreconditionerKind kind,
             const PreconditionerNumbers& numbers, std::string* why);
  PreconditionerKind kind() const { return kind_; }
  // Whether the preconditioned operator is near the identity (the problem's own, ILUT,
  // AMG), so that a small residual means a small error; not with none or Jacobi, where the
  // error can be the condition number times the residual.
  bool approximates_inverse() const {
    return kind_ == PreconditionerKind::problem || kind_ == PreconditionerKind::ilu || kind_ == PreconditionerKind::amg;
  }

  // Ready for M - gamma J near (t, y); f0 = f(t, y). `fresh`: evaluate J (or have the
  // problem re-evaluate its data) rather than reuse the last one with the new gamma.
  Eval prepare(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0, double gamma, bool fresh);
  double gamma() const { return gamma_; }
  // Whether the last prepare evaluated Jacobian data anew (the problem's own may do so
  // when asked to reuse, or reuse when asked for fresh data): CVODE's jcur.
  bool evaluated_jacobian() const { return evaluated_; }

  // z ~ (M - gamma J)^-1 r with the prepared data.
  Eval apply(Eigen::Ref<const Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> z, double delta);

 private:
  ProblemView* problem_ = nullptr;
  PreconditionerKind kind_ = PreconditionerKind::none;
  IterationMatrix matrix_;  // J and W = M/gamma - J in the declared pattern, for Jacobi and ILUT
  Eigen::VectorXd inverse_diagonal_;
  Eigen::IncompleteLUT<double> ilu_;
  bool ilu_analysed_ = false;
  std::unique_ptr<AlgebraicMultigrid> amg_;
  double t_ = 0.0, gamma_ = 0.0;
  bool evaluated_ = false;
  const Eigen::VectorXd* y_ = nullptr;
};

}  // namespace daekit
