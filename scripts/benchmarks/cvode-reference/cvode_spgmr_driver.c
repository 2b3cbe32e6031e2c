/* Plain SUNDIALS CVODE (BDF, Newton, SPGMR preconditioned on the right, maxl 5, 5
 * restarts, eplifac 0.05: the settings of daekit's cvode adapter and bdf) with the problem
 * plugin's own J v and preconditioner (prec_setup / prec_solve, ABI 1.3), for
 * scripts/benchmarks/krylov-vs-c.py: bdf with Krylov against CVODE + SPGMR driven from C
 * on the same model. No daekit code in the loop: the plugin is reached through the C ABI
 * by ../radau5-reference/model.c (DAEKIT_PLUGIN, DAEKIT_ENTRY, DAEKIT_PARAMS).
 *   cvode_spgmr_driver <rtol> <atol>
 * One line: scd steps newton_iterations krylov_iterations preconditioner_setups
 * seconds (CVode's own, without the problem's creation). */
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <string.h>

#include "../radau5-reference/model_krylov.h"
#include "../radau5-reference/timing.h"

static int n;
static long setup_calls; /* every psetup call, as daekit counts nprec_setups (CVODE's own count has only jok = 0) */

static int rhs(realtype t, N_Vector y, N_Vector ydot, void* data) {
  (void)data;
  derivs(&n, &t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), NULL, NULL);
  return 0;
}

static int jtimes(N_Vector v, N_Vector jv, realtype t, N_Vector y, N_Vector fy, void* data, N_Vector work) {
  (void)fy, (void)data, (void)work;
  return model_jacobian_vector(t, N_VGetArrayPointer(y), N_VGetArrayPointer(v), N_VGetArrayPointer(jv));
}

/* CVODE's jok = 0 asks for the Jacobian information anew (the ABI's *jac_current = 1). */
static int prec_setup(realtype t, N_Vector y, N_Vector fy, booleantype jok, booleantype* jcur, realtype gamma,
                      void* data) {
  (void)fy, (void)data;
  ++setup_calls;
  int current = jok ? 0 : 1;
  const int flag = model_prec_setup(t, N_VGetArrayPointer(y), gamma, &current);
  *jcur = current ? SUNTRUE : SUNFALSE;
  return flag;
}

static int prec_solve(realtype t, N_Vector y, N_Vector fy, N_Vector r, N_Vector z, realtype gamma, realtype delta,
                      int lr, void* data) {
  (void)fy, (void)lr, (void)data;
  return model_prec_solve(t, N_VGetArrayPointer(y), N_VGetArrayPointer(r), N_VGetArrayPointer(z), gamma, delta);
}

int main(int argc, char** argv) {
  double rtol, atol, t0, tend, tret = 0.0;
  int has_reference;
  const int opened = open_krylov_run(argc, argv, "cvode_spgmr_driver", 0, &rtol, &atol, &n, &t0, &tend, &has_reference);
  if (opened != 0) return opened;
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(n, ctx);
  model_initial_values(N_VGetArrayPointer(y));
  const double start = now();
  void* mem = CVodeCreate(CV_BDF, ctx);
  CVodeInit(mem, rhs, t0, y);
  CVodeSStolerances(mem, rtol, atol);
  SUNLinearSolver LS = make_spgmr(y, SUN_PREC_RIGHT, ctx);
  CVodeSetLinearSolver(mem, LS, NULL);
  CVodeSetEpsLin(mem, SPGMR_EPLIFAC);
  if (model_has_jacobian_vector()) CVodeSetJacTimes(mem, NULL, jtimes); /* else CVODE's difference quotient */
  CVodeSetPreconditioner(mem, prec_setup, prec_solve);
  CVodeSetMaxNumSteps(mem, 1000000);
  CVodeSetStopTime(mem, tend);
  const int flag = CVode(mem, tend, y, &tret, CV_NORMAL);
  const double seconds = now() - start;
  long steps = 0, newton = 0, krylov = 0;
  CVodeGetNumSteps(mem, &steps);
  CVodeGetNumNonlinSolvIters(mem, &newton);
  CVodeGetNumLinIters(mem, &krylov);
  const int status = report_krylov_run("CVODE", flag, tret, N_VGetArrayPointer(y), has_reference, steps, newton, krylov,
                                       setup_calls, seconds);
  CVodeFree(&mem);
  SUNLinSolFree(LS);
  N_VDestroy(y);
  SUNContext_Free(&ctx);
  return status;
}
