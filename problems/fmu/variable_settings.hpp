// `--param NAME=VALUE` for an FMU: a model variable's start value or parameter, checked
// against modelDescription.xml before anything is set: the name must exist (the closest
// names are suggested), the variable must be settable before initialisation (not a
// constant, not computed by the model), and the value must parse as its type.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model_description.hpp"
#include "model_exchange.hpp"

namespace daekit::fmu {

struct VariableSetting {
  const Variable* variable = nullptr;
  double real = 0.0;
  long integer = 0;
  bool boolean = false;
};

// TEXT as a value of v in its type's syntax (a finite real, a 32-bit integer, true/false or
// 1/0); throws std::invalid_argument that begins with `what` (how the caller names it).
VariableSetting parse_value(const Variable& v, const std::string& text, const std::string& what);

// Throws std::invalid_argument naming the variable and the reason.
std::vector<VariableSetting> parse_variable_settings(const ModelDescription& md,
                                                     const std::map<std::string, std::string>& given);

ModelExchange::Result apply(ModelExchange& fmu, const VariableSetting& setting);

}  // namespace daekit::fmu
