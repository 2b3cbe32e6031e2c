// The FMI 3.0 model-exchange interface as this importer calls it: the standard's types
// and the signatures of the functions it looks up in an FMU's binary (FMI 3.0,
// "Functional Mock-up Interface Specification", sections 2.2 and 3.2). Declared here
// from the standard's text, as types of function pointers only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace daekit::fmu::fmi3 {

using Instance = void*;
using InstanceEnvironment = void*;
using Float64 = double;
using Int32 = std::int32_t;
using Boolean = bool;
using String = const char*;
using ValueReference = std::uint32_t;

enum Status : int { OK = 0, Warning = 1, Discard = 2, Error = 3, Fatal = 4 };

using LogMessageCallback = void (*)(InstanceEnvironment env, Status status, String category, String message);

using GetVersionFn = const char* (*)();
using InstantiateModelExchangeFn = Instance (*)(String instance_name, String instantiation_token,
                                                String resource_path, Boolean visible, Boolean logging_on,
                                                InstanceEnvironment env, LogMessageCallback log_message);
using FreeInstanceFn = void (*)(Instance instance);
using EnterInitializationModeFn = Status (*)(Instance instance, Boolean tolerance_defined, Float64 tolerance,
                                             Float64 start_time, Boolean stop_time_defined, Float64 stop_time);
using InstanceFn = Status (*)(Instance instance);  // ExitInitializationMode, Terminate, Reset,
                                                   // EnterEventMode, EnterContinuousTimeMode
using SetFloat64Fn = Status (*)(Instance instance, const ValueReference vr[], std::size_t nvr,
                                const Float64 values[], std::size_t n_values);
using SetInt32Fn = Status (*)(Instance instance, const ValueReference vr[], std::size_t nvr, const Int32 values[],
                              std::size_t n_values);
using SetBooleanFn = Status (*)(Instance instance, const ValueReference vr[], std::size_t nvr,
                                const Boolean values[], std::size_t n_values);
using GetFloat64Fn = Status (*)(Instance instance, const ValueReference vr[], std::size_t nvr, Float64 values[],
                                std::size_t n_values);
using GetInt32Fn = Status (*)(Instance instance, const ValueReference vr[], std::size_t nvr, Int32 values[],
                              std::size_t n_values);
using GetBooleanFn = Status (*)(Instance instance, const ValueReference vr[], std::size_t nvr, Boolean values[],
                                std::size_t n_values);
using UpdateDiscreteStatesFn = Status (*)(Instance instance, Boolean* discrete_states_need_update,
                                          Boolean* terminate_simulation,
                                          Boolean* nominals_of_continuous_states_changed,
                                          Boolean* values_of_continuous_states_changed,
                                          Boolean* next_event_time_defined, Float64* next_event_time);
using CompletedIntegratorStepFn = Status (*)(Instance instance, Boolean no_set_fmu_state_prior_to_current_point,
                                             Boolean* enter_event_mode, Boolean* terminate_simulation);
using SetTimeFn = Status (*)(Instance instance, Float64 time);
using SetContinuousStatesFn = Status (*)(Instance instance, const Float64 x[], std::size_t nx);
using GetVectorFn = Status (*)(Instance instance, Float64 values[], std::size_t n);  // derivatives, event
                                                                                     // indicators, states
using GetDirectionalDerivativeFn = Status (*)(Instance instance, const ValueReference unknowns[],
                                              std::size_t n_unknowns, const ValueReference knowns[],
                                              std::size_t n_knowns, const Float64 seed[], std::size_t n_seed,
                                              Float64 sensitivity[], std::size_t n_sensitivity);

}  // namespace daekit::fmu::fmi3
