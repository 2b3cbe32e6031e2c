/* The FMI 2.0 model-exchange functions of a test FMU over model_core (types declared here
   from the FMI 2.0 standard's text; only what a model-exchange importer calls). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_core.h"

typedef void* fmi2Component;
typedef void* fmi2ComponentEnvironment;
typedef int fmi2Boolean;
typedef int fmi2Integer;
typedef unsigned int fmi2ValueReference;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef struct {
  void (*logger)(fmi2ComponentEnvironment, const char*, fmi2Status, const char*, const char*, ...);
  void* (*allocateMemory)(size_t, size_t);
  void (*freeMemory)(void*);
  void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
  fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;
typedef struct {
  fmi2Boolean newDiscreteStatesNeeded, terminateSimulation, nominalsOfContinuousStatesChanged,
      valuesOfContinuousStatesChanged, nextEventTimeDefined;
  double nextEventTime;
} fmi2EventInfo;

#define EXPORT __attribute__((visibility("default")))

typedef struct {
  Instance core;
  fmi2CallbackFunctions callbacks;
} Fmi2Instance;

static void log_fmi2(Instance* self, int status, const char* category, const char* message) {
  Fmi2Instance* inst = (Fmi2Instance*)self;
  if (!self->logging && status < fmi2Error) return;
  if (inst->callbacks.logger)
    inst->callbacks.logger(inst->callbacks.componentEnvironment, self->name, (fmi2Status)status, category, "%s",
                           message);
}

static fmi2Status done(int failed) { return failed ? fmi2Error : fmi2OK; }

EXPORT const char* fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char* fmi2GetVersion(void) { return "2.0"; }

EXPORT fmi2Component fmi2Instantiate(const char* name, fmi2Type type, const char* guid, const char* resources,
                                     const fmi2CallbackFunctions* functions, fmi2Boolean visible,
                                     fmi2Boolean logging) {
  (void)resources;
  (void)visible;
  if (!functions || type != fmi2ModelExchange) return NULL;
  if (!guid || strcmp(guid, model_spec.token) != 0) {
    if (functions->logger)
      functions->logger(functions->componentEnvironment, name, fmi2Error, "logStatusError",
                        "the guid '%s' does not match this binary's", guid ? guid : "(null)");
    return NULL;
  }
  Fmi2Instance* inst = (Fmi2Instance*)calloc(1, sizeof(Fmi2Instance));
  if (!inst) return NULL;
  inst->callbacks = *functions;
  inst->core.name = name;
  inst->core.logging = logging;
  inst->core.log = log_fmi2;
  core_reset(&inst->core);
  log_fmi2(&inst->core, fmi2OK, "logEvents", "instantiated");
  return inst;
}

EXPORT void fmi2FreeInstance(fmi2Component c) { free(c); }
EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const char* const categories[]) {
  (void)n;
  (void)categories;
  ((Instance*)c)->logging = on;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tol_defined, double tol, double start,
                                      fmi2Boolean stop_defined, double stop) {
  (void)tol_defined;
  (void)tol;
  (void)stop_defined;
  (void)stop;
  ((Instance*)c)->time = start;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  ((Instance*)c)->initial_update = 1;
  log_fmi2((Instance*)c, fmi2OK, "logEvents", "initialised");
  return fmi2OK;
}
EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
  (void)c;
  return fmi2OK;
}
EXPORT fmi2Status fmi2Reset(fmi2Component c) {
  core_reset((Instance*)c);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, double value[]) {
  return core_get_elements((Instance*)c, vr, n, value, n) == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const double value[]) {
  return core_set_elements((Instance*)c, vr, n, value, n) == 0 ? fmi2OK : fmi2Error;
}
/* Integers and booleans live in the same table as doubles. */
#define FMI2_CONVERTED(NAME, TYPE, TO_DOUBLE, FROM_DOUBLE)                                                  \
  EXPORT fmi2Status fmi2Get##NAME(fmi2Component c, const fmi2ValueReference vr[], size_t n, TYPE value[]) { \
    double v[MAX_REALS];                                                                                   \
    if (n > MAX_REALS || core_get_elements((Instance*)c, vr, n, v, n) != 0) return fmi2Error;                   \
    for (size_t i = 0; i < n; ++i) value[i] = FROM_DOUBLE(v[i]);                                           \
    return fmi2OK;                                                                                         \
  }                                                                                                        \
  EXPORT fmi2Status fmi2Set##NAME(fmi2Component c, const fmi2ValueReference vr[], size_t n,                \
                                  const TYPE value[]) {                                                   \
    double v[MAX_REALS];                                                                                   \
    if (n > MAX_REALS) return fmi2Error;                                                                   \
    for (size_t i = 0; i < n; ++i) v[i] = TO_DOUBLE(value[i]);                                             \
    return core_set_elements((Instance*)c, vr, n, v, n) == 0 ? fmi2OK : fmi2Error;                               \
  }
#define AS_DOUBLE(x) ((double)(x))
#define AS_INTEGER(x) ((fmi2Integer)(x))
#define AS_BOOLEAN(x) ((fmi2Boolean)((x) != 0.0))
FMI2_CONVERTED(Integer, fmi2Integer, AS_DOUBLE, AS_INTEGER)
FMI2_CONVERTED(Boolean, fmi2Boolean, AS_DOUBLE, AS_BOOLEAN)

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}
EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  Instance* self = (Instance*)c;
  EventOutcome out;
  core_update(self, self->initial_update, &out);
  self->initial_update = 0;
  info->newDiscreteStatesNeeded = 0;
  info->terminateSimulation = out.terminate;
  info->nominalsOfContinuousStatesChanged = 0;
  info->valuesOfContinuousStatesChanged = out.states_changed;
  info->nextEventTimeDefined = out.next_time_defined;
  info->nextEventTime = out.next_time;
  if (out.states_changed) log_fmi2(self, fmi2OK, "logEvents", "event: states changed");
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  (void)c;
  return fmi2OK;
}
EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_set_prior, fmi2Boolean* enter_event,
                                              fmi2Boolean* terminate) {
  (void)no_set_prior;
  int enter = 0, stop = 0;
  core_completed_step((Instance*)c, &enter, &stop);
  *enter_event = enter;
  *terminate = stop;
  if (stop) log_fmi2((Instance*)c, fmi2OK, "logEvents", "the model asks to terminate");
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetTime(fmi2Component c, double t) {
  ((Instance*)c)->time = t;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const double x[], size_t n) {
  Instance* self = (Instance*)c;
  if (n != model_spec.n_states) return fmi2Error;
  for (size_t i = 0; i < n; ++i) self->r[model_spec.states[i]] = x[i];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, double x[], size_t n) {
  Instance* self = (Instance*)c;
  if (n != model_spec.n_states) return fmi2Error;
  for (size_t i = 0; i < n; ++i) x[i] = self->r[model_spec.states[i]];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, double x[], size_t n) {
  (void)c;
  for (size_t i = 0; i < n; ++i) x[i] = 1.0;
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, double dx[], size_t n) {
  return done(core_derivatives((Instance*)c, dx, n));
}
EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, double z[], size_t n) {
  return done(core_indicators((Instance*)c, z, n));
}
EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference unknowns[], size_t nu,
                                               const fmi2ValueReference knowns[], size_t nk, const double seed[],
                                               double out[]) {
  return done(core_directional((Instance*)c, unknowns, nu, knowns, nk, seed, out));
}
