// FMI 3.0 model exchange behind ModelExchange.
#include <stdexcept>
#include <vector>

#include "fmi3_api.hpp"
#include "model_exchange.hpp"

namespace daekit::fmu::detail {
namespace {

class Fmi3ModelExchange : public ModelExchange {
 public:
  Fmi3ModelExchange(const ModelDescription& md, const std::filesystem::path& folder, LogSink log)
      : ModelExchange(md, folder, std::move(log)) {
    auto instantiate = function<fmi3::InstantiateModelExchangeFn>("fmi3InstantiateModelExchange");
    free_instance_ = function<fmi3::FreeInstanceFn>("fmi3FreeInstance");
    enter_initialization_ = function<fmi3::EnterInitializationModeFn>("fmi3EnterInitializationMode");
    exit_initialization_ = function<fmi3::InstanceFn>("fmi3ExitInitializationMode");
    terminate_ = function<fmi3::InstanceFn>("fmi3Terminate");
    reset_ = function<fmi3::InstanceFn>("fmi3Reset");
    set_float64_ = function<fmi3::SetFloat64Fn>("fmi3SetFloat64");
    set_int32_ = function<fmi3::SetInt32Fn>("fmi3SetInt32");
    set_boolean_ = function<fmi3::SetBooleanFn>("fmi3SetBoolean");
    enter_event_mode_ = function<fmi3::InstanceFn>("fmi3EnterEventMode");
    update_discrete_states_ = function<fmi3::UpdateDiscreteStatesFn>("fmi3UpdateDiscreteStates");
    enter_continuous_ = function<fmi3::InstanceFn>("fmi3EnterContinuousTimeMode");
    completed_step_ = function<fmi3::CompletedIntegratorStepFn>("fmi3CompletedIntegratorStep");
    set_time_ = function<fmi3::SetTimeFn>("fmi3SetTime");
    set_states_ = function<fmi3::SetContinuousStatesFn>("fmi3SetContinuousStates");
    get_states_ = function<fmi3::GetVectorFn>("fmi3GetContinuousStates");
    get_derivatives_ = function<fmi3::GetVectorFn>("fmi3GetContinuousStateDerivatives");
    get_indicators_ = function<fmi3::GetVectorFn>("fmi3GetEventIndicators");
    if (md.directional_derivatives)
      directional_ = function<fmi3::GetDirectionalDerivativeFn>("fmi3GetDirectionalDerivative");
    // Read only for --output-vars: an FMU without them runs, and says so when asked.
    get_float64_ = optional_function<fmi3::GetFloat64Fn>("fmi3GetFloat64");
    get_int32_ = optional_function<fmi3::GetInt32Fn>("fmi3GetInt32");
    get_boolean_ = optional_function<fmi3::GetBooleanFn>("fmi3GetBoolean");

    const std::string resource_path = resources_.string() + "/";
    instance_ = instantiate(instance_name_.c_str(), md.token.c_str(), resource_path.c_str(), false, true, this,
                            &Fmi3ModelExchange::log_message);
    if (!instance_) {
      std::string why = "the FMU refused to instantiate (fmi3InstantiateModelExchange returned NULL)";
      if (!last_logged_error().empty()) why += ": " + last_logged_error();
      throw std::runtime_error(why);
    }
  }

  ~Fmi3ModelExchange() override {
    if (!instance_ || dead()) return;  // after fmi3Fatal no call is allowed, not even these
    if (initialised_) terminate_(instance_);
    free_instance_(instance_);
  }

