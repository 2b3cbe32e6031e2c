#include "model_description.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace daekit::fmu {
namespace {

bool true_attribute(const pugi::xml_node& node, const char* name, bool fallback) {
  const pugi::xml_attribute a = node.attribute(name);
  if (!a) return fallback;
  const std::string v = a.value();
  return v == "true" || v == "1";
}

std::vector<unsigned long> numbers(const char* text) {
  std::vector<unsigned long> out;
  std::istringstream in(text);
  unsigned long v = 0;
  while (in >> v) out.push_back(v);
  return out;
}

Variable::Type type_of(const std::string& element) {
  if (element == "Real" || element == "Float64") return Variable::Type::real;
  if (element == "Integer" || element == "Int32" || element == "Enumeration") return Variable::Type::integer;
  if (element == "Boolean") return Variable::Type::boolean;
  return Variable::Type::other;
}

// Event indicators beyond this many are a broken description (each is evaluated per step),
// as the host holds problems' root functions (lib/src/loader/registry.cpp).
constexpr unsigned long long max_event_indicators = 1ull << 20;
// Elements of one array beyond this many are a broken description (the state vector and
// outputs are sized by them).
constexpr unsigned long long max_array_elements = 1ull << 24;

struct Reader {
  std::string file;
  ModelDescription md;

  [[noreturn]] void fail(const std::string& what) const { throw std::runtime_error(file + ": " + what); }

  // An unsigned integer attribute as the standard types it (xs:unsignedInt, or a count),
  // read before anything is sized by it: digits only, at most `max`; else refused,
  // naming the attribute and its text. `fallback` when the attribute is absent.
  unsigned long long whole_number(const pugi::xml_node& node, const char* name, unsigned long long max,
                                  unsigned long long fallback, const std::string& where) const {
    const pugi::xml_attribute a = node.attribute(name);
    return a ? whole_number(a.value(), max, where + ": " + name) : fallback;
  }
  // The same for a text `what` names (an attribute, a start value).
  unsigned long long whole_number(const std::string& text, unsigned long long max, const std::string& what) const {
    const bool digits = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
    const unsigned long long value = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!digits || value > max || (text.size() == 20 && text > "18446744073709551615"))
      fail(what + "=\"" + text + "\" is not a whole number from 0 to " + std::to_string(max));
    return value;
  }

  // A variable's nominal magnitude: its own attribute, else its declared type's (found by
  // type_element(name)); 0 when neither gives one. FMI requires nominal > 0.
  template <class TypeElement>
  double nominal_of(const pugi::xml_node& element, const std::string& name, TypeElement type_element) const {
    pugi::xml_attribute nominal = element.attribute("nominal");
    if (!nominal && element.attribute("declaredType"))
      nominal = type_element(element.attribute("declaredType").value()).attribute("nominal");
    return nominal ? positive_number(nominal, "variable '" + name + "': nominal") : 0.0;
  }

  // An attribute that must be a finite number > 0 (a nominal, a stepSize), the whole text.
  double positive_number(const pugi::xml_attribute& attribute, const std::string& what) const {
    char* end = nullptr;
    const double value = std::strtod(attribute.value(), &end);
    if (end == attribute.value() || *end != '\0' || !(value > 0.0) || !std::isfinite(value))
      fail(what + " '" + attribute.value() + "' is not a positive number");
    return value;
  }

  Variable common(const pugi::xml_node& v) const {
    Variable out;
    out.name = v.attribute("name").value();
    if (out.name.empty()) fail("a model variable has no name");
    if (!v.attribute("valueReference")) fail("variable '" + out.name + "' has no valueReference");
    out.value_reference =
        static_cast<std::uint32_t>(whole_number(v, "valueReference", 0xFFFFFFFFull, 0, "variable '" + out.name + "'"));
    out.causality = v.attribute("causality") ? v.attribute("causality").value() : "local";
    out.variability = v.attribute("variability") ? v.attribute("variability").value() : "";
    out.initial = v.attribute("initial").value();
    out.description = v.attribute("description").value();
    return out;
  }

