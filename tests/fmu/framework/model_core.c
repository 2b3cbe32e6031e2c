#include "model_core.h"

#include <string.h>

void core_reset(Instance* self) {
  memset(self->r, 0, sizeof self->r);
  model_spec.start(self->r);
  self->time = 0.0;
}

int core_valid_reference(const Instance* self, unsigned vr) {
  (void)self;
  return vr < model_spec.n_reals;
}

/* The derivatives and the locals beside them from the current time and states; non-zero
   (logged) when the model fails. */
static int update_derivatives(Instance* self) {
  const char* message = "derivatives failed";
  if (model_spec.derivatives_of(self->time, self->r, &message) == 0) return 0;
  self->log(self, 3, "logStatusError", message);
  return 1;
}

int core_derivatives(Instance* self, double* dx, size_t n) {
  if (n != model_spec.n_states) {
    self->log(self, 3, "logStatusError", "wrong number of states asked for");
    return 1;
  }
  if (update_derivatives(self) != 0) return 1;
  for (size_t i = 0; i < n; ++i) dx[i] = self->r[model_spec.derivatives[i]];
  return 0;
}

static size_t slots(unsigned vr) { return model_spec.sizes ? model_spec.sizes[vr] : 1; }

/* The slots the variables hold in all, or 0 (logged) when a reference is unknown. */
static size_t count_elements(Instance* self, const unsigned* vr, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!core_valid_reference(self, vr[i]) || vr[i] + slots(vr[i]) > model_spec.n_reals) {
      self->log(self, 3, "logStatusError", "unknown value reference");
      return 0;
    }
    total += slots(vr[i]);
  }
  return total;
}

int core_get_elements(Instance* self, const unsigned* vr, size_t n, double* value, size_t n_values) {
  /* As a generated FMU does, the getters see values computed from the current time and
     states: the derivatives (and the locals beside them) are brought up to date first. */
  if (count_elements(self, vr, n) != n_values) {
    self->log(self, 3, "logStatusError", "nValues is not the number of the variables' elements");
    return 1;
  }
  if (update_derivatives(self) != 0) return 1;
  for (size_t i = 0, k = 0; i < n; ++i)
    for (size_t e = 0; e < slots(vr[i]); ++e) value[k++] = self->r[vr[i] + e];
  return 0;
}

int core_set_elements(Instance* self, const unsigned* vr, size_t n, const double* value, size_t n_values) {
  if (count_elements(self, vr, n) != n_values) {
    self->log(self, 3, "logStatusError", "nValues is not the number of the variables' elements");
    return 1;
  }
  for (size_t i = 0, k = 0; i < n; ++i)
    for (size_t e = 0; e < slots(vr[i]); ++e) self->r[vr[i] + e] = value[k++];
  return 0;
}

int core_indicators(Instance* self, double* z, size_t n) {
  if (n != model_spec.n_indicators) {
    self->log(self, 3, "logStatusError", "wrong number of event indicators asked for");
    return 1;
  }
  if (n > 0) model_spec.indicators(self->time, self->r, z);
  return 0;
}

void core_update(Instance* self, int initial, EventOutcome* out) {
  memset(out, 0, sizeof *out);
  if (model_spec.update) model_spec.update(self->time, self->r, initial, out);
}

static int state_position(unsigned vr) {
  for (size_t i = 0; i < model_spec.n_states; ++i)
    if (model_spec.states[i] == vr) return (int)i;
  return -1;
}

static int derivative_position(unsigned vr) {
  for (size_t i = 0; i < model_spec.n_states; ++i)
    if (model_spec.derivatives[i] == vr) return (int)i;
  return -1;
}

int core_directional(Instance* self, const unsigned* unknowns, size_t nu, const unsigned* knowns, size_t nk,
                     const double* seed, double* out) {
  double j[MAX_REALS * MAX_REALS];
  const size_t n = model_spec.n_states;
  if (!model_spec.jacobian) {
    self->log(self, 3, "logStatusError", "no directional derivatives");
    return 1;
  }
  model_spec.jacobian(self->time, self->r, j);
  for (size_t a = 0; a < nu; ++a) {
    const int row = derivative_position(unknowns[a]);
    if (row < 0) {
      self->log(self, 3, "logStatusError", "directional derivative of a variable that is not a derivative");
      return 1;
    }
    out[a] = 0.0;
    for (size_t b = 0; b < nk; ++b) {
      const int col = state_position(knowns[b]);
      if (col < 0) {
        self->log(self, 3, "logStatusError", "directional derivative with respect to a variable that is not a state");
        return 1;
      }
      out[a] += j[(size_t)row * n + (size_t)col] * seed[b];
    }
  }
  return 0;
}

void core_completed_step(Instance* self, int* enter_event_mode, int* terminate) {
  *enter_event_mode = 0;
  *terminate = 0;
  if (model_spec.completed_step) model_spec.completed_step(self->time, self->r, enter_event_mode, terminate);
}
