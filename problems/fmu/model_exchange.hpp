// One instance of an FMU's model-exchange interface, FMI 2.0 or 3.0 behind the same
// calls: the problem (fmu_problem.cpp) speaks to this, never to a version's functions.
// Every call answers ok, discard (the FMU cannot evaluate there: a solver retries with a
// smaller step) or error (fmiError or fmiFatal; error() says which function and what the
// FMU logged). After fmiFatal the instance refuses every further call, as the standard
// asks.
#pragma once

#include <boost/dll/shared_library.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "model_description.hpp"

namespace daekit::fmu {

// The FMU's log lines: level 0 a note (shown with --verbose), 1 a warning.
using LogSink = std::function<void(int level, const std::string& line)>;

class ModelExchange {
 public:
  enum class Result { ok, discard, error };
  struct DiscreteUpdate {
    bool again = false;  // newDiscreteStatesNeeded / discreteStatesNeedUpdate
    bool terminate = false;
    bool states_changed = false;
    bool next_time_defined = false;
    double next_time = 0.0;
  };

  virtual ~ModelExchange() = default;

  // Before initialise(): start values and parameters.
  virtual Result set_real(std::uint32_t vr, double value) = 0;
  virtual Result set_integer(std::uint32_t vr, int value) = 0;
  virtual Result set_boolean(std::uint32_t vr, bool value) = 0;
  // Initialisation mode and out of it; the instance is then in event mode.
  virtual Result initialise(double t0) = 0;
  virtual Result enter_event_mode() = 0;
  virtual Result update_discrete_states(DiscreteUpdate* update) = 0;
  virtual Result enter_continuous_time_mode() = 0;
  virtual Result completed_integrator_step(bool* enter_event_mode, bool* terminate) = 0;
  virtual Result set_time(double t) = 0;
  virtual Result set_states(const double* x, std::size_t n) = 0;
  virtual Result get_states(double* x, std::size_t n) = 0;
  virtual Result get_derivatives(double* dx, std::size_t n) = 0;
  virtual Result get_event_indicators(double* g, std::size_t n) = 0;
  // A variable's value (real, integer or boolean; an array's element) as a double: for outputs.
  virtual Result get_value(const Variable& v, double* value, std::size_t element = 0) = 0;
  // sensitivity = d(unknowns)/d(knowns) seed
  virtual Result directional_derivative(const std::uint32_t* unknowns, std::size_t n_unknowns,
                                        const std::uint32_t* knowns, std::size_t n_knowns, const double* seed,
                                        double* sensitivity) = 0;
  // Back to the state after instantiation (start values to be set again).
  virtual Result reset() = 0;

  const std::string& error() const { return error_; }

 protected:
  ModelExchange(const ModelDescription& md, const std::filesystem::path& folder, LogSink log);
  // The status of an FMI call as a Result; names the function in error() when it failed.
  Result check(int status, const char* function);
  bool dead() const { return dead_; }
  // The address of an exported function; throws naming it when the binary lacks it.
  template <class Fn>
  Fn function(const char* name) const {
    if (!library_.has(name))
      throw std::runtime_error("the FMU's binary " + binary_.filename().string() + " does not export " + name);
    return reinterpret_cast<Fn>(library_.get<void()>(name));
  }
  template <class Fn>
  Fn optional_function(const char* name) const {
    return library_.has(name) ? reinterpret_cast<Fn>(library_.get<void()>(name)) : nullptr;
  }
  // An optional getter that the FMU lacks, as an error naming it.
  Result missing(const char* function);
  // A line from the FMU's logger: kept (the last error is part of error()) and passed on.
  void logged(int fmi_status, const char* category, const std::string& message);
  const std::string& last_logged_error() const { return last_logged_error_; }

  std::string instance_name_;
  std::filesystem::path resources_;

 private:
  std::filesystem::path binary_;
  boost::dll::shared_library library_;
  LogSink log_;
  std::string error_, last_logged_error_;
  bool dead_ = false;
  int major_;
};

// Loads the FMU's binary for this platform and instantiates its model-exchange interface.
// Throws std::runtime_error with the reason (no binary for this platform, a binary that
// does not load, a missing function, an instantiation the FMU refused).
std::unique_ptr<ModelExchange> open_model_exchange(const ModelDescription& md, const std::filesystem::path& folder,
                                                   LogSink log);

// The FMU's binary for this platform, relative to its folder: binaries/linux64/ID.so for
// FMI 2.0, binaries/x86_64-linux/ID.so for 3.0.
std::filesystem::path platform_binary(const ModelDescription& md);

namespace detail {
std::unique_ptr<ModelExchange> open_fmi2(const ModelDescription& md, const std::filesystem::path& folder, LogSink log);
std::unique_ptr<ModelExchange> open_fmi3(const ModelDescription& md, const std::filesystem::path& folder, LogSink log);
}  // namespace detail

}  // namespace daekit::fmu
