/* Plain SUNDIALS IDA (its dense linear solver, the problem's analytic Jacobian) on a daekit
 * problem plugin: the second peer of scripts/peer-compare.py. No daekit code in the loop:
 * the plugin is reached through the C ABI by ../radau5-reference/model.c, as for RADAU5.
 * The problem is M y' = f with a constant M, so F = M y' - f and
 * dF/dy + cj dF/dy' = cj M - df/dy (IDA's own difference quotients where the problem has
 * no analytic Jacobian). Components of index 2 or more make IDA leave the
 * algebraic components out of its error test (IDASetSuppressAlg), as the usual IDA setup
 * for such DAEs does and as daekit's ida adapter does by default.
 *   ida_driver <repeats> <h0 or 0> <tol>...   (DAEKIT_PLUGIN, DAEKIT_ENTRY, DAEKIT_PARAMS,
 *                                               DAEKIT_REFERENCE as for model.c)
 * One Markdown row per tolerance: tol | scd | steps | residuals | Jacobians | LUs | seconds
 * (median of repeats); "fails (...)" when IDA stops before tend. */
#include <ida/ida.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#include "../radau5-reference/timing.h"

void model_info(int* n, double* t0, double* tend, int* has_reference, int* has_jacobian);
void model_initial_derivatives(double* y, double* yp);
void model_mass(double* y0, double* m);
void model_index(int* index);
void model_scd(double* y, double* scd);
void derivs(int* neq, double* t, double* y, double* ydot, double* yout, int* ip);
void jac(int* neq, double* t, double* y, int* ml, int* mu, double* pd, int* nrowpd, double* yout, int* ip);

static int n;
static double* mass; /* column-major n x n */
static double* work; /* f, or df/dy (column-major) */

static int residual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* data) {
  (void)data;
  double* d = N_VGetArrayPointer(yp);
  double* r = N_VGetArrayPointer(rr);
  derivs(&n, &t, N_VGetArrayPointer(yy), work, NULL, NULL);
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += mass[(size_t)j * n + i] * d[j];
    r[i] = s - work[i];
  }
  return 0;
}

static int jacobian(realtype t, realtype cj, N_Vector yy, N_Vector yp, N_Vector rr, SUNMatrix J, void* data,
                    N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)yp, (void)rr, (void)data, (void)t1, (void)t2, (void)t3;
  int zero = 0;
  memset(work, 0, sizeof(double) * (size_t)n * n); /* problems are handed a zeroed matrix */
  jac(&n, &t, N_VGetArrayPointer(yy), &zero, &zero, work, &n, NULL, NULL);
  double* a = SUNDenseMatrix_Data(J); /* column-major, leading dimension n */
  for (size_t k = 0; k < (size_t)n * n; ++k) a[k] = cj * mass[k] - work[k];
  return 0;
}


int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: ida_driver <repeats> <h0 or 0> <tol>...\n");
    return 2;
  }
  const int repeats = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;
  const double h0 = atof(argv[2]);
  double t0, tend;
  int has_reference, has_jacobian;
  model_info(&n, &t0, &tend, &has_reference, &has_jacobian);
  mass = calloc((size_t)n * n, sizeof(double));
  work = calloc((size_t)n * n, sizeof(double));
  double* y0 = calloc(n, sizeof(double));
  double* yp0 = calloc(n, sizeof(double));
  int* index = calloc(n, sizeof(int));
  model_initial_derivatives(y0, yp0);
  model_mass(y0, mass);
  model_index(index);
  int suppress = 0;
  for (int i = 0; i < n; ++i) suppress |= index[i] >= 2;
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  printf("| tol | scd | steps | residuals | Jacobians | LUs | seconds |\n|---|---|---|---|---|---|---|\n");
  for (int a = 3; a < argc; ++a) {
    const double tol = atof(argv[a]);
    double* took = calloc(repeats, sizeof(double));
    long steps = 0, nres = 0, njac = 0, nlu = 0;
    int flag = 0;
    double tret = t0, scd = NAN;
    for (int r = 0; r < repeats && flag >= 0; ++r) {
      N_Vector yy = N_VNew_Serial(n, ctx), yp = N_VNew_Serial(n, ctx), id = N_VNew_Serial(n, ctx);
      memcpy(N_VGetArrayPointer(yy), y0, sizeof(double) * n);
      memcpy(N_VGetArrayPointer(yp), yp0, sizeof(double) * n);
      for (int i = 0; i < n; ++i) N_VGetArrayPointer(id)[i] = mass[(size_t)i * n + i] != 0.0 ? 1.0 : 0.0;
      SUNMatrix A = SUNDenseMatrix(n, n, ctx);
      SUNLinearSolver LS = SUNLinSol_Dense(yy, A, ctx);
      const double start = now();
      void* mem = IDACreate(ctx);
      IDAInit(mem, residual, t0, yy, yp);
      IDASStolerances(mem, tol, tol);
      IDASetId(mem, id);
      IDASetSuppressAlg(mem, suppress ? SUNTRUE : SUNFALSE);
      IDASetLinearSolver(mem, LS, A);
      if (has_jacobian) IDASetJacFn(mem, jacobian); /* else IDA's own difference quotients */
      IDASetMaxNumSteps(mem, 1000000);
      IDASetStopTime(mem, tend);
      if (h0 > 0.0) IDASetInitStep(mem, h0);
      flag = IDASolve(mem, tend, &tret, yy, yp, IDA_NORMAL);
      took[r] = now() - start;
      IDAGetNumSteps(mem, &steps);
      IDAGetNumResEvals(mem, &nres);
      IDAGetNumJacEvals(mem, &njac);
      IDAGetNumLinSolvSetups(mem, &nlu);
      if (flag >= 0 && has_reference) model_scd(N_VGetArrayPointer(yy), &scd);
      IDAFree(&mem);
      SUNLinSolFree(LS);
      SUNMatDestroy(A);
      N_VDestroy(yy), N_VDestroy(yp), N_VDestroy(id);
    }
    if (flag < 0) {
      printf("| %g | fails (IDA flag %d at t = %g) | %ld | | | | |\n", tol, flag, tret, steps);
    } else {
      qsort(took, repeats, sizeof(double), compare);
      const double median = repeats % 2 ? took[repeats / 2] : 0.5 * (took[repeats / 2 - 1] + took[repeats / 2]);
      if (has_reference)
        printf("| %g | %.2f | %ld | %ld | %ld | %ld | %.3f |\n", tol, scd, steps, nres, njac, nlu, median);
      else
        printf("| %g | NA | %ld | %ld | %ld | %ld | %.3f |\n", tol, steps, nres, njac, nlu, median);
    }
    free(took);
    fflush(stdout);
  }
  SUNContext_Free(&ctx);
  return 0;
}
