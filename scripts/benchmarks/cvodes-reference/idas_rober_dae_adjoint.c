/* IDAS' adjoint from C on Robertson as an index-1 DAE (y1' = f1, y2' = f2,
 * 0 = y1 + y2 + y3 - 1: daekit's `rober_dae`), for the side-by-side with ida's adjoint in
 * docs/sensitivities.md. G = y1(T); the backward DAE M^T lambda' = -J^T lambda with
 * lambda(T) = e_1 on the differential rows (y1 is differential: no projection term), its
 * algebraic component and lambda' made consistent by IDACalcICB, and the quadrature
 * mu' = -(df/dk)^T lambda. Forward and backward BDF with dense LUs and analytic Jacobians,
 * checkpoints every 100 steps with polynomial interpolation, lambda's absolute tolerance
 * 1e-4 rtol |lambda(T)|, the quadrature in the error test (rtol, atol 1e-3 rtol |G| / k_i):
 * the settings daekit's ida uses, written out.
 *   idas_rober_dae_adjoint <rtol> <atol> <T>
 * prints `time= <s>` (CLOCK_MONOTONIC around IDAInit .. IDAGetQuadB), `G=` and `dG/dk<i>=`. */
#include <idas/idas.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#define ROBERTSON_ARRAYS_ONLY
#include "robertson_model.h"

/* The DAE's right-hand side: the kinetics for y1, y2 and the conservation law. */
static void dae_rhs(const double* y, double* f) {
  f[0] = -k[0] * y[0] + k[2] * y[1] * y[2];
  f[1] = k[0] * y[0] - k[2] * y[1] * y[2] - k[1] * y[1] * y[1];
  f[2] = y[0] + y[1] + y[2] - 1.0;
}

static void dae_jacobian(const double* y, double j[3][3]) {
  jacobian_of(y, j);
  j[2][0] = 1.0, j[2][1] = 1.0, j[2][2] = 1.0;
}

static const double mass[3] = {1.0, 1.0, 0.0};

/* F = M y' - f */
static int res(double t, N_Vector yv, N_Vector ypv, N_Vector rv, void* data) {
  (void)t, (void)data;
  double f[3];
  dae_rhs(N_VGetArrayPointer(yv), f);
  const double* yp = N_VGetArrayPointer(ypv);
  double* r = N_VGetArrayPointer(rv);
  for (int i = 0; i < 3; ++i) r[i] = mass[i] * yp[i] - f[i];
  return 0;
}

static int jac(double t, double cj, N_Vector yv, N_Vector ypv, N_Vector rv, SUNMatrix J, void* data, N_Vector t1,
               N_Vector t2, N_Vector t3) {
  (void)t, (void)ypv, (void)rv, (void)data, (void)t1, (void)t2, (void)t3;
  double j[3][3];
  dae_jacobian(N_VGetArrayPointer(yv), j);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) SM_ELEMENT_D(J, r, c) = (r == c ? cj * mass[r] : 0.0) - j[r][c];
  return 0;
}

/* -(M^T lambda' + J^T lambda) */
static int res_b(double t, N_Vector yv, N_Vector ypv, N_Vector lv, N_Vector lpv, N_Vector rv, void* data) {
  (void)t, (void)ypv, (void)data;
  double j[3][3];
  dae_jacobian(N_VGetArrayPointer(yv), j);
  const double* l = N_VGetArrayPointer(lv);
  const double* lp = N_VGetArrayPointer(lpv);
  double* r = N_VGetArrayPointer(rv);
  for (int c = 0; c < 3; ++c) r[c] = -(mass[c] * lp[c] + j[0][c] * l[0] + j[1][c] * l[1] + j[2][c] * l[2]);
  return 0;
}

static int jac_b(double t, double cjb, N_Vector yv, N_Vector ypv, N_Vector lv, N_Vector lpv, N_Vector rv, SUNMatrix J,
                 void* data, N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)t, (void)ypv, (void)lv, (void)lpv, (void)rv, (void)data, (void)t1, (void)t2, (void)t3;
  double j[3][3];
  dae_jacobian(N_VGetArrayPointer(yv), j);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) SM_ELEMENT_D(J, r, c) = -(r == c ? cjb * mass[r] : 0.0) - j[c][r];
  return 0;
}

