// Preconditioners for the Krylov solution of the Newton matrix M - gamma J (every family's
// matrix in that form, docs/krylov.md): none; Jacobi (the diagonal); ILUT, Eigen's
// incomplete LU with threshold on the Jacobian's declared pattern; or the problem's own
// (ABI 1.3 prec_setup / prec_solve). Jacobi and ILUT form J (analytic, or by coloured
// differences in the pattern) the way the direct LUs do, and are rebuilt only when the
// family would have factorised anew: with a new Jacobian or a gamma that moved too far.
#pragma once

#include <Eigen/Core>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

enum class PreconditionerKind { automatic, none, jacobi, ilu, problem };

class Preconditioner {
 public:
  // The kind to use (automatic resolved: the problem's own if it has one, else ILUT when it
  // declares a Jacobian pattern, else none); an error text when `kind` cannot be had.
  static PreconditionerKind resolve(PreconditionerKind kind, const ProblemView& problem, std::string* why);

  // For a mass-matrix problem (its constant M) or, with mass = nullptr, a residual-form one
  // (only none and the problem's own there).
  void setup(ProblemView& problem, const SolveRequest& request, const MassMatrix* mass, PreconditionerKind kind,
             double ilu_droptol, int ilu_fill);
  PreconditionerKind kind() const { return kind_; }

  // Ready for M - gamma J near (t, y); f0 = f(t, y). `fresh`: evaluate J (or have the
  // problem re-evaluate its data) rather than reuse the last one with the new gamma.
  Eval prepare(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& f0, double gamma, bool fresh);
  double gamma() const { return gamma_; }

  // z ~ (M - gamma J)^-1 r with the prepared data.
  Eval apply(Eigen::Ref<const Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> z, double delta);

 private:
  ProblemView* problem_ = nullptr;
  PreconditionerKind kind_ = PreconditionerKind::none;
  IterationMatrix matrix_;  // J and W = M/gamma - J in the declared pattern, for Jacobi and ILUT
  Eigen::VectorXd inverse_diagonal_;
  Eigen::IncompleteLUT<double> ilu_;
  bool ilu_analysed_ = false;
  double t_ = 0.0, gamma_ = 0.0;
  const Eigen::VectorXd* y_ = nullptr;
};

}  // namespace daekit
