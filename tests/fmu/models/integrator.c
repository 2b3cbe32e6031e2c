/* x' = gain u: a continuous input u integrated, scaled by a discrete input gain. Driven
   by a piecewise-linear u and a stepped gain its solution is piecewise quadratic, in
   closed form: how an importer interpolates inputs, where it puts their events, is
   measured to the tolerance. */
#include "../framework/model_core.h"

enum { X, DER_X, U, GAIN, N_REALS };

static const unsigned states[] = {X};
static const unsigned derivatives[] = {DER_X};

static void start(double* r) {
  r[X] = 0.0;
  r[DER_X] = 0.0;
  r[U] = 0.0;
  r[GAIN] = 1.0;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t, (void)message;
  r[DER_X] = r[GAIN] * r[U];
  return 0;
}
static void jacobian(double t, const double* r, double* j) {
  (void)t, (void)r;
  j[0] = 0.0;
}

const ModelSpec model_spec = {"{9a4d2c17-5e8b-4f03-b6a1-2c7e9f0d8b45}", N_REALS, 1, 0, states, derivatives,
                              start, derivatives_of, 0, 0, jacobian, 0, 0};
