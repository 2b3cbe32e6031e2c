#include "run_settings_json.hpp"

namespace daekit::host {

using nlohmann::json;

json settings_to_json(const api::RunSettings& s) {
  json j = {{"h0", s.h0}, {"hmin", s.hmin}, {"hmax", s.hmax}, {"max_steps", s.max_steps},
            {"solver_options", s.solver_options}, {"jacobian", s.jacobian}, {"init", s.init},
            {"index_scaling", s.index_scaling}, {"suppress_algebraic", s.suppress_algebraic},
            {"max_events", s.max_events}, {"dense", s.dense},
            {"event_samples", s.event_samples}, {"derivative_check", s.derivative_check}};
  if (s.rtol) j["rtol"] = *s.rtol;
  if (s.atol) j["atol"] = *s.atol;
  if (s.tend) j["tend"] = *s.tend;
  // Only when asked for: a journal key of a sweep without them stays what it was.
  if (!s.sensitivities.empty()) j["sensitivities"] = s.sensitivities;
  if (s.sensitivity_error_control) j["sensitivity_error_control"] = true;
  if (!s.initial_values.empty()) j["initial_values"] = s.initial_values;
  return j;
}

api::RunSettings settings_from_json(const json& j) {
  api::RunSettings s;
  if (j.contains("rtol")) s.rtol = j["rtol"].get<double>();
  if (j.contains("atol")) s.atol = j["atol"].get<double>();
  if (j.contains("tend")) s.tend = j["tend"].get<double>();
  s.h0 = j.at("h0"), s.hmin = j.at("hmin"), s.hmax = j.at("hmax");
  s.max_steps = j.at("max_steps");
  s.solver_options = j.at("solver_options").get<std::map<std::string, std::string>>();
  s.jacobian = j.at("jacobian"), s.init = j.at("init");
  s.index_scaling = j.at("index_scaling"), s.suppress_algebraic = j.at("suppress_algebraic");
  s.max_events = j.at("max_events"), s.dense = j.at("dense");
  // Absent from journals written before ABI 1.3: the defaults.
  s.event_samples = j.value("event_samples", -1), s.derivative_check = j.value("derivative_check", true);
  s.sensitivities = j.value("sensitivities", std::vector<std::string>{});
  s.sensitivity_error_control = j.value("sensitivity_error_control", false);
  s.initial_values = j.value("initial_values", std::map<std::string, double>{});
  return s;
}

}  // namespace daekit::host
