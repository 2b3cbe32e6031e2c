/* Plain SUNDIALS CVODE (BDF, Newton, its dense linear solver, the problem's analytic
 * Jacobian) on a daekit problem plugin, for the per-solve latency of small problems
 * (scripts/benchmarks/small-solves.sh, against build/bin/solve-latency). No daekit code in
 * the loop: the plugin is reached through the C ABI by ../radau5-reference/model.c.
 *   cvode_driver <repeats> <rtol> <atol>   (DAEKIT_PLUGIN, DAEKIT_ENTRY, DAEKIT_PARAMS,
 *                                           DAEKIT_REFERENCE as for model.c)
 * Each solve is the whole of what a program that solves many small problems does: vectors,
 * matrix, linear solver and CVODE's memory made, y0 set, CVode to tend (end point only,
 * CV_NORMAL with a stop time), everything freed. One Markdown row, solve-latency's columns:
 * rtol | atol | scd | steps | f | J | LU | microseconds per solve (median) | min. */
#include <cvode/cvode.h>
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
void model_initial_values(double* y);
void model_scd(double* y, double* scd);
void derivs(int* neq, double* t, double* y, double* ydot, double* yout, int* ip);
void jac(int* neq, double* t, double* y, int* ml, int* mu, double* pd, int* nrowpd, double* yout, int* ip);

static int n;

static int rhs(realtype t, N_Vector y, N_Vector ydot, void* data) {
  (void)data;
  derivs(&n, &t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), NULL, NULL);
  return 0;
}

static int jacobian(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* data, N_Vector t1, N_Vector t2,
                    N_Vector t3) {
  (void)fy, (void)data, (void)t1, (void)t2, (void)t3;
  int zero = 0;
  double* a = SUNDenseMatrix_Data(J); /* column-major, leading dimension n */
  memset(a, 0, sizeof(double) * (size_t)n * n); /* problems are handed a zeroed matrix */
  jac(&n, &t, N_VGetArrayPointer(y), &zero, &zero, a, &n, NULL, NULL);
  return 0;
}


int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: cvode_driver <repeats> <rtol> <atol>\n");
    return 2;
  }
  const int repeats = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;
  const double rtol = atof(argv[2]), atol = atof(argv[3]);
  double t0, tend, tret = 0.0;
  int has_reference, has_jacobian, flag = 0;
  model_info(&n, &t0, &tend, &has_reference, &has_jacobian);
  double* y0 = calloc((size_t)n, sizeof(double));
  double* y_end = calloc((size_t)n, sizeof(double));
  double* took = calloc((size_t)repeats, sizeof(double));
  model_initial_values(y0);
  long steps = 0, nf = 0, njac = 0, nlu = 0;
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  for (int r = 0; r < repeats && flag >= 0; ++r) {
    const double start = now();
    N_Vector y = N_VNew_Serial(n, ctx);
    memcpy(N_VGetArrayPointer(y), y0, sizeof(double) * (size_t)n);
    SUNMatrix A = SUNDenseMatrix(n, n, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
    void* mem = CVodeCreate(CV_BDF, ctx);
    CVodeInit(mem, rhs, t0, y);
    CVodeSStolerances(mem, rtol, atol);
    CVodeSetLinearSolver(mem, LS, A);
    if (has_jacobian) CVodeSetJacFn(mem, jacobian); /* else CVODE's own difference quotients */
    CVodeSetMaxNumSteps(mem, 1000000);
    CVodeSetStopTime(mem, tend);
    flag = CVode(mem, tend, y, &tret, CV_NORMAL);
    memcpy(y_end, N_VGetArrayPointer(y), sizeof(double) * (size_t)n);
    CVodeGetNumSteps(mem, &steps);
    CVodeGetNumRhsEvals(mem, &nf);
    CVodeGetNumJacEvals(mem, &njac);
    CVodeGetNumLinSolvSetups(mem, &nlu);
    CVodeFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    took[r] = 1e6 * (now() - start);
  }
  SUNContext_Free(&ctx);
  if (flag < 0) {
    printf("| %g | %g | fails (CVODE flag %d at t = %g) | %ld | | | | | |\n", rtol, atol, flag, tret, steps);
    return 1;
  }
  qsort(took, (size_t)repeats, sizeof(double), compare);
  double scd = NAN;
  if (has_reference) model_scd(y_end, &scd);
  printf("| %g | %g | %.2f | %ld | %ld | %ld | %ld | %.1f | %.1f |\n", rtol, atol, scd, steps, nf, njac, nlu,
         took[repeats / 2], took[0]);
  free(y0), free(y_end), free(took);
  return 0;
}
