/* Robertson's chemical kinetics, y1' = -k1 y1 + k3 y2 y3, y2' = k1 y1 - k3 y2 y3 - k2 y2^2,
   y3' = k2 y2^2: the twin of the native problem `rober` with y3 as a state. y2 stays
   below 4e-5, so it needs an absolute tolerance of its own: the descriptions give it a
   nominal of 1e-4. The event indicator y2 - 2e-5 falls through zero once, near
   t = 27.3: its time is as accurate as y2 is. */
#include "../framework/model_core.h"

enum { Y1, Y2, Y3, DER_Y1, DER_Y2, DER_Y3, K1, K2, K3, Y2_LOW, N_REALS };

static const unsigned states[] = {Y1, Y2, Y3};
static const unsigned derivatives[] = {DER_Y1, DER_Y2, DER_Y3};

static void start(double* r) {
  r[Y1] = 1.0;
  r[Y2] = 0.0;
  r[Y3] = 0.0;
  r[K1] = 0.04;
  r[K2] = 3e7;
  r[K3] = 1e4;
  r[Y2_LOW] = -2e-5;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t;
  (void)message;
  r[DER_Y1] = -r[K1] * r[Y1] + r[K3] * r[Y2] * r[Y3];
  r[DER_Y3] = r[K2] * r[Y2] * r[Y2];
  r[DER_Y2] = -r[DER_Y1] - r[DER_Y3];
  r[Y2_LOW] = r[Y2] - 2e-5;
  return 0;
}
static void indicators(double t, const double* r, double* z) {
  (void)t;
  z[0] = r[Y2] - 2e-5;
}
static void jacobian(double t, const double* r, double* j) {
  (void)t;
  j[0] = -r[K1], j[1] = r[K3] * r[Y3], j[2] = r[K3] * r[Y2];
  j[6] = 0.0, j[7] = 2.0 * r[K2] * r[Y2], j[8] = 0.0;
  j[3] = -j[0] - j[6], j[4] = -j[1] - j[7], j[5] = -j[2] - j[8];
}

const ModelSpec model_spec = {"{5d0b7c61-2f4e-4b8a-9c3e-7a1d2e4f6b80}", N_REALS, 3, 1, states, derivatives,
                              start, derivatives_of, indicators, 0, jacobian, 0, 0};
