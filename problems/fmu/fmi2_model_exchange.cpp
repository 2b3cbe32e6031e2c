// FMI 2.0 model exchange behind ModelExchange.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "fmi2_api.hpp"
#include "model_exchange.hpp"

namespace daekit::fmu::detail {
namespace {

class Fmi2ModelExchange : public ModelExchange {
 public:
  Fmi2ModelExchange(const ModelDescription& md, const std::filesystem::path& folder, LogSink log)
      : ModelExchange(md, folder, std::move(log)) {
    instantiate_ = function<fmi2::InstantiateFn>("fmi2Instantiate");
    free_instance_ = function<fmi2::FreeInstanceFn>("fmi2FreeInstance");
    setup_experiment_ = function<fmi2::SetupExperimentFn>("fmi2SetupExperiment");
    enter_initialization_ = function<fmi2::ComponentFn>("fmi2EnterInitializationMode");
    exit_initialization_ = function<fmi2::ComponentFn>("fmi2ExitInitializationMode");
    terminate_ = function<fmi2::ComponentFn>("fmi2Terminate");
    reset_ = function<fmi2::ComponentFn>("fmi2Reset");
    set_real_ = function<fmi2::SetRealFn>("fmi2SetReal");
    set_integer_ = function<fmi2::SetIntegerFn>("fmi2SetInteger");
    set_boolean_ = function<fmi2::SetBooleanFn>("fmi2SetBoolean");
    enter_event_mode_ = function<fmi2::ComponentFn>("fmi2EnterEventMode");
    new_discrete_states_ = function<fmi2::NewDiscreteStatesFn>("fmi2NewDiscreteStates");
    enter_continuous_ = function<fmi2::ComponentFn>("fmi2EnterContinuousTimeMode");
    completed_step_ = function<fmi2::CompletedIntegratorStepFn>("fmi2CompletedIntegratorStep");
    set_time_ = function<fmi2::SetTimeFn>("fmi2SetTime");
    set_states_ = function<fmi2::SetContinuousStatesFn>("fmi2SetContinuousStates");
    get_states_ = function<fmi2::GetVectorFn>("fmi2GetContinuousStates");
    get_derivatives_ = function<fmi2::GetVectorFn>("fmi2GetDerivatives");
    get_indicators_ = function<fmi2::GetVectorFn>("fmi2GetEventIndicators");
    if (md.directional_derivatives)
      directional_ = function<fmi2::GetDirectionalDerivativeFn>("fmi2GetDirectionalDerivative");
    // Read only for --output-vars: an FMU without them runs, and says so when asked.
    get_real_ = optional_function<fmi2::GetRealFn>("fmi2GetReal");
    get_integer_ = optional_function<fmi2::GetIntegerFn>("fmi2GetInteger");
    get_boolean_ = optional_function<fmi2::GetBooleanFn>("fmi2GetBoolean");

    callbacks_.logger = &Fmi2ModelExchange::logger;
    callbacks_.allocate_memory = [](std::size_t nobj, std::size_t size) { return std::calloc(nobj, size); };
    callbacks_.free_memory = [](void* obj) { std::free(obj); };
    callbacks_.step_finished = nullptr;
    callbacks_.component_environment = this;
    const std::string resource_uri = "file://" + resources_.string();
    component_ = instantiate_(instance_name_.c_str(), fmi2::ModelExchange, md.token.c_str(), resource_uri.c_str(),
                              &callbacks_, 0, 1);
    if (!component_) {
      std::string why = "the FMU refused to instantiate (fmi2Instantiate returned NULL)";
      if (!last_logged_error().empty()) why += ": " + last_logged_error();
      throw std::runtime_error(why);
    }
  }

  ~Fmi2ModelExchange() override {
    if (!component_ || dead()) return;  // after fmi2Fatal no call is allowed, not even these
    if (initialised_) terminate_(component_);
    free_instance_(component_);
  }

