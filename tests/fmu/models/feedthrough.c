/* Inputs straight to outputs, without continuous states, as the Reference FMUs'
   Feedthrough: a continuous real, a discrete real, an integer and a boolean input, each
   copied to its output. The importer sets the continuous input at every evaluation and
   the discrete ones only in event mode, at the times their signals change. */
#include "../framework/model_core.h"

enum { REAL_C_IN, REAL_C_OUT, REAL_D_IN, REAL_D_OUT, INT_IN, INT_OUT, BOOL_IN, BOOL_OUT, N_REALS };

static void start(double* r) {
  for (int i = 0; i < N_REALS; ++i) r[i] = 0.0;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t, (void)message;
  r[REAL_C_OUT] = r[REAL_C_IN];
  r[REAL_D_OUT] = r[REAL_D_IN];
  r[INT_OUT] = r[INT_IN];
  r[BOOL_OUT] = r[BOOL_IN];
  return 0;
}

const ModelSpec model_spec = {"{6e2f1d84-3b7a-4c59-a0e8-51d9c2b7f364}", N_REALS, 0, 0, 0, 0,
                              start, derivatives_of, 0, 0, 0, 0, 0};