  // FMI 2.0: ScalarVariable elements with a typed child; states through the derivatives'
  // `derivative` attribute (1-based variable indices), ModelStructure/Derivatives/Unknown.
  void read_fmi2(const pugi::xml_node& root) {
    md.token = root.attribute("guid").value();
    md.event_indicators = whole_number(root, "numberOfEventIndicators", max_event_indicators, 0, "fmiModelDescription");
    std::vector<long> derivative_of;  // per variable: 1-based index of its state, or 0
    for (const auto& sv : root.child("ModelVariables").children("ScalarVariable")) {
      Variable v = common(sv);
      const pugi::xml_node typed = sv.first_child();
      v.type_name = typed.name();
      v.type = type_of(v.type_name);
      if (v.variability.empty()) v.variability = v.type == Variable::Type::real ? "continuous" : "discrete";
      if (typed.attribute("start")) {
        v.has_start = true;
        v.start = typed.attribute("start").value();
      }
      v.nominal = nominal_of(typed, v.name, [&](const std::string& type) {
        return root.child("TypeDefinitions").find_child_by_attribute("SimpleType", "name", type.c_str()).child("Real");
      });
      derivative_of.push_back(static_cast<long>(
          whole_number(typed, "derivative", std::numeric_limits<std::uint32_t>::max(), 0, "variable '" + v.name + "'")));
      md.variables.push_back(std::move(v));
    }
    std::map<std::size_t, std::size_t> state_position;  // variable index -> state position
    const pugi::xml_node derivatives = root.child("ModelStructure").child("Derivatives");
    std::vector<pugi::xml_node> unknowns;
    for (const auto& u : derivatives.children("Unknown")) {
      const auto index = static_cast<long>(
          whole_number(u, "index", md.variables.size(), 0, "ModelStructure/Derivatives/Unknown"));
      if (index < 1)
        fail("ModelStructure/Derivatives names variable " + std::to_string(index) + ", which does not exist");
      const long state = derivative_of[static_cast<std::size_t>(index - 1)];
      if (state < 1 || static_cast<std::size_t>(state) > md.variables.size())
        fail("the derivative '" + md.variables[static_cast<std::size_t>(index - 1)].name +
             "' does not name its state (attribute derivative)");
      check_state(static_cast<std::size_t>(state - 1), static_cast<std::size_t>(index - 1), state_position);
      state_position[static_cast<std::size_t>(state - 1)] = md.states.size();
      md.states.push_back(static_cast<std::size_t>(state - 1));
      md.derivatives.push_back(static_cast<std::size_t>(index - 1));
      md.state_elements.push_back(0);
      unknowns.push_back(u);
    }
    read_dependencies(unknowns, [&](unsigned long index) { return state_position.find(index - 1); },
                      state_position.end());
  }

  // FMI's rules for a derivative's state: not the derivative itself, and the state of one
  // derivative only (`states` maps the states taken so far, by variable index).
  template <class Map>
  void check_state(std::size_t state, std::size_t derivative, const Map& states) const {
    if (state == derivative)
      fail("the derivative '" + md.variables[derivative].name + "' names itself as its state (attribute derivative)");
    if (const auto it = states.find(state); it != states.end())
      fail("the state '" + md.variables[state].name + "' is listed twice (the state of derivative " +
           std::to_string(it->second + 1) + " and of '" + md.variables[derivative].name + "')");
  }

  // Each derivative's `dependencies` (FMI 2.0: 1-based variable indices, 3.0: value
  // references) as state positions; inputs and time are not y and are left out. The
  // pattern is known only when every derivative lists them.
  template <class Find, class End>
  void read_dependencies(const std::vector<pugi::xml_node>& unknowns, Find find, End end) {
    md.dependencies_known = !unknowns.empty();
    for (const auto& u : unknowns) {
      if (!u.attribute("dependencies")) md.dependencies_known = false;
      std::vector<std::size_t> deps;
      for (unsigned long number : numbers(u.attribute("dependencies").value()))
        if (const auto it = find(number); it != end) deps.push_back(it->second);
      md.dependencies.push_back(std::move(deps));
    }
  }

