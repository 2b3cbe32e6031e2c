// What an importer needs from an FMU's modelDescription.xml, FMI 2.0 or 3.0 alike: the
// model-exchange capabilities, the variables (to set start values and parameters by
// name), the continuous states in the order the FMU's vectors use, the dependencies of
// their derivatives (the Jacobian's pattern) and the number of event indicators.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace daekit::fmu {

struct Variable {
  enum class Type { real, integer, boolean, other };
  std::string name;
  std::uint32_t value_reference = 0;
  Type type = Type::other;
  std::string type_name;  // as the XML names it: Real, Float64, Integer, Int32, ...
  std::string causality, variability, initial, description;
  bool has_start = false;
  std::string start;
  bool is_array = false;  // FMI 3.0 Dimension: not set by name
  std::vector<std::size_t> dimensions;  // an array's extents, resolved (a structural parameter's start)
  std::size_t size = 1;                 // its number of elements (row-major, as FMI 3.0 flattens)
  double nominal = 0.0;   // its nominal magnitude (own or its declared type's); 0: not given
};

struct ModelDescription {
  int fmi_major = 0;             // 2 or 3
  std::string fmi_version;       // as written
  std::string model_name;
  std::string token;             // FMI 2 guid, FMI 3 instantiationToken
  std::string model_identifier;  // of the model-exchange interface: the binary's name
  bool model_exchange = false, co_simulation = false;
  bool directional_derivatives = false;
  bool completed_step_needed = true;
  bool once_per_process = false;  // canBeInstantiatedOnlyOncePerProcess
  std::vector<Variable> variables;
  // Per continuous state (the order of the FMU's state vector, an array's elements in
  // turn): the state variable and its derivative, as indices into `variables`, and the
  // element of an array state (0 for a scalar).
  std::vector<std::size_t> states, derivatives, state_elements;
  bool array_states = false;  // then dependencies are per array, not per element: not used
  // Per derivative, the states it depends on (positions in `states`); valid when
  // dependencies_known (every derivative lists its dependencies).
  std::vector<std::vector<std::size_t>> dependencies;
  bool dependencies_known = false;
  std::size_t event_indicators = 0;
  // FMI 3.0: the variable each event indicator is (its name); empty for FMI 2.0.
  std::vector<std::string> event_indicator_names;
  double start_time = 0.0, stop_time = 1.0;
  bool stop_time_given = false;
  double tolerance = 0.0;  // DefaultExperiment's, 0 when not given
  double step_size = 0.0;  // DefaultExperiment's stepSize (the output interval), 0 when not given

  const Variable* find(const std::string& name) const;
};

// An element's name: the variable's, with 1-based indices for an array ("x[2]", "A[1,3]").
std::string element_name(const Variable& v, std::size_t element);

// Throws std::runtime_error naming the file and what is wrong or missing.
ModelDescription read_model_description(const std::filesystem::path& file);

}  // namespace daekit::fmu
