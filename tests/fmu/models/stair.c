/* A counter without continuous states, as the Reference FMUs' Stair: `counter` starts at
   1 and steps up by one at t = 1, 2, 3, ... (time events from nextEventTime); when it
   would pass `last` the model asks to terminate instead. Nothing to integrate: the
   importer must still move time through its events and output points. */
#include "../framework/model_core.h"

enum { COUNTER, LAST, N_REALS };

static void start(double* r) {
  r[COUNTER] = 1.0;
  r[LAST] = 1e9;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t, (void)r, (void)message;
  return 0;
}
static void update(double t, double* r, int initial, EventOutcome* out) {
  if (!initial && t >= r[COUNTER] - 1e-9) {  /* the event at t = counter */
    if (r[COUNTER] + 1.0 > r[LAST]) {
      out->terminate = 1;
      return;
    }
    r[COUNTER] += 1.0;
  }
  out->next_time_defined = 1;
  out->next_time = r[COUNTER];
}

const ModelSpec model_spec = {"{0b1c7a35-86a2-4f7e-9d1c-3e5f2a4b6c71}", N_REALS, 0, 0, 0, 0,
                              start, derivatives_of, 0, update, 0, 0, 0};
