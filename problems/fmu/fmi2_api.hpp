// The FMI 2.0 model-exchange interface as this importer calls it: the standard's types
// and the signatures of the functions it looks up in an FMU's binary (FMI 2.0.x,
// "Functional Mock-up Interface for Model Exchange and Co-Simulation", sections 2.1 and
// 3.2). Declared here from the standard's text, as types of function pointers only: an
// FMU's functions are found by name at run time, never linked.
#pragma once

#include <cstddef>

namespace daekit::fmu::fmi2 {

using Component = void*;
using ComponentEnvironment = void*;
using Real = double;
using Integer = int;
using Boolean = int;  // fmi2True = 1, fmi2False = 0
using String = const char*;
using ValueReference = unsigned int;

enum Status : int { OK = 0, Warning = 1, Discard = 2, Error = 3, Fatal = 4, Pending = 5 };
enum Type : int { ModelExchange = 0, CoSimulation = 1 };

using Logger = void (*)(ComponentEnvironment env, String instance_name, Status status, String category,
                        String message, ...);
struct CallbackFunctions {
  Logger logger;
  void* (*allocate_memory)(std::size_t nobj, std::size_t size);
  void (*free_memory)(void* obj);
  void (*step_finished)(ComponentEnvironment env, Status status);
  ComponentEnvironment component_environment;
};

struct EventInfo {
  Boolean new_discrete_states_needed;
  Boolean terminate_simulation;
  Boolean nominals_of_continuous_states_changed;
  Boolean values_of_continuous_states_changed;
  Boolean next_event_time_defined;
  Real next_event_time;
};

using GetVersionFn = const char* (*)();
using InstantiateFn = Component (*)(String instance_name, Type type, String guid, String resource_location,
                                    const CallbackFunctions* functions, Boolean visible, Boolean logging_on);
using FreeInstanceFn = void (*)(Component c);
using SetupExperimentFn = Status (*)(Component c, Boolean tolerance_defined, Real tolerance, Real start_time,
                                     Boolean stop_time_defined, Real stop_time);
using ComponentFn = Status (*)(Component c);  // Enter/ExitInitializationMode, Terminate, Reset,
                                              // EnterEventMode, EnterContinuousTimeMode
using SetRealFn = Status (*)(Component c, const ValueReference vr[], std::size_t nvr, const Real value[]);
using SetIntegerFn = Status (*)(Component c, const ValueReference vr[], std::size_t nvr, const Integer value[]);
using SetBooleanFn = Status (*)(Component c, const ValueReference vr[], std::size_t nvr, const Boolean value[]);
using GetRealFn = Status (*)(Component c, const ValueReference vr[], std::size_t nvr, Real value[]);
using GetIntegerFn = Status (*)(Component c, const ValueReference vr[], std::size_t nvr, Integer value[]);
using GetBooleanFn = Status (*)(Component c, const ValueReference vr[], std::size_t nvr, Boolean value[]);
using NewDiscreteStatesFn = Status (*)(Component c, EventInfo* info);
using CompletedIntegratorStepFn = Status (*)(Component c, Boolean no_set_fmu_state_prior_to_current_point,
                                             Boolean* enter_event_mode, Boolean* terminate_simulation);
using SetTimeFn = Status (*)(Component c, Real time);
using SetContinuousStatesFn = Status (*)(Component c, const Real x[], std::size_t nx);
using GetVectorFn = Status (*)(Component c, Real values[], std::size_t n);  // derivatives, event
                                                                           // indicators, states
using GetDirectionalDerivativeFn = Status (*)(Component c, const ValueReference unknowns[], std::size_t n_unknowns,
                                              const ValueReference knowns[], std::size_t n_knowns,
                                              const Real dv_known[], Real dv_unknown[]);

}  // namespace daekit::fmu::fmi2
