// Restarted GMRES, flexible GMRES and BiCGStab for the Newton and stage systems of large
// problems, from SUNDIALS' iterative linear solvers (SUNLinSol_SPGMR, _SPFGMR, _SPBCGS)
// used as a library on the core's own vectors: one interface for the three methods, the
// residual measured in a weighted norm (the solver's error weights, as IDA and CVODE
// measure it), right preconditioning, and the restarts and Gram-Schmidt variants that
// CVODE's users know. docs/architecture.md ("Krylov methods") says why not Eigen's.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/function_ref.hpp"
#include "daekit/status.hpp"

namespace daekit {

enum class KrylovMethod { gmres, fgmres, bicgstab };

struct KrylovSettings {
  KrylovMethod method = KrylovMethod::gmres;
  int max_dimension = 5;  // Krylov vectors before a restart (SUNDIALS' maxl, its default)
  int max_restarts = 5;   // GMRES and FGMRES restarts (IDA's default)
  // The linear tolerance as a fraction of the Newton tolerance (IDA's and CVODE's eplifac,
  // 0.05 there): the Newton iteration converges linearly anyway, a tighter linear solve
  // buys nothing but iterations.
  double newton_fraction = 0.05;
};

class KrylovSolver {
 public:
  using ConstRef = Eigen::Ref<const Eigen::VectorXd>;
  using Ref = Eigen::Ref<Eigen::VectorXd>;
  // out = A v, or z = P^-1 r; a model failure inside ends the solve with that Eval.
  using Apply = FunctionRef<Eval(ConstRef in, Ref out)>;

  enum class Outcome {
    converged,     // || w .* (b - A x) ||_2 <= tol
    reduced,       // not to tol, but the residual went down: usable as an inexact Newton step
    failed,        // no progress (or a breakdown)
    model_failed,  // apply or precondition returned a failure: model_failure() says which
  };

  KrylovSolver();
  ~KrylovSolver();
  KrylovSolver(const KrylovSolver&) = delete;
  KrylovSolver& operator=(const KrylovSolver&) = delete;

  // Allocates every work vector once for systems of size n.
  // GMRES's and FGMRES's orthogonalisation: classical Gram-Schmidt (SUNDIALS' CGS, one
  // fused pass for a new vector's dot products: at 5 10^5 unknowns the brusselator's run
  // went from 27 to 22 s) where the preconditioned operator is near the identity; modified
  // (a pass per basis vector) otherwise, where the basis loses orthogonality: on pollu,
  // unpreconditioned, CGS cost 0.5 scd.
  enum class GramSchmidt { modified, classical };
  void setup(Eigen::Index n, const KrylovSettings& settings, GramSchmidt gram_schmidt = GramSchmidt::modified);
  const KrylovSettings& settings() const { return settings_; }
  GramSchmidt gram_schmidt() const { return gram_schmidt_; }

  // x ~ A^-1 b from x = 0, to || w .* (b - A x) ||_2 <= tol, A P^-1 (right preconditioning)
  // the operator the method iterates on.
  Outcome solve(Apply apply, Apply precondition, const Eigen::VectorXd& weights, const Eigen::VectorXd& b,
                Eigen::VectorXd& x, double tol);
  int iterations() const { return iterations_; }
  double residual_norm() const { return residual_norm_; }
  Eval model_failure() const { return model_failure_; }

 private:
  struct Sundials;  // the SUNDIALS objects: no SUNDIALS header leaves the core's sources
  std::unique_ptr<Sundials> sundials_;
  KrylovSettings settings_;
  GramSchmidt gram_schmidt_ = GramSchmidt::modified;
  int iterations_ = 0;
  double residual_norm_ = 0.0;
  Eval model_failure_ = Eval::ok;
};

}  // namespace daekit
