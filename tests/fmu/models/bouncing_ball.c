/* A ball dropped from height h0 bouncing with restitution e: h' = v, v' = -g; the event
   indicator is h, and the event (h reaching the floor while falling) sets v to -e v.
   The twin of the native problem `bouncing_ball`; its event times are in closed form. */
#include "../framework/model_core.h"

enum { H, V, DER_H, DER_V, G, E, N_REALS };

static const unsigned states[] = {H, V};
static const unsigned derivatives[] = {DER_H, DER_V};

static void start(double* r) {
  r[H] = 10.0;
  r[V] = 0.0;
  r[G] = 9.81;
  r[E] = 0.8;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t;
  (void)message;
  r[DER_H] = r[V];
  r[DER_V] = -r[G];
  return 0;
}
static void indicators(double t, const double* r, double* z) {
  (void)t;
  z[0] = r[H];
}
static void update(double t, double* r, int initial, EventOutcome* out) {
  (void)t;
  if (!initial && r[H] <= 0.0 && r[V] < 0.0) {
    r[H] = 0.0;
    r[V] = -r[E] * r[V];
    out->states_changed = 1;
  }
}
static void jacobian(double t, const double* r, double* j) {
  (void)t;
  (void)r;
  j[0] = 0.0, j[1] = 1.0;
  j[2] = 0.0, j[3] = 0.0;
}

const ModelSpec model_spec = {"{8c4e810f-3df3-4a00-8276-176fa3c9f000}", N_REALS, 2, 1, states, derivatives,
                              start, derivatives_of, indicators, update, jacobian, 0, 0};
