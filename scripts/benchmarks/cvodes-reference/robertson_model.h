/* Robertson's equations for the SUNDIALS drivers here, written out: k and the Jacobian as
 * an array; f and CVODES' dense Jacobian function unless ROBERTSON_ARRAYS_ONLY (the IDAS
 * driver, whose callbacks take other arguments). */
#ifndef ROBERTSON_MODEL_H
#define ROBERTSON_MODEL_H

#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunmatrix/sunmatrix_dense.h>

static const double k[3] = {0.04, 3e7, 1e4};

/* A SUNDIALS call's flag: on failure, say which call and stop. */
static inline void check(int flag, const char* what) {
  if (flag < 0) {
    fprintf(stderr, "%s failed: %d\n", what, flag);
    exit(1);
  }
}

static void jacobian_of(const double* y, double j[3][3]) {
  j[0][0] = -k[0], j[0][1] = k[2] * y[2], j[0][2] = k[2] * y[1];
  j[2][0] = 0.0, j[2][1] = 2.0 * k[1] * y[1], j[2][2] = 0.0;
  for (int c = 0; c < 3; ++c) j[1][c] = -j[0][c] - j[2][c];
}

#ifndef ROBERTSON_ARRAYS_ONLY
static int rhs(double t, N_Vector yv, N_Vector fv, void* data) {
  (void)t, (void)data;
  const double* y = N_VGetArrayPointer(yv);
  double* f = N_VGetArrayPointer(fv);
  f[0] = -k[0] * y[0] + k[2] * y[1] * y[2];
  f[2] = k[1] * y[1] * y[1];
  f[1] = -f[0] - f[2];
  return 0;
}

static int jac(double t, N_Vector yv, N_Vector fy, SUNMatrix J, void* data, N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)t, (void)fy, (void)data, (void)t1, (void)t2, (void)t3;
  double j[3][3];
  jacobian_of(N_VGetArrayPointer(yv), j);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) SM_ELEMENT_D(J, r, c) = j[r][c];
  return 0;
}

#endif /* ROBERTSON_ARRAYS_ONLY */

#endif