/* mu' = -(df/dk)^T lambda; df/dk columns: k1: (-y1, y1, 0), k2: (0, -y2^2, 0), k3: (y2 y3, -y2 y3, 0) */
static int quad_b(double t, N_Vector yv, N_Vector ypv, N_Vector lv, N_Vector lpv, N_Vector out, void* data) {
  (void)t, (void)ypv, (void)lpv, (void)data;
  const double* y = N_VGetArrayPointer(yv);
  const double* l = N_VGetArrayPointer(lv);
  double* o = N_VGetArrayPointer(out);
  o[0] = -(-y[0] * l[0] + y[0] * l[1]);
  o[1] = -(-y[1] * y[1] * l[1]);
  o[2] = -(y[1] * y[2] * l[0] - y[1] * y[2] * l[1]);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) return fprintf(stderr, "usage: idas_rober_dae_adjoint rtol atol T\n"), 2;
  const double rtol = atof(argv[1]), atol = atof(argv[2]), T = atof(argv[3]);
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  N_Vector y = N_VNew_Serial(3, ctx), yp = N_VNew_Serial(3, ctx), id = N_VNew_Serial(3, ctx);
  N_Vector l = N_VNew_Serial(3, ctx), lp = N_VNew_Serial(3, ctx), mu = N_VNew_Serial(3, ctx);
  N_Vector mu_atol = N_VNew_Serial(3, ctx);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  NV_Ith_S(y, 0) = 1, NV_Ith_S(y, 1) = 0, NV_Ith_S(y, 2) = 0;
  double f[3];
  dae_rhs(N_VGetArrayPointer(y), f);
  NV_Ith_S(yp, 0) = f[0], NV_Ith_S(yp, 1) = f[1], NV_Ith_S(yp, 2) = 0;
  NV_Ith_S(id, 0) = 1, NV_Ith_S(id, 1) = 1, NV_Ith_S(id, 2) = 0;
  void* mem = IDACreate(ctx);
  check(IDAInit(mem, res, 0.0, y, yp), "IDAInit");
  check(IDASStolerances(mem, rtol, atol), "IDASStolerances");
  check(IDASetId(mem, id), "IDASetId");
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  check(IDASetLinearSolver(mem, LS, A), "IDASetLinearSolver");
  check(IDASetJacFn(mem, jac), "IDASetJacFn");
  check(IDASetMaxNumSteps(mem, 1000000), "IDASetMaxNumSteps");
  check(IDAAdjInit(mem, 100, IDA_POLYNOMIAL), "IDAAdjInit");
  double t = 0;
  int ncheck = 0;
  check(IDASolveF(mem, T, &t, y, yp, IDA_NORMAL, &ncheck), "IDASolveF");
  const double G = NV_Ith_S(y, 0);
  int which = 0;
  NV_Ith_S(l, 0) = 1, NV_Ith_S(l, 1) = 0, NV_Ith_S(l, 2) = 0;
  N_VConst(0.0, lp);
  N_VConst(0.0, mu);
  for (int i = 0; i < 3; ++i) NV_Ith_S(mu_atol, i) = 1e-3 * rtol * fabs(G) / k[i];
  check(IDACreateB(mem, &which), "IDACreateB");
  check(IDAInitB(mem, which, res_b, T, l, lp), "IDAInitB");
  check(IDASStolerancesB(mem, which, rtol, 1e-4 * rtol), "IDASStolerancesB");
  check(IDASetIdB(mem, which, id), "IDASetIdB");
  SUNMatrix AB = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver LSB = SUNLinSol_Dense(l, AB, ctx);
  check(IDASetLinearSolverB(mem, which, LSB, AB), "IDASetLinearSolverB");
  check(IDASetJacFnB(mem, which, jac_b), "IDASetJacFnB");
  check(IDASetMaxNumStepsB(mem, which, 1000000), "IDASetMaxNumStepsB");
  check(IDAQuadInitB(mem, which, quad_b, mu), "IDAQuadInitB");
  check(IDASetQuadErrConB(mem, which, SUNTRUE), "IDASetQuadErrConB");
  check(IDAQuadSVtolerancesB(mem, which, rtol, mu_atol), "IDAQuadSVtolerancesB");
  check(IDACalcICB(mem, which, T * (1 - 1e-6), y, yp), "IDACalcICB");
  check(IDASolveB(mem, 0.0, IDA_NORMAL), "IDASolveB");
  check(IDAGetB(mem, which, &t, l, lp), "IDAGetB");
  check(IDAGetQuadB(mem, which, &t, mu), "IDAGetQuadB");
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("time= %.9f\nG= %.17g\n", (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec), G);
  for (int i = 0; i < 3; ++i) printf("dG/dk%d= %.17g\n", i + 1, NV_Ith_S(mu, i));
  IDAFree(&mem);
  return 0;
}