  // An FMI 3.0 array's extents: each Dimension a fixed `start` or the start value of the
  // structural parameter its `valueReference` names; at most max_array_elements in all.
  void size_array(Variable& v, const pugi::xml_node& node,
                  const std::map<std::uint32_t, std::size_t>& by_reference) {
    const std::string where = "the array '" + v.name + "'";
    v.size = 1;
    for (const auto& d : node.children("Dimension")) {
      unsigned long long extent = 0;
      if (d.attribute("start")) {
        extent = whole_number(d, "start", max_array_elements, 0, where + "'s Dimension");
      } else {
        const auto ref = static_cast<std::uint32_t>(whole_number(d, "valueReference", 0xFFFFFFFFull, 0, where + "'s Dimension"));
        const auto it = by_reference.find(ref);
        if (!d.attribute("valueReference") || it == by_reference.end())
          fail(where + "'s Dimension has neither a start nor the valueReference of a variable");
        const Variable& p = md.variables[it->second];
        extent = whole_number(p.start, max_array_elements, where + "'s Dimension names '" + p.name + "': start");
      }
      v.dimensions.push_back(static_cast<std::size_t>(extent));
      if (extent != 0 && v.size > max_array_elements / extent)
        fail(where + " has more than " + std::to_string(max_array_elements) + " elements");
      v.size *= static_cast<std::size_t>(extent);
    }
  }

  // FMI 3.0: typed variable elements; `derivative` and dependencies are value references;
  // ModelStructure lists ContinuousStateDerivative and EventIndicator elements.
  void read_fmi3(const pugi::xml_node& root) {
    md.token = root.attribute("instantiationToken").value();
    std::map<std::uint32_t, std::size_t> by_reference;
    std::vector<long long> derivative_of;  // per variable: the state's value reference, or -1
    std::vector<std::pair<std::size_t, pugi::xml_node>> dimensions_of;  // arrays, to size once all are read
    for (const auto& node : root.child("ModelVariables").children()) {
      if (node.type() != pugi::node_element) continue;
      Variable v = common(node);
      v.type_name = node.name();
      v.type = type_of(v.type_name);
      if (v.variability.empty())
        v.variability = v.type == Variable::Type::real || v.type_name == "Float32" ? "continuous" : "discrete";
      if (node.attribute("start")) {
        v.has_start = true;
        v.start = node.attribute("start").value();
      }
      v.nominal = nominal_of(node, v.name, [&](const std::string& type) {
        return root.child("TypeDefinitions").find_child_by_attribute((v.type_name + "Type").c_str(), "name", type.c_str());
      });
      if (node.child("Dimension")) {
        v.is_array = true;
        dimensions_of.emplace_back(md.variables.size(), node);
      }
      derivative_of.push_back(node.attribute("derivative")
                                  ? static_cast<long long>(whole_number(node, "derivative", 0xFFFFFFFFull, 0,
                                                                        "variable '" + v.name + "'"))
                                  : -1);
      if (!by_reference.emplace(v.value_reference, md.variables.size()).second)
        fail("two variables share the valueReference " + std::to_string(v.value_reference));
      md.variables.push_back(std::move(v));
    }
    for (const auto& [index, node] : dimensions_of) size_array(md.variables[index], node, by_reference);
    const pugi::xml_node structure = root.child("ModelStructure");
    std::map<std::uint32_t, std::size_t> state_position;  // value reference -> state position
    std::map<std::size_t, std::size_t> taken;             // variable index -> state position
    std::vector<pugi::xml_node> unknowns;
    for (const auto& d : structure.children("ContinuousStateDerivative")) {
      const auto it = by_reference.find(static_cast<std::uint32_t>(
          whole_number(d, "valueReference", 0xFFFFFFFFull, 0, "ModelStructure/ContinuousStateDerivative")));
      if (it == by_reference.end()) fail("ContinuousStateDerivative names an unknown valueReference");
      const long long state_ref = derivative_of[it->second];
      const auto state = by_reference.find(static_cast<std::uint32_t>(state_ref));
      if (state_ref < 0 || state == by_reference.end())
        fail("the derivative '" + md.variables[it->second].name + "' does not name its state (attribute derivative)");
      const Variable &x = md.variables[state->second], &dx = md.variables[it->second];
      if (x.size != dx.size)
        fail("the state '" + x.name + "' has " + std::to_string(x.size) + " elements, its derivative '" + dx.name +
             "' " + std::to_string(dx.size));
      check_state(state->second, it->second, taken);
      taken[state->second] = md.states.size();
      state_position[static_cast<std::uint32_t>(state_ref)] = md.states.size();
      md.array_states = md.array_states || x.is_array;
      for (std::size_t e = 0; e < x.size; ++e) {
        md.states.push_back(state->second);
        md.derivatives.push_back(it->second);
        md.state_elements.push_back(e);
      }
      unknowns.push_back(d);
    }
    read_dependencies(unknowns, [&](unsigned long ref) { return state_position.find(static_cast<std::uint32_t>(ref)); },
                      state_position.end());
    if (md.array_states) {  // FMI 3.0 lists dependencies per array: no pattern per element
      md.dependencies_known = false;
      md.dependencies.clear();
    }
    for (const auto& e : structure.children("EventIndicator")) {
      const auto it = by_reference.find(static_cast<std::uint32_t>(
          whole_number(e, "valueReference", 0xFFFFFFFFull, 0, "ModelStructure/EventIndicator")));
      if (it == by_reference.end()) fail("EventIndicator names an unknown valueReference");
      const Variable& g = md.variables[it->second];
      for (std::size_t k = 0; k < g.size; ++k) md.event_indicator_names.push_back(element_name(g, k));
      md.event_indicators += g.size;
      if (md.event_indicators > max_event_indicators)
        fail("more than " + std::to_string(max_event_indicators) + " event indicators");
    }
  }
};

}  // namespace

