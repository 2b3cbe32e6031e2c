#include "input_signals.hpp"

#include <daekit/sdk/closest_names.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "variable_settings.hpp"

namespace daekit::fmu {
namespace {

// One CSV line's fields; a field in double quotes may hold commas ("x[1,2]") and "" for a quote.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  for (auto& f : out) {
    const auto first = f.find_first_not_of(" \t"), last = f.find_last_not_of(" \t");
    f = first == std::string::npos ? "" : f.substr(first, last - first + 1);
  }
  return out;
}

std::string input_names(const ModelDescription& md) {
  std::string out;
  for (const auto& v : md.variables)
    if (v.causality == "input" && !v.is_array) out += (out.empty() ? "" : ", ") + v.name;
  return out.empty() ? "it has none" : out;
}

// The column's variable, or a message naming what is wrong.
const Variable& input_variable(const ModelDescription& md, const std::string& name, const std::string& where) {
  const Variable* v = md.find(name);
  if (!v) {
    std::vector<std::string> names;
    for (const auto& candidate : md.variables)
      if (candidate.causality == "input") names.push_back(candidate.name);
    std::string close;
    for (const auto& c : daekit::closest_names(name, names)) close += (close.empty() ? "" : ", ") + c;
    throw std::invalid_argument(where + "the model '" + md.model_name + "' has no input '" + name + "' (" +
                                (close.empty() ? "its inputs: " + input_names(md) : "closest: " + close) + ")");
  }
  if (v->causality != "input")
    throw std::invalid_argument(where + "'" + name + "' is not an input of the model (its causality is " +
                                v->causality + "; its inputs: " + input_names(md) + ")");
  if (v->is_array || v->type == Variable::Type::other)
    throw std::invalid_argument(where + "the input '" + name + "' is " +
                                (v->is_array ? "an array" : "of type " + v->type_name) +
                                ", which daekit does not drive from a file (real, integer, boolean scalars)");
  return *v;
}

double as_number(const VariableSetting& s) {
  switch (s.variable->type) {
    case Variable::Type::integer:
      return static_cast<double>(s.integer);
    case Variable::Type::boolean:
      return s.boolean ? 1.0 : 0.0;
    default:
      return s.real;
  }
}

}  // namespace

InputSignals::InputSignals(const std::filesystem::path& csv, const ModelDescription& md) {
  std::ifstream in(csv);
  if (!in) throw std::invalid_argument("fmu: cannot read the input file " + csv.string());
  const std::string file = csv.string();
  std::string line;
  std::size_t number = 0;
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) header = fields(line);
  }
  const std::string head = "fmu: " + file + ":" + std::to_string(number) + ": ";
  if (header.empty()) throw std::invalid_argument("fmu: the input file " + file + " is empty");
  if (header[0] != "time" && header[0] != "t")
    throw std::invalid_argument(head + "the first column must be the time, named 'time', not '" + header[0] + "'");
  if (header.size() < 2) throw std::invalid_argument(head + "no input columns after 'time'");
  for (std::size_t c = 1; c < header.size(); ++c) {
    const Variable& v = input_variable(md, header[c], head);
    if (std::find(variables_.begin(), variables_.end(), &v) != variables_.end())
      throw std::invalid_argument(head + "the input '" + header[c] + "' has two columns");
    variables_.push_back(&v);
    signals_.push_back({&v, v.type == Variable::Type::real && v.variability == "continuous", {}});
  }
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = "fmu: " + file + ":" + std::to_string(number) + ": ";
    const auto row = fields(line);
    if (row.size() != header.size())
      throw std::invalid_argument(where + std::to_string(row.size()) + " fields, the header has " +
                                  std::to_string(header.size()));
    char* end = nullptr;
    const double t = std::strtod(row[0].c_str(), &end);
    if (row[0].empty() || *end || !std::isfinite(t))
      throw std::invalid_argument(where + "the time '" + row[0] + "' is not a finite number");
    if (!times_.empty() && t < times_.back())
      throw std::invalid_argument(where + "the time " + row[0] + " comes before the row above it (times must not decrease)");
    times_.push_back(t);
    for (std::size_t c = 1; c < row.size(); ++c)
      signals_[c - 1].values.push_back(as_number(parse_value(*signals_[c - 1].variable, row[c], where + "'" + header[c] + "'")));
  }
  if (times_.empty()) throw std::invalid_argument("fmu: the input file " + file + " has a header but no rows");
  for (std::size_t k = 1; k < times_.size(); ++k)
    for (const auto& s : signals_)
      if (s.values[k] != s.values[k - 1] && (!s.continuous || times_[k] == times_[k - 1])) {
        if (jumps_.empty() || jumps_.back() != times_[k]) jumps_.push_back(times_[k]);
        break;
      }
}

std::vector<double> InputSignals::breakpoints() const {
  std::vector<double> out;
  for (const double t : times_)
    if ((out.empty() || out.back() != t) && !jumps_at(t)) out.push_back(t);
  return out;
}

double InputSignals::next_jump_after(double t) const {
  const auto it = std::upper_bound(jumps_.begin(), jumps_.end(), t);
  return it == jumps_.end() ? std::numeric_limits<double>::infinity() : *it;
}

bool InputSignals::jumps_at(double t) const { return std::binary_search(jumps_.begin(), jumps_.end(), t); }

// Row i is the last at or before t (the right limit), or the last before t (the left).
double InputSignals::value(const Signal& s, double t, bool left) const {
  const auto after = left ? std::lower_bound(times_.begin(), times_.end(), t)
                          : std::upper_bound(times_.begin(), times_.end(), t);
  if (after == times_.begin()) return s.values.front();
  const auto i = static_cast<std::size_t>(after - times_.begin()) - 1;
  if (!s.continuous || i + 1 == times_.size()) return s.values[i];
  const double w = (t - times_[i]) / (times_[i + 1] - times_[i]);
  return s.values[i] + w * (s.values[i + 1] - s.values[i]);
}

// A value of the signal's number as its variable's type takes it.
ModelExchange::Result InputSignals::set(ModelExchange& fmu, const Variable& v, double x) {
  return apply(fmu, VariableSetting{&v, x, static_cast<long>(x), x != 0.0});
}

ModelExchange::Result InputSignals::set_continuous(ModelExchange& fmu, double t, bool left) const {
  for (const auto& s : signals_)
    if (s.continuous)
      if (const auto r = set(fmu, *s.variable, value(s, t, left)); r != ModelExchange::Result::ok) return r;
  return ModelExchange::Result::ok;
}

ModelExchange::Result InputSignals::set_all(ModelExchange& fmu, double t) const {
  for (const auto& s : signals_)
    if (const auto r = set(fmu, *s.variable, value(s, t, false)); r != ModelExchange::Result::ok) return r;
  return ModelExchange::Result::ok;
}

}  // namespace daekit::fmu