  Result set_real(std::uint32_t vr, double value) override {
    const fmi2::ValueReference r = vr;
    return call([&] { return set_real_(component_, &r, 1, &value); }, "fmi2SetReal");
  }
  Result set_integer(std::uint32_t vr, int value) override {
    const fmi2::ValueReference r = vr;
    return call([&] { return set_integer_(component_, &r, 1, &value); }, "fmi2SetInteger");
  }
  Result set_boolean(std::uint32_t vr, bool value) override {
    const fmi2::ValueReference r = vr;
    const fmi2::Boolean b = value ? 1 : 0;
    return call([&] { return set_boolean_(component_, &r, 1, &b); }, "fmi2SetBoolean");
  }
  Result initialise(double t0) override {
    if (dead()) return Result::error;
    if (const Result r = check(setup_experiment_(component_, 0, 0.0, t0, 0, 0.0), "fmi2SetupExperiment");
        r != Result::ok)
      return r;
    if (const Result r = check(enter_initialization_(component_), "fmi2EnterInitializationMode"); r != Result::ok)
      return r;
    initialised_ = true;
    return check(exit_initialization_(component_), "fmi2ExitInitializationMode");
  }
  Result enter_event_mode() override { return call([&] { return enter_event_mode_(component_); }, "fmi2EnterEventMode"); }
  Result update_discrete_states(DiscreteUpdate* update) override {
    if (dead()) return Result::error;
    fmi2::EventInfo info{};
    const Result r = check(new_discrete_states_(component_, &info), "fmi2NewDiscreteStates");
    update->again = info.new_discrete_states_needed != 0;
    update->terminate = info.terminate_simulation != 0;
    update->states_changed = info.values_of_continuous_states_changed != 0;
    update->next_time_defined = info.next_event_time_defined != 0;
    update->next_time = info.next_event_time;
    return r;
  }
  Result enter_continuous_time_mode() override {
    return call([&] { return enter_continuous_(component_); }, "fmi2EnterContinuousTimeMode");
  }
  Result completed_integrator_step(bool* enter_event_mode, bool* terminate) override {
    if (dead()) return Result::error;
    fmi2::Boolean enter = 0, stop = 0;
    const Result r = check(completed_step_(component_, 1, &enter, &stop), "fmi2CompletedIntegratorStep");
    *enter_event_mode = enter != 0;
    *terminate = stop != 0;
    return r;
  }
  Result set_time(double t) override { return call([&] { return set_time_(component_, t); }, "fmi2SetTime"); }
  Result set_states(const double* x, std::size_t n) override {
    if (n == 0) return Result::ok;  // a model without states or indicators is not asked for them
    return call([&] { return set_states_(component_, x, n); }, "fmi2SetContinuousStates");
  }
  Result get_states(double* x, std::size_t n) override {
    if (n == 0) return Result::ok;
    return call([&] { return get_states_(component_, x, n); }, "fmi2GetContinuousStates");
  }
  Result get_derivatives(double* dx, std::size_t n) override {
    if (n == 0) return Result::ok;
    return call([&] { return get_derivatives_(component_, dx, n); }, "fmi2GetDerivatives");
  }
  Result get_event_indicators(double* g, std::size_t n) override {
    if (n == 0) return Result::ok;
    return call([&] { return get_indicators_(component_, g, n); }, "fmi2GetEventIndicators");
  }
  Result get_value(const Variable& v, double* value, std::size_t /*element: FMI 2.0 has no arrays*/) override {
    const fmi2::ValueReference r = v.value_reference;
    switch (v.type) {
      case Variable::Type::real:
        if (!get_real_) return missing("fmi2GetReal");
        return call([&] { return get_real_(component_, &r, 1, value); }, "fmi2GetReal");
      case Variable::Type::integer: {
        if (!get_integer_) return missing("fmi2GetInteger");
        fmi2::Integer i = 0;
        const Result result = call([&] { return get_integer_(component_, &r, 1, &i); }, "fmi2GetInteger");
        *value = i;
        return result;
      }
      case Variable::Type::boolean: {
        if (!get_boolean_) return missing("fmi2GetBoolean");
        fmi2::Boolean b = 0;
        const Result result = call([&] { return get_boolean_(component_, &r, 1, &b); }, "fmi2GetBoolean");
        *value = b ? 1.0 : 0.0;
        return result;
      }
      case Variable::Type::other: break;
    }
    return missing(("a getter for type " + v.type_name).c_str());
  }
  Result directional_derivative(const std::uint32_t* unknowns, std::size_t n_unknowns, const std::uint32_t* knowns,
                                std::size_t n_knowns, const double* seed, double* sensitivity) override {
    if (!directional_) return Result::error;
    static_assert(sizeof(fmi2::ValueReference) == sizeof(std::uint32_t));
    return call([&] { return directional_(component_, reinterpret_cast<const fmi2::ValueReference*>(unknowns), n_unknowns,
                             reinterpret_cast<const fmi2::ValueReference*>(knowns), n_knowns, seed, sensitivity); },
                "fmi2GetDirectionalDerivative");
  }
  Result reset() override {
    if (dead()) return Result::error;
    initialised_ = false;
    return check(reset_(component_), "fmi2Reset");
  }

