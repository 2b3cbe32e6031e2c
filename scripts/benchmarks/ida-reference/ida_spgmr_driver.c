/* Plain SUNDIALS IDA (BDF, Newton, SPGMR preconditioned on the left as IDA requires, maxl
 * 5, 5 restarts, eplifac 0.05: the settings of daekit's ida adapter) on an ODE y' = f(y)
 * from a problem plugin, as F(t, y, y') = y' - f(y), with the plugin's own J v and
 * preconditioner (prec_setup / prec_solve, ABI 1.3), for scripts/benchmarks/krylov-vs-c.py.
 * IDA's Newton matrix is cj I - J = cj (I - J / cj): the preconditioner is set up with
 * gamma = 1 / cj and its solution divided by cj, as the adapter does. No daekit code in
 * the loop: the plugin is reached through the C ABI by ../radau5-reference/model.c
 * (DAEKIT_PLUGIN, DAEKIT_ENTRY, DAEKIT_PARAMS).
 *   ida_spgmr_driver <rtol> <atol>
 * One line: scd steps newton_iterations krylov_iterations preconditioner_setups seconds. */
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <string.h>

#include "../radau5-reference/model_krylov.h"
#include "../radau5-reference/timing.h"

static int n;
static long setup_calls;

static int residual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* data) {
  (void)data;
  double* r = N_VGetArrayPointer(rr);
  const double* d = N_VGetArrayPointer(yp);
  derivs(&n, &t, N_VGetArrayPointer(yy), r, NULL, NULL);
  for (int i = 0; i < n; ++i) r[i] = d[i] - r[i];
  return 0;
}

/* (dF/dy + cj dF/dy') v = cj v - J v. */
static int jtimes(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, N_Vector v, N_Vector jv, realtype cj,
                  void* data, N_Vector t1, N_Vector t2) {
  (void)yp, (void)rr, (void)data, (void)t1, (void)t2;
  double* out = N_VGetArrayPointer(jv);
  const double* vv = N_VGetArrayPointer(v);
  const int flag = model_jacobian_vector(t, N_VGetArrayPointer(yy), vv, out);
  for (int i = 0; i < n; ++i) out[i] = cj * vv[i] - out[i];
  return flag;
}

/* IDA calls this only when it wants the preconditioner anew. */
static int prec_setup(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, realtype cj, void* data) {
  (void)yp, (void)rr, (void)data;
  ++setup_calls;
  int current = 1;
  return model_prec_setup(t, N_VGetArrayPointer(yy), 1.0 / cj, &current);
}

static int prec_solve(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, N_Vector r, N_Vector z, realtype cj,
                      realtype delta, void* data) {
  (void)yp, (void)rr, (void)data;
  double* out = N_VGetArrayPointer(z);
  const int flag = model_prec_solve(t, N_VGetArrayPointer(yy), N_VGetArrayPointer(r), out, 1.0 / cj, delta * cj);
  for (int i = 0; i < n; ++i) out[i] /= cj;
  return flag;
}

int main(int argc, char** argv) {
  double rtol, atol, t0, tend, tret = 0.0;
  int has_reference;
  const int opened = open_krylov_run(argc, argv, "ida_spgmr_driver", 1, &rtol, &atol, &n, &t0, &tend, &has_reference);
  if (opened != 0) return opened;
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(n, ctx), yp = N_VNew_Serial(n, ctx);
  model_initial_values(N_VGetArrayPointer(y));
  derivs(&n, &t0, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), NULL, NULL); /* y'(t0) = f(y0) */
  const double start = now();
  void* mem = IDACreate(ctx);
  IDAInit(mem, residual, t0, y, yp);
  IDASStolerances(mem, rtol, atol);
  SUNLinearSolver LS = make_spgmr(y, SUN_PREC_LEFT, ctx);
  IDASetLinearSolver(mem, LS, NULL);
  IDASetEpsLin(mem, SPGMR_EPLIFAC);
  IDASetJacTimes(mem, NULL, jtimes);
  IDASetPreconditioner(mem, prec_setup, prec_solve);
  IDASetMaxNumSteps(mem, 1000000);
  IDASetStopTime(mem, tend);
  const int flag = IDASolve(mem, tend, &tret, y, yp, IDA_NORMAL);
  const double seconds = now() - start;
  long steps = 0, newton = 0, krylov = 0;
  IDAGetNumSteps(mem, &steps);
  IDAGetNumNonlinSolvIters(mem, &newton);
  IDAGetNumLinIters(mem, &krylov);
  const int status = report_krylov_run("IDA", flag, tret, N_VGetArrayPointer(y), has_reference, steps, newton, krylov,
                                       setup_calls, seconds);
  IDAFree(&mem);
  SUNLinSolFree(LS);
  N_VDestroy(y);
  N_VDestroy(yp);
  SUNContext_Free(&ctx);
  return status;
}
