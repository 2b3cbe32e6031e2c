/* A stiff reaction chain A -> B -> C (rates k1, k2 >> k1) whose feed of A is switched on
   at t_on: a time event (nextEventTime). The twin of the native problem `feed_reactor`,
   whose solution is in closed form. Two more parameters exercise
   completedIntegratorStep: when C exceeds stop_above the model asks to terminate, when
   it exceeds feed_off_above it asks for an event in which the feed is switched off. */
#include "../framework/model_core.h"

enum { A, B, C, DER_A, DER_B, DER_C, K1, K2, FEED, T_ON, FEED_ON, STOP_ABOVE, FEED_OFF_ABOVE, SWITCHED_OFF, N_REALS };

static const unsigned states[] = {A, B, C};
static const unsigned derivatives[] = {DER_A, DER_B, DER_C};

static void start(double* r) {
  r[A] = 1.0;
  r[B] = 0.0;
  r[C] = 0.0;
  r[K1] = 1.0;
  r[K2] = 1e4;
  r[FEED] = 2.0;
  r[T_ON] = 10.0;
  r[FEED_ON] = 0.0;
  r[STOP_ABOVE] = 1e300;
  r[FEED_OFF_ABOVE] = 1e300;
  r[SWITCHED_OFF] = 0.0;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t;
  (void)message;
  r[DER_A] = r[FEED_ON] * r[FEED] - r[K1] * r[A];
  r[DER_B] = r[K1] * r[A] - r[K2] * r[B];
  r[DER_C] = r[K2] * r[B];
  return 0;
}
static void update(double t, double* r, int initial, EventOutcome* out) {
  (void)initial;
  if (r[SWITCHED_OFF] == 0.0 && r[C] > r[FEED_OFF_ABOVE]) {
    r[SWITCHED_OFF] = 1.0;
    r[FEED_ON] = 0.0;
  } else if (r[SWITCHED_OFF] == 0.0) {
    r[FEED_ON] = t >= r[T_ON] ? 1.0 : 0.0;
  }
  if (r[FEED_ON] == 0.0 && r[SWITCHED_OFF] == 0.0 && t < r[T_ON]) {
    out->next_time_defined = 1;
    out->next_time = r[T_ON];
  }
}
static void jacobian(double t, const double* r, double* j) {
  (void)t;
  j[0] = -r[K1], j[1] = 0.0, j[2] = 0.0;
  j[3] = r[K1], j[4] = -r[K2], j[5] = 0.0;
  j[6] = 0.0, j[7] = r[K2], j[8] = 0.0;
}
static void completed_step(double t, double* r, int* enter_event_mode, int* terminate) {
  (void)t;
  if (r[C] > r[STOP_ABOVE]) *terminate = 1;
  if (r[SWITCHED_OFF] == 0.0 && r[C] > r[FEED_OFF_ABOVE]) *enter_event_mode = 1;
}

const ModelSpec model_spec = {"{5d7a3a52-1b84-4c1e-bb0c-0c3f3a9f7e02}", N_REALS, 3, 0, states, derivatives,
                              start, derivatives_of, 0, update, jacobian, completed_step, 0};