  Result set_real(std::uint32_t vr, double value) override {
    return call([&] { return set_float64_(instance_, &vr, 1, &value, 1); }, "fmi3SetFloat64");
  }
  Result set_integer(std::uint32_t vr, int value) override {
    const fmi3::Int32 v = value;
    return call([&] { return set_int32_(instance_, &vr, 1, &v, 1); }, "fmi3SetInt32");
  }
  Result set_boolean(std::uint32_t vr, bool value) override {
    return call([&] { return set_boolean_(instance_, &vr, 1, &value, 1); }, "fmi3SetBoolean");
  }
  Result initialise(double t0) override {
    if (dead()) return Result::error;
    if (const Result r = check(enter_initialization_(instance_, false, 0.0, t0, false, 0.0), "fmi3EnterInitializationMode");
        r != Result::ok)
      return r;
    initialised_ = true;
    return check(exit_initialization_(instance_), "fmi3ExitInitializationMode");
  }
  Result enter_event_mode() override {
    return call([&] { return enter_event_mode_(instance_); }, "fmi3EnterEventMode");
  }
  Result update_discrete_states(DiscreteUpdate* update) override {
    if (dead()) return Result::error;
    bool again = false, terminate = false, nominals = false, changed = false, defined = false;
    double next = 0.0;
    const Result r = check(update_discrete_states_(instance_, &again, &terminate, &nominals, &changed, &defined, &next),
                           "fmi3UpdateDiscreteStates");
    update->again = again;
    update->terminate = terminate;
    update->states_changed = changed;
    update->next_time_defined = defined;
    update->next_time = next;
    return r;
  }
  Result enter_continuous_time_mode() override {
    return call([&] { return enter_continuous_(instance_); }, "fmi3EnterContinuousTimeMode");
  }
  Result completed_integrator_step(bool* enter_event_mode, bool* terminate) override {
    return call([&] { return completed_step_(instance_, true, enter_event_mode, terminate); },
                "fmi3CompletedIntegratorStep");
  }
  Result set_time(double t) override { return call([&] { return set_time_(instance_, t); }, "fmi3SetTime"); }
  Result set_states(const double* x, std::size_t n) override {
    if (n == 0) return Result::ok;  // a model without states or indicators is not asked for them
    return call([&] { return set_states_(instance_, x, n); }, "fmi3SetContinuousStates");
  }
  Result get_states(double* x, std::size_t n) override {
    if (n == 0) return Result::ok;
    return call([&] { return get_states_(instance_, x, n); }, "fmi3GetContinuousStates");
  }
  Result get_derivatives(double* dx, std::size_t n) override {
    if (n == 0) return Result::ok;
    return call([&] { return get_derivatives_(instance_, dx, n); }, "fmi3GetContinuousStateDerivatives");
  }
  Result get_event_indicators(double* g, std::size_t n) override {
    if (n == 0) return Result::ok;
    return call([&] { return get_indicators_(instance_, g, n); }, "fmi3GetEventIndicators");
  }
  // The whole variable (an array's every element) read into the scratch, then the element.
  Result get_value(const Variable& v, double* value, std::size_t element) override {
    const fmi3::ValueReference r = v.value_reference;
    const std::size_t n = v.size;
    if (element >= n) return missing(("element " + std::to_string(element) + " of " + v.name).c_str());
    Result result = Result::ok;
    switch (v.type) {
      case Variable::Type::real:
        if (!get_float64_) return missing("fmi3GetFloat64");
        reals_.resize(n);
        result = call([&] { return get_float64_(instance_, &r, 1, reals_.data(), n); }, "fmi3GetFloat64");
        *value = reals_[element];
        return result;
      case Variable::Type::integer:
        if (!get_int32_) return missing("fmi3GetInt32");
        integers_.resize(n);
        result = call([&] { return get_int32_(instance_, &r, 1, integers_.data(), n); }, "fmi3GetInt32");
        *value = integers_[element];
        return result;
      case Variable::Type::boolean:
        if (!get_boolean_) return missing("fmi3GetBoolean");
        if (booleans_capacity_ < n) {
          booleans_ = std::make_unique<fmi3::Boolean[]>(n);
          booleans_capacity_ = n;
        }
        result = call([&] { return get_boolean_(instance_, &r, 1, booleans_.get(), n); }, "fmi3GetBoolean");
        *value = booleans_[element] ? 1.0 : 0.0;
        return result;
      case Variable::Type::other: break;
    }
    return missing(("a getter for type " + v.type_name).c_str());
  }
  Result directional_derivative(const std::uint32_t* unknowns, std::size_t n_unknowns, const std::uint32_t* knowns,
                                std::size_t n_knowns, const double* seed, double* sensitivity) override {
    if (!directional_) return Result::error;
    return call([&] {
      return directional_(instance_, unknowns, n_unknowns, knowns, n_knowns, seed, n_knowns, sensitivity, n_unknowns);
    }, "fmi3GetDirectionalDerivative");
  }
  Result reset() override {
    if (dead()) return Result::error;
    initialised_ = false;
    return check(reset_(instance_), "fmi3Reset");
  }

 private:
  // An FMI call, unless an earlier one ended in fmi3Fatal.
  template <class Call>
  Result call(Call&& fmi_call, const char* function) {
    return dead() ? Result::error : check(fmi_call(), function);
  }

  static void log_message(fmi3::InstanceEnvironment env, fmi3::Status status, fmi3::String category,
                          fmi3::String message) {
    if (env && message) static_cast<Fmi3ModelExchange*>(env)->logged(status, category, message);
  }

  fmi3::Instance instance_ = nullptr;
  bool initialised_ = false;
  fmi3::FreeInstanceFn free_instance_ = nullptr;
  fmi3::EnterInitializationModeFn enter_initialization_ = nullptr;
  fmi3::InstanceFn exit_initialization_ = nullptr, terminate_ = nullptr, reset_ = nullptr, enter_event_mode_ = nullptr,
                   enter_continuous_ = nullptr;
  fmi3::SetFloat64Fn set_float64_ = nullptr;
  fmi3::SetInt32Fn set_int32_ = nullptr;
  fmi3::SetBooleanFn set_boolean_ = nullptr;
  fmi3::GetFloat64Fn get_float64_ = nullptr;
  fmi3::GetInt32Fn get_int32_ = nullptr;
  fmi3::GetBooleanFn get_boolean_ = nullptr;
  fmi3::UpdateDiscreteStatesFn update_discrete_states_ = nullptr;
  fmi3::CompletedIntegratorStepFn completed_step_ = nullptr;
  fmi3::SetTimeFn set_time_ = nullptr;
  fmi3::SetContinuousStatesFn set_states_ = nullptr;
  fmi3::GetVectorFn get_states_ = nullptr, get_derivatives_ = nullptr, get_indicators_ = nullptr;
  fmi3::GetDirectionalDerivativeFn directional_ = nullptr;
  std::vector<double> reals_;  // get_value's scratch, sized by the largest variable read
  std::vector<fmi3::Int32> integers_;
  std::unique_ptr<fmi3::Boolean[]> booleans_;  // std::vector<bool> has no data()
  std::size_t booleans_capacity_ = 0;
};

}  // namespace

std::unique_ptr<ModelExchange> open_fmi3(const ModelDescription& md, const std::filesystem::path& folder, LogSink log) {
  return std::make_unique<Fmi3ModelExchange>(md, folder, std::move(log));
}

}  // namespace daekit::fmu::detail