std::string element_name(const Variable& v, std::size_t element) {
  if (!v.is_array) return v.name;
  std::vector<std::size_t> index(v.dimensions.size());
  for (std::size_t k = v.dimensions.size(); k-- > 0;) {
    const std::size_t extent = std::max<std::size_t>(v.dimensions[k], 1);
    index[k] = element % extent + 1;
    element /= extent;
  }
  std::string out = v.name + "[";
  for (std::size_t k = 0; k < index.size(); ++k) {
    if (k) out += ',';
    out += std::to_string(index[k]);
  }
  out += ']';
  return out;
}

const Variable* ModelDescription::find(const std::string& name) const {
  for (const auto& v : variables)
    if (v.name == name) return &v;
  return nullptr;
}

ModelDescription read_model_description(const std::filesystem::path& file) {
  Reader r;
  r.file = file.filename() == "modelDescription.xml" ? "modelDescription.xml" : file.string();
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_file(file.c_str());
  if (!parsed) r.fail(std::string("not well-formed XML: ") + parsed.description() + " at byte " +
                      std::to_string(parsed.offset));
  const pugi::xml_node root = doc.child("fmiModelDescription");
  if (!root) r.fail("no fmiModelDescription element");
  auto& md = r.md;
  md.fmi_version = root.attribute("fmiVersion").value();
  md.fmi_major = md.fmi_version.rfind("2.", 0) == 0 ? 2 : md.fmi_version.rfind("3.", 0) == 0 ? 3 : 0;
  if (md.fmi_major == 0)
    r.fail("FMI version '" + md.fmi_version + "' is not supported (FMI 2.0 and 3.0 are)");
  md.model_name = root.attribute("modelName").value();
  const pugi::xml_node me = root.child("ModelExchange");
  md.model_exchange = static_cast<bool>(me);
  md.co_simulation = static_cast<bool>(root.child("CoSimulation"));
  md.model_identifier = me.attribute("modelIdentifier").value();
  md.once_per_process = true_attribute(me, "canBeInstantiatedOnlyOncePerProcess", false);
  if (md.fmi_major == 2) {
    md.directional_derivatives = true_attribute(me, "providesDirectionalDerivative", false);
    md.completed_step_needed = !true_attribute(me, "completedIntegratorStepNotNeeded", false);
    r.read_fmi2(root);
  } else {
    md.directional_derivatives = true_attribute(me, "providesDirectionalDerivatives", false);
    md.completed_step_needed = true_attribute(me, "needsCompletedIntegratorStep", false);
    r.read_fmi3(root);
  }
  const pugi::xml_node experiment = root.child("DefaultExperiment");
  md.start_time = experiment.attribute("startTime").as_double(0.0);
  md.tolerance = experiment.attribute("tolerance").as_double(0.0);
  if (const pugi::xml_attribute step = experiment.attribute("stepSize"))
    md.step_size = r.positive_number(step, "DefaultExperiment stepSize");
  if (experiment.attribute("stopTime")) {
    md.stop_time = experiment.attribute("stopTime").as_double();
    md.stop_time_given = true;
  }
  return md;
}

}  // namespace daekit::fmu
