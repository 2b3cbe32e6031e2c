/* IDAS at its best on Robertson's index-1 DAE (the third equation the conservation law
 * y1 + y2 + y3 = 1) with forward sensitivities to k1, k2, k3, for the side-by-side of
 * docs/sensitivities.md: dense LU with the analytic iteration matrix dF/dy + cj dF/dy',
 * the sensitivity residuals (dF/dy) s + (dF/dy') s' + dF/dp supplied analytically, the
 * staggered corrector, the sensitivities in the error test (errconS = SUNTRUE), pbar =
 * (k1, k2, k3); consistent y0, y'0, s0 = 0 and s'0 = d y'0 / dk given, no IDACalcIC.
 *   idas_rober <rtol> <atol> <tend>
 * prints `time= <s>` (CLOCK_MONOTONIC around IDAInit .. the last IDASolve), `steps=`, and
 * the 3 x 3 sensitivities `S <i> <k> <value>` at tend. */
#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

static const double k[3] = {0.04, 3e7, 1e4};

static int residual(double t, N_Vector yv, N_Vector ypv, N_Vector rv, void* data) {
  (void)t, (void)data;
  const double *y = N_VGetArrayPointer(yv), *yp = N_VGetArrayPointer(ypv);
  double* r = N_VGetArrayPointer(rv);
  r[0] = yp[0] + k[0] * y[0] - k[2] * y[1] * y[2];
  r[1] = yp[1] - k[0] * y[0] + k[2] * y[1] * y[2] + k[1] * y[1] * y[1];
  r[2] = y[0] + y[1] + y[2] - 1.0;
  return 0;
}

/* dF/dy (the y' part is the identity on the first two rows). */
static void dfdy(const double* y, double j[3][3]) {
  j[0][0] = k[0], j[0][1] = -k[2] * y[2], j[0][2] = -k[2] * y[1];
  j[1][0] = -k[0], j[1][1] = k[2] * y[2] + 2.0 * k[1] * y[1], j[1][2] = k[2] * y[1];
  j[2][0] = 1.0, j[2][1] = 1.0, j[2][2] = 1.0;
}

static int jac(double t, double cj, N_Vector yv, N_Vector ypv, N_Vector rv, SUNMatrix J, void* data, N_Vector t1,
               N_Vector t2, N_Vector t3) {
  (void)t, (void)ypv, (void)rv, (void)data, (void)t1, (void)t2, (void)t3;
  double j[3][3];
  dfdy(N_VGetArrayPointer(yv), j);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) SM_ELEMENT_D(J, r, c) = j[r][c] + (r == c && r < 2 ? cj : 0.0);
  return 0;
}

static int sens_residual(int ns, double t, N_Vector yv, N_Vector ypv, N_Vector rv, N_Vector* ys, N_Vector* yps,
                         N_Vector* rs, void* data, N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)t, (void)ypv, (void)rv, (void)data, (void)t1, (void)t2, (void)t3;
  const double* y = N_VGetArrayPointer(yv);
  double j[3][3];
  dfdy(y, j);
  /* dF/dp, column q */
  const double dp[3][3] = {{y[0], 0.0, -y[1] * y[2]}, {-y[0], y[1] * y[1], y[1] * y[2]}, {0.0, 0.0, 0.0}};
  for (int q = 0; q < ns; ++q) {
    const double *s = N_VGetArrayPointer(ys[q]), *sp = N_VGetArrayPointer(yps[q]);
    double* out = N_VGetArrayPointer(rs[q]);
    for (int r = 0; r < 3; ++r)
      out[r] = j[r][0] * s[0] + j[r][1] * s[1] + j[r][2] * s[2] + (r < 2 ? sp[r] : 0.0) + dp[r][q];
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) return fprintf(stderr, "usage: idas_rober <rtol> <atol> <tend>\n"), 2;
  const double rtol = atof(argv[1]), atol = atof(argv[2]), tend = atof(argv[3]);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(3, ctx), yp = N_VNew_Serial(3, ctx);
  double *yd = N_VGetArrayPointer(y), *ypd = N_VGetArrayPointer(yp);
  yd[0] = 1.0, yd[1] = 0.0, yd[2] = 0.0;
  ypd[0] = -k[0], ypd[1] = k[0], ypd[2] = 0.0;
  void* mem = IDACreate(ctx);
  IDAInit(mem, residual, 0.0, y, yp);
  IDASStolerances(mem, rtol, atol);
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  IDASetLinearSolver(mem, LS, A);
  IDASetJacFn(mem, jac);
  IDASetMaxNumSteps(mem, 1000000);
  N_Vector *ys = N_VCloneVectorArray(3, y), *yps = N_VCloneVectorArray(3, y);
  for (int q = 0; q < 3; ++q) N_VConst(0.0, ys[q]), N_VConst(0.0, yps[q]);
  /* s'0 = -(dF/dp) at t0 on the differential rows (s0 = 0): d y1'/dk1 = -y1, d y2'/dk1 = y1. */
  N_VGetArrayPointer(yps[0])[0] = -1.0, N_VGetArrayPointer(yps[0])[1] = 1.0;
  IDASensInit(mem, 3, IDA_STAGGERED, sens_residual, ys, yps);
  double pbar[3] = {k[0], k[1], k[2]};
  IDASetSensParams(mem, NULL, pbar, NULL);
  IDASensEEtolerances(mem);
  IDASetSensErrCon(mem, SUNTRUE);
  double t = 0.0;
  const int flag = IDASolve(mem, tend, &t, y, yp, IDA_NORMAL);
  IDAGetSens(mem, &t, ys);
  clock_gettime(CLOCK_MONOTONIC, &b);
  long steps = 0;
  IDAGetNumSteps(mem, &steps);
  printf("flag= %d\ntime= %.9f\nsteps= %ld\n", flag, (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec), steps);
  for (int q = 0; q < 3; ++q)
    for (int i = 0; i < 3; ++i) printf("S %d %d %.17g\n", i, q, N_VGetArrayPointer(ys[q])[i]);
  N_VDestroyVectorArray(ys, 3);
  N_VDestroyVectorArray(yps, 3);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  IDAFree(&mem);
  N_VDestroy(y);
  N_VDestroy(yp);
  SUNContext_Free(&ctx);
  return flag < 0;
}
