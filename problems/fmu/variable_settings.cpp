#include "variable_settings.hpp"

#include <daekit/sdk/closest_names.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace daekit::fmu {
namespace {

std::string closest_names(const ModelDescription& md, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& v : md.variables) names.push_back(v.name);
  std::string out;
  for (const auto& c : daekit::closest_names(name, names)) out += (out.empty() ? "" : ", ") + c;
  return out.empty() ? std::string("none close; `daekit info fmu --param file=...` lists the states") : out;
}

// Why a variable cannot be set before initialisation, or "" when it can (FMI 2.0 table
// of section 2.2.7 and FMI 3.0 section 2.4.7: constants and values the model computes are
// not the importer's to set).
std::string why_not_settable(const Variable& v) {
  if (v.is_array) return "it is an array (FMI 3.0 Dimension); daekit sets scalars by name";
  if (v.variability == "constant") return "it is a constant";
  if (v.causality == "independent") return "it is the independent variable (time)";
  if (v.causality == "calculatedParameter") return "the model calculates it from other parameters";
  if (v.initial == "calculated") return "the model calculates its initial value";
  if (v.causality == "input" || v.causality == "parameter" || v.causality == "structuralParameter") return "";
  if (!v.has_start) return "it has no start value to override (the model computes it)";
  return "";
}

}  // namespace

VariableSetting parse_value(const Variable& v, const std::string& text, const std::string& what) {
  VariableSetting s;
  s.variable = &v;
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  switch (v.type) {
    case Variable::Type::real:
      s.real = std::strtod(begin, &end);
      if (text.empty() || *end || errno == ERANGE || !std::isfinite(s.real))
        throw std::invalid_argument(what + " is a real variable; '" + text + "' is not a finite number");
      break;
    case Variable::Type::integer:
      s.integer = std::strtol(begin, &end, 10);
      if (text.empty() || *end || errno == ERANGE || s.integer < INT_MIN || s.integer > INT_MAX)
        throw std::invalid_argument(what + " is an integer variable; '" + text + "' is not a 32-bit integer");
      break;
    case Variable::Type::boolean:
      if (text == "true" || text == "1")
        s.boolean = true;
      else if (text == "false" || text == "0")
        s.boolean = false;
      else
        throw std::invalid_argument(what + " is a boolean variable; give true or false (1 or 0), not '" + text + "'");
      break;
    case Variable::Type::other:
      throw std::invalid_argument(what + ": its type " + v.type_name +
                                  " is not one daekit sets (real, integer, boolean)");
  }
  return s;
}

std::vector<VariableSetting> parse_variable_settings(const ModelDescription& md,
                                                     const std::map<std::string, std::string>& given) {
  std::vector<VariableSetting> out;
  for (const auto& [name, text] : given) {
    const Variable* v = md.find(name);
    if (!v)
      throw std::invalid_argument("fmu: the model '" + md.model_name + "' has no variable '" + name +
                                  "' (closest: " + closest_names(md, name) + ")");
    if (const std::string why = why_not_settable(*v); !why.empty())
      throw std::invalid_argument("fmu: cannot set '" + name + "': " + why);
    out.push_back(parse_value(*v, text, "fmu: '" + name + "'"));
  }
  return out;
}

ModelExchange::Result apply(ModelExchange& fmu, const VariableSetting& s) {
  switch (s.variable->type) {
    case Variable::Type::real:
      return fmu.set_real(s.variable->value_reference, s.real);
    case Variable::Type::integer:
      return fmu.set_integer(s.variable->value_reference, static_cast<int>(s.integer));
    case Variable::Type::boolean:
      return fmu.set_boolean(s.variable->value_reference, s.boolean);
    case Variable::Type::other:
      break;
  }
  return ModelExchange::Result::error;
}

}  // namespace daekit::fmu
