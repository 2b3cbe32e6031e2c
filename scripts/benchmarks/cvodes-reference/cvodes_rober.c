/* CVODES at its best on Robertson with forward sensitivities to k1, k2, k3, for the
 * side-by-side of docs/sensitivities.md: BDF, dense LU with the analytic Jacobian, the
 * sensitivity right-hand sides (df/dy) s + df/dp supplied analytically, the staggered
 * corrector, the sensitivities in the error test (errconS = SUNTRUE, so that accuracy is
 * compared with accuracy), pbar = (k1, k2, k3).
 *   cvodes_rober <rtol> <atol> <tend>
 * prints `time= <s>` (CLOCK_MONOTONIC around CVodeInit .. the last CVode), `steps=`, and
 * the 3 x 3 sensitivities `S <i> <k> <value>` at tend. */
#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#include "robertson_model.h"

static int sens_rhs(int ns, double t, N_Vector yv, N_Vector ydot, N_Vector* ys, N_Vector* ysdot, void* data,
                    N_Vector t1, N_Vector t2) {
  (void)t, (void)ydot, (void)data, (void)t1, (void)t2;
  const double* y = N_VGetArrayPointer(yv);
  double j[3][3];
  jacobian_of(y, j);
  for (int q = 0; q < ns; ++q) {
    const double* s = N_VGetArrayPointer(ys[q]);
    double* out = N_VGetArrayPointer(ysdot[q]);
    for (int r = 0; r < 3; ++r) out[r] = j[r][0] * s[0] + j[r][1] * s[1] + j[r][2] * s[2];
    const double dp[3][3] = {{-y[0], 0.0, y[1] * y[2]}, {0.0, 0.0, 0.0}, {0.0, y[1] * y[1], 0.0}};
    for (int r = 0; r < 3; r += 2) out[r] += dp[r][q];
    out[1] += -dp[0][q] - dp[2][q];
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) return fprintf(stderr, "usage: cvodes_rober <rtol> <atol> <tend>\n"), 2;
  const double rtol = atof(argv[1]), atol = atof(argv[2]), tend = atof(argv[3]);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(3, ctx);
  double* yd = N_VGetArrayPointer(y);
  yd[0] = 1.0, yd[1] = 0.0, yd[2] = 0.0;
  void* mem = CVodeCreate(CV_BDF, ctx);
  CVodeInit(mem, rhs, 0.0, y);
  CVodeSStolerances(mem, rtol, atol);
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  CVodeSetLinearSolver(mem, LS, A);
  CVodeSetJacFn(mem, jac);
  CVodeSetMaxNumSteps(mem, 1000000);
  N_Vector* ys = N_VCloneVectorArray(3, y);
  for (int q = 0; q < 3; ++q) N_VConst(0.0, ys[q]);
  CVodeSensInit(mem, 3, CV_STAGGERED, sens_rhs, ys);
  double pbar[3] = {k[0], k[1], k[2]};
  CVodeSetSensParams(mem, NULL, pbar, NULL);
  CVodeSensEEtolerances(mem);
  CVodeSetSensErrCon(mem, SUNTRUE);
  double t = 0.0;
  const int flag = CVode(mem, tend, y, &t, CV_NORMAL);
  CVodeGetSens(mem, &t, ys);
  clock_gettime(CLOCK_MONOTONIC, &b);
  long steps = 0;
  CVodeGetNumSteps(mem, &steps);
  printf("flag= %d\ntime= %.9f\nsteps= %ld\n", flag, (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec), steps);
  for (int q = 0; q < 3; ++q)
    for (int i = 0; i < 3; ++i) printf("S %d %d %.17g\n", i, q, N_VGetArrayPointer(ys[q])[i]);
  N_VDestroyVectorArray(ys, 3);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  CVodeFree(&mem);
  N_VDestroy(y);
  SUNContext_Free(&ctx);
  return flag < 0;
}
