#include "run_options.hpp"

#include <cmath>
#include <cstdlib>

namespace daekit::host {

RunSettingsOptions::RunSettingsOptions(RunOptionChoice choice) : choice_(choice), max_steps_(choice.max_steps) {}

void RunSettingsOptions::add_to(po::options_description& desc) {
  auto add = desc.add_options();
  if (choice_.tolerances)
    add("rtol", po::value(&rtol_), "relative tolerance (default: the problem's suggestion, else 1e-6)")(
        "atol", po::value(&atol_), "absolute tolerance (default: the problem's suggested scale times rtol)");
  if (choice_.tend) add("tend", po::value(&tend_), "end of the time span (default: the problem's)");
  add("h0", po::value(&h0_), "initial step (default: automatic)")("hmin", po::value(&hmin_), "minimum step")(
      "hmax", po::value(&hmax_), "maximum step")(
      "max-steps", po::value(&max_steps_),
      ("maximum number of steps of a solve (default " + std::to_string(choice_.max_steps) + ")").c_str())(
      "max-events", po::value(&max_events_),
      "more events than this end the run with status too_many_events (chattering; default 1000)")(
      "event-samples", po::value(&event_samples_),
      "interior points of each step where the root functions are sampled (default 10; 0: the step's ends only)")(
      "derivative-check", po::value(&derivative_check_),
      "on (default): compare the problem's Jacobian with differences now and then, and use differences where "
      "they disagree; off: trust it")(
      "jacobian", po::value(&jacobian_), "auto (analytic when the problem has one), analytic, or fd")(
      "init", po::value(&init_), "initial values: check (default), fix (compute algebraic components), trust")(
      "no-index-scaling", "do not scale the errors of index-2/3 components by h^(index-1)")(
      "suppress-algebraic", "leave algebraic components out of the error test")(
      "y0", po::value(&y0_)->composing(),
      "an initial value instead of the problem's: NAME=VALUE, NAME a component's name or 1-based index "
      "(repeatable; a DAE's algebraic components then need --init fix)");
  if (choice_.sensitivities)
    add("sensitivities", po::value(&sensitivities_),
        "forward sensitivities dy/dq: all (every real parameter), parameter names, y0 (every initial value) or "
        "y0:NAME, comma-separated")(
        "sens-error-control", po::value(&sens_error_control_),
        "on: the sensitivities join the error test; off (default, as CVODES and IDAS): only y's error is tested");
}

// What the library checks (tolerances, steps, the end, the Jacobian and init words) it
// refuses itself, with the same words for every program; here only what the command line
// alone can get wrong.
api::RunSettings RunSettingsOptions::read(const po::variables_map& vm) const {
  api::RunSettings s;
  if (choice_.tolerances && vm.count("rtol")) s.rtol = rtol_;
  if (choice_.tolerances && vm.count("atol")) s.atol = atol_;
  if (choice_.tend && vm.count("tend")) s.tend = tend_;
  s.h0 = h0_, s.hmin = hmin_, s.hmax = hmax_;
  s.max_steps = max_steps_;
  if (vm.count("max-events") && max_events_ <= 0) throw UsageError("--max-events must be a positive number");
  s.max_events = max_events_;
  if (vm.count("event-samples") && event_samples_ < 0) throw UsageError("--event-samples must not be negative");
  s.event_samples = event_samples_;
  if (derivative_check_ != "on" && derivative_check_ != "off") throw UsageError("--derivative-check must be on or off");
  s.derivative_check = derivative_check_ == "on";
  s.jacobian = jacobian_;
  s.init = init_;
  s.index_scaling = !vm.count("no-index-scaling");
  s.suppress_algebraic = vm.count("suppress-algebraic") > 0;
  for (const auto& [name, text] : parse_key_values(y0_, "--y0")) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
      throw UsageError("--y0 " + name + "=" + text + ": the value is not a finite number");
    s.initial_values[name] = v;
  }
  if (choice_.sensitivities && vm.count("sensitivities")) {
    s.sensitivities = split_variable_names(sensitivities_, "sensitivities");
    if (s.sensitivities.empty()) throw UsageError("--sensitivities needs at least one name");
  }
  if (sens_error_control_ != "on" && sens_error_control_ != "off")
    throw UsageError("--sens-error-control must be on or off");
  s.sensitivity_error_control = sens_error_control_ == "on";
  return s;
}

void check_timeout(const char* option, double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    throw UsageError(std::string("--") + option + " must be a finite number of seconds >= 0 (0: no limit)");
}

}  // namespace daekit::host
