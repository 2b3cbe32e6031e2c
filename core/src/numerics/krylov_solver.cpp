#include "daekit/numerics/krylov_solver.hpp"

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_spbcgs.h>
#include <sunlinsol/sunlinsol_spfgmr.h>
#include <sunlinsol/sunlinsol_spgmr.h>

#include <stdexcept>

namespace daekit {

struct KrylovSolver::Sundials {
  SUNContext context = nullptr;
  SUNLinearSolver solver = nullptr;
  // Vectors without storage of their own, pointed at the caller's x, b and weights per solve.
  N_Vector x = nullptr, b = nullptr, weights = nullptr;
  // The current solve's operators; SUNDIALS calls back through them.
  const Apply* apply = nullptr;
  const Apply* precondition = nullptr;
  Eval failure = Eval::ok;

  ~Sundials() {
    if (solver) SUNLinSolFree(solver);
    for (N_Vector v : {x, b, weights})
      if (v) N_VDestroy(v);
    if (context) SUNContext_Free(&context);
  }

  // SUNDIALS' callback convention: 0 ok, > 0 recoverable, < 0 not.
  static int code(Sundials& s, Eval e) {
    if (e == Eval::ok) return 0;
    s.failure = e;
    return e == Eval::recoverable ? 1 : -1;
  }
  static Eigen::Map<Eigen::VectorXd> view(N_Vector v) {
    return {N_VGetArrayPointer(v), static_cast<Eigen::Index>(N_VGetLength(v))};
  }
  static int times(void* data, N_Vector v, N_Vector z) {
    auto& s = *static_cast<Sundials*>(data);
    return code(s, (*s.apply)(view(v), view(z)));
  }
  static int solve_preconditioner(void* data, N_Vector r, N_Vector z, sunrealtype /*tol*/, int /*side*/) {
    auto& s = *static_cast<Sundials*>(data);
    return code(s, (*s.precondition)(view(r), view(z)));
  }
};

KrylovSolver::KrylovSolver() = default;
KrylovSolver::~KrylovSolver() = default;

void KrylovSolver::setup(Eigen::Index n, const KrylovSettings& settings, GramSchmidt gram_schmidt) {
  settings_ = settings;
  gram_schmidt_ = gram_schmidt;
  const int gs_type = gram_schmidt == GramSchmidt::classical ? SUN_CLASSICAL_GS : SUN_MODIFIED_GS;
  sundials_ = std::make_unique<Sundials>();
  Sundials& s = *sundials_;
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::runtime_error("SUNDIALS: no context");
  // The method clones its work vectors from this template.
  N_Vector shape = N_VNew_Serial(static_cast<sunindextype>(n), s.context);
  // Fused vector operations (several dot products or linear sums in one pass over memory):
  // Gram-Schmidt and the solution update are memory-bound at large n.
  N_VEnableFusedOps_Serial(shape, SUNTRUE);
  const int maxl = settings.max_dimension;
  switch (settings.method) {
    case KrylovMethod::gmres:
      s.solver = SUNLinSol_SPGMR(shape, SUN_PREC_RIGHT, maxl, s.context);
      if (s.solver) SUNLinSol_SPGMRSetMaxRestarts(s.solver, settings.max_restarts);
      if (s.solver) SUNLinSol_SPGMRSetGSType(s.solver, gs_type);
      break;
    case KrylovMethod::fgmres:
      s.solver = SUNLinSol_SPFGMR(shape, SUN_PREC_RIGHT, maxl, s.context);
      if (s.solver) SUNLinSol_SPFGMRSetMaxRestarts(s.solver, settings.max_restarts);
      if (s.solver) SUNLinSol_SPFGMRSetGSType(s.solver, gs_type);
      break;
    case KrylovMethod::bicgstab: s.solver = SUNLinSol_SPBCGS(shape, SUN_PREC_RIGHT, maxl, s.context); break;
  }
  N_VDestroy(shape);
  if (!s.solver) throw std::runtime_error("SUNDIALS: the Krylov solver could not be created");
  static double placeholder = 0.0;  // storage comes from the caller at each solve
  s.x = N_VMake_Serial(static_cast<sunindextype>(n), &placeholder, s.context);
  s.b = N_VMake_Serial(static_cast<sunindextype>(n), &placeholder, s.context);
  s.weights = N_VMake_Serial(static_cast<sunindextype>(n), &placeholder, s.context);
  SUNLinSolSetATimes(s.solver, &s, &Sundials::times);
  SUNLinSolSetPreconditioner(s.solver, &s, nullptr, &Sundials::solve_preconditioner);
  SUNLinSolSetScalingVectors(s.solver, s.weights, s.weights);
  if (SUNLinSolInitialize(s.solver) != 0) throw std::runtime_error("SUNDIALS: the Krylov solver did not initialise");
}

KrylovSolver::Outcome KrylovSolver::solve(Apply apply, Apply precondition, const Eigen::VectorXd& weights,
                                          const Eigen::VectorXd& b, Eigen::VectorXd& x, double tol) {
  Sundials& s = *sundials_;
  s.apply = &apply;
  s.precondition = &precondition;
  s.failure = Eval::ok;
  x.setZero();
  N_VSetArrayPointer(x.data(), s.x);
  N_VSetArrayPointer(const_cast<double*>(b.data()), s.b);  // read only
  N_VSetArrayPointer(const_cast<double*>(weights.data()), s.weights);
  SUNLinSolSetZeroGuess(s.solver, SUNTRUE);
  const int flag = SUNLinSolSolve(s.solver, nullptr, s.x, s.b, tol);
  iterations_ = SUNLinSolNumIters(s.solver);
  residual_norm_ = SUNLinSolResNorm(s.solver);
  model_failure_ = s.failure;
  s.apply = s.precondition = nullptr;
  if (model_failure_ != Eval::ok) return Outcome::model_failed;
  if (flag == SUNLS_SUCCESS) return Outcome::converged;
  if (flag == SUNLS_RES_REDUCED) return Outcome::reduced;
  return Outcome::failed;
}

}  // namespace daekit
