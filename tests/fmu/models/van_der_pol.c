/* Van der Pol's oscillator in the test set's scaled form: y1' = y2,
   y2' = ((1 - y1^2) y2 - y1) / eps; the twin of the native problem `vdpol`. Directional
   derivatives from the exact Jacobian. The parameter fail_after makes the derivatives
   fail (fmiError, with a log line) beyond that time: a test of an FMU that fails. Built with
   WRONG_DIRECTIONAL_DERIVATIVES, dy2'/dy2 is off by a factor 1e-3 (as the Reference FMU
   Roberts' 0.04 where differences give 90.97): a test of the run-time derivative check. */
#include "../framework/model_core.h"

enum { Y1, Y2, DER_Y1, DER_Y2, EPS, FAIL_AFTER, N_REALS };

static const unsigned states[] = {Y1, Y2};
static const unsigned derivatives[] = {DER_Y1, DER_Y2};

static void start(double* r) {
  r[Y1] = 2.0;
  r[Y2] = 0.0;
  r[EPS] = 1e-6;
  r[FAIL_AFTER] = 1e300;
}
static int derivatives_of(double t, double* r, const char** message) {
  if (t > r[FAIL_AFTER]) {
    *message = "the model gives up beyond fail_after (a test of an FMU that fails)";
    return 1;
  }
  r[DER_Y1] = r[Y2];
  r[DER_Y2] = ((1.0 - r[Y1] * r[Y1]) * r[Y2] - r[Y1]) / r[EPS];
  return 0;
}
static void jacobian(double t, const double* r, double* j) {
  (void)t;
  j[0] = 0.0;
  j[1] = 1.0;
  j[2] = (-2.0 * r[Y1] * r[Y2] - 1.0) / r[EPS];
  j[3] = (1.0 - r[Y1] * r[Y1]) / r[EPS];
#ifdef WRONG_DIRECTIONAL_DERIVATIVES
  j[3] *= 1e-3;
#endif
}

const ModelSpec model_spec = {"{1f1c5a1e-6b0e-4d53-9a8e-5e2a8a0f0b01}", N_REALS, 2, 0, states, derivatives,
                              start, derivatives_of, 0, 0, jacobian, 0, 0};