 private:
  // An FMI call, unless an earlier one ended in fmi2Fatal.
  template <class Call>
  Result call(Call&& fmi_call, const char* function) {
    return dead() ? Result::error : check(fmi_call(), function);
  }

  // The standard's logger: a printf format and its arguments.
  static void logger(fmi2::ComponentEnvironment env, fmi2::String, fmi2::Status status, fmi2::String category,
                     fmi2::String message, ...) {
    if (!env || !message) return;
    char buffer[2048];
    va_list args;
    va_start(args, message);
    std::vsnprintf(buffer, sizeof buffer, message, args);
    va_end(args);
    static_cast<Fmi2ModelExchange*>(env)->logged(status, category, buffer);
  }

  fmi2::CallbackFunctions callbacks_{};
  fmi2::Component component_ = nullptr;
  bool initialised_ = false;
  fmi2::InstantiateFn instantiate_ = nullptr;
  fmi2::FreeInstanceFn free_instance_ = nullptr;
  fmi2::SetupExperimentFn setup_experiment_ = nullptr;
  fmi2::ComponentFn enter_initialization_ = nullptr, exit_initialization_ = nullptr, terminate_ = nullptr,
                    reset_ = nullptr, enter_event_mode_ = nullptr, enter_continuous_ = nullptr;
  fmi2::SetRealFn set_real_ = nullptr;
  fmi2::SetIntegerFn set_integer_ = nullptr;
  fmi2::SetBooleanFn set_boolean_ = nullptr;
  fmi2::NewDiscreteStatesFn new_discrete_states_ = nullptr;
  fmi2::CompletedIntegratorStepFn completed_step_ = nullptr;
  fmi2::SetTimeFn set_time_ = nullptr;
  fmi2::SetContinuousStatesFn set_states_ = nullptr;
  fmi2::GetVectorFn get_states_ = nullptr, get_derivatives_ = nullptr, get_indicators_ = nullptr;
  fmi2::GetDirectionalDerivativeFn directional_ = nullptr;
  fmi2::GetRealFn get_real_ = nullptr;
  fmi2::GetIntegerFn get_integer_ = nullptr;
  fmi2::GetBooleanFn get_boolean_ = nullptr;
};

}  // namespace

std::unique_ptr<ModelExchange> open_fmi2(const ModelDescription& md, const std::filesystem::path& folder, LogSink log) {
  return std::make_unique<Fmi2ModelExchange>(md, folder, std::move(log));
}

}  // namespace daekit::fmu::detail
