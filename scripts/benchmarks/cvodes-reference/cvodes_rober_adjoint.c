/* CVODES' adjoint from C on Robertson, for the side-by-side with cvode's adjoint in
 * docs/sensitivities.md: G = y1(T), dG/dk by the backward problem lambda' = -J^T lambda,
 * lambda(T) = e_1, and the quadrature mu' = -(df/dk)^T lambda. Forward and backward BDF
 * with dense LUs and the analytic Jacobians, checkpoints every 100 steps with polynomial
 * interpolation, the quadrature in the error test (rtol, atol 1e-3 rtol |G| / k_i): the
 * settings daekit's cvode uses, written out.
 *   cvodes_rober_adjoint <rtol> <atol> <T>
 * prints `time= <s>` (CLOCK_MONOTONIC around CVodeInit .. CVodeGetQuadB), `G=` and `dG/dk<i>=`. */
#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>
#include <math.h>

#include "robertson_model.h"

/* lambda' = -J^T lambda */
static int rhs_b(double t, N_Vector yv, N_Vector lv, N_Vector out, void* data) {
  (void)t, (void)data;
  double j[3][3];
  jacobian_of(N_VGetArrayPointer(yv), j);
  const double* l = N_VGetArrayPointer(lv);
  double* o = N_VGetArrayPointer(out);
  for (int c = 0; c < 3; ++c) o[c] = -(j[0][c] * l[0] + j[1][c] * l[1] + j[2][c] * l[2]);
  return 0;
}

static int jac_b(double t, N_Vector yv, N_Vector lv, N_Vector fl, SUNMatrix J, void* data, N_Vector t1, N_Vector t2,
                 N_Vector t3) {
  (void)t, (void)lv, (void)fl, (void)data, (void)t1, (void)t2, (void)t3;
  double j[3][3];
  jacobian_of(N_VGetArrayPointer(yv), j);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) SM_ELEMENT_D(J, r, c) = -j[c][r];
  return 0;
}

/* mu' = -(df/dk)^T lambda; df/dk columns: k1: (-y1, y1, 0), k2: (0, -y2^2, y2^2), k3: (y2 y3, -y2 y3, 0) */
static int quad_b(double t, N_Vector yv, N_Vector lv, N_Vector out, void* data) {
  (void)t, (void)data;
  const double* y = N_VGetArrayPointer(yv);
  const double* l = N_VGetArrayPointer(lv);
  double* o = N_VGetArrayPointer(out);
  o[0] = -(-y[0] * l[0] + y[0] * l[1]);
  o[1] = -(-y[1] * y[1] * l[1] + y[1] * y[1] * l[2]);
  o[2] = -(y[1] * y[2] * l[0] - y[1] * y[2] * l[1]);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) return fprintf(stderr, "usage: cvodes_rober_adjoint rtol atol T\n"), 2;
  const double rtol = atof(argv[1]), atol = atof(argv[2]), T = atof(argv[3]);
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(3, ctx), l = N_VNew_Serial(3, ctx), mu = N_VNew_Serial(3, ctx), mu_atol = N_VNew_Serial(3, ctx);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  NV_Ith_S(y, 0) = 1, NV_Ith_S(y, 1) = 0, NV_Ith_S(y, 2) = 0;
  void* mem = CVodeCreate(CV_BDF, ctx);
  check(CVodeInit(mem, rhs, 0.0, y), "CVodeInit");
  check(CVodeSStolerances(mem, rtol, atol), "CVodeSStolerances");
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  check(CVodeSetLinearSolver(mem, LS, A), "CVodeSetLinearSolver");
  check(CVodeSetJacFn(mem, jac), "CVodeSetJacFn");
  check(CVodeSetMaxNumSteps(mem, 1000000), "CVodeSetMaxNumSteps");
  check(CVodeAdjInit(mem, 100, CV_POLYNOMIAL), "CVodeAdjInit");
  double t = 0;
  int ncheck = 0;
  check(CVodeF(mem, T, y, &t, CV_NORMAL, &ncheck), "CVodeF");
  const double G = NV_Ith_S(y, 0);
  int which = 0;
  NV_Ith_S(l, 0) = 1, NV_Ith_S(l, 1) = 0, NV_Ith_S(l, 2) = 0;
  N_VConst(0.0, mu);
  for (int i = 0; i < 3; ++i) NV_Ith_S(mu_atol, i) = 1e-3 * rtol * fabs(G) / k[i];
  check(CVodeCreateB(mem, CV_BDF, &which), "CVodeCreateB");
  check(CVodeInitB(mem, which, rhs_b, T, l), "CVodeInitB");
  check(CVodeSStolerancesB(mem, which, rtol, atol), "CVodeSStolerancesB");
  SUNMatrix AB = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver LSB = SUNLinSol_Dense(l, AB, ctx);
  check(CVodeSetLinearSolverB(mem, which, LSB, AB), "CVodeSetLinearSolverB");
  check(CVodeSetJacFnB(mem, which, jac_b), "CVodeSetJacFnB");
  check(CVodeSetMaxNumStepsB(mem, which, 1000000), "CVodeSetMaxNumStepsB");
  check(CVodeQuadInitB(mem, which, quad_b, mu), "CVodeQuadInitB");
  check(CVodeSetQuadErrConB(mem, which, SUNTRUE), "CVodeSetQuadErrConB");
  check(CVodeQuadSVtolerancesB(mem, which, rtol, mu_atol), "CVodeQuadSVtolerancesB");
  check(CVodeB(mem, 0.0, CV_NORMAL), "CVodeB");
  check(CVodeGetB(mem, which, &t, l), "CVodeGetB");
  check(CVodeGetQuadB(mem, which, &t, mu), "CVodeGetQuadB");
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("time= %.9f\nG= %.17g\n", (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec), G);
  for (int i = 0; i < 3; ++i) printf("dG/dk%d= %.17g\n", i + 1, NV_Ith_S(mu, i));
  CVodeFree(&mem);
  return 0;
}
