#include "daekit/fit/measurements.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "daekit/api/discovery.hpp"

namespace daekit::fit {
namespace {

using api::UsageError;

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(trimmed(item));
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

std::string where(const std::string& source, std::size_t line) {
  return source + ", line " + std::to_string(line) + ": ";
}

double number(const std::string& field, const char* what, const std::string& source, std::size_t line) {
  char* end = nullptr;
  const double v = std::strtod(field.c_str(), &end);
  if (field.empty() || *end != '\0')
    throw UsageError(where(source, line) + what + " '" + field + "' is not a number");
  if (!std::isfinite(v)) throw UsageError(where(source, line) + what + " '" + field + "' is not finite");
  return v;
}

// The lines that hold data: (line number, fields), the header first.
std::vector<std::pair<std::size_t, std::vector<std::string>>> records_of(const std::string& text) {
  std::vector<std::pair<std::size_t, std::vector<std::string>>> out;
  std::stringstream in(text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte order mark
    const std::string t = trimmed(line);
    if (t.empty() || t[0] == '#') continue;
    if (t.find('\0') != std::string::npos) throw UsageError("line " + std::to_string(number) + " holds a NUL byte");
    out.emplace_back(number, fields_of(t));
  }
  return out;
}

std::string read_text(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw UsageError(std::string(what) + " '" + path + "' is not a readable file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw UsageError(std::string("cannot read ") + what + " '" + path + "'");
  return text.str();
}

std::string stem_of(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace

Experiment parse_experiment(const std::string& text, const std::string& id, const std::string& source) {
  Experiment e;
  e.id = id;
  e.source = source;
  std::vector<std::pair<std::size_t, std::vector<std::string>>> records;
  try {
    records = records_of(text);
  } catch (const UsageError& error) {
    throw UsageError(source + ", " + error.what());
  }
  if (records.empty()) throw UsageError(source + ": no header (t,name,value,sigma) and no measurement");
  const std::vector<std::string> header{"t", "name", "value", "sigma"};
  if (records.front().second != header)
    throw UsageError(where(source, records.front().first) + "the header must be t,name,value,sigma");
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& [line, f] = records[r];
    if (f.size() != 4)
      throw UsageError(where(source, line) + "expected 4 fields (t,name,value,sigma), found " + std::to_string(f.size()));
    Measurement m;
    m.line = line;
    m.t = number(f[0], "the time", source, line);
    m.name = f[1];
    if (m.name.empty()) throw UsageError(where(source, line) + "the name is empty");
    m.value = number(f[2], "the value", source, line);
    m.sigma = number(f[3], "sigma", source, line);
    if (!(m.sigma > 0)) throw UsageError(where(source, line) + "sigma must be positive, got " + f[3]);
    e.measurements.push_back(m);
  }
  if (e.measurements.empty()) throw UsageError(source + ": no measurement after the header");
  return e;
}

Experiment read_experiment(const std::string& path) {
  return parse_experiment(read_text(path, "data file"), stem_of(path), path);
}

void parse_conditions(const std::string& text, const std::string& source, std::vector<Experiment>& experiments) {
  std::vector<std::pair<std::size_t, std::vector<std::string>>> records;
  try {
    records = records_of(text);
  } catch (const UsageError& error) {
    throw UsageError(source + ", " + error.what());
  }
  if (records.empty()) throw UsageError(source + ": no header (experiment,NAME,...)");
  const auto& [header_line, header] = records.front();
  if (header.size() < 2 || header[0] != "experiment")
    throw UsageError(where(source, header_line) + "the header must be experiment followed by the names set");
  std::set<std::string> names;
  for (std::size_t c = 1; c < header.size(); ++c)
    if (header[c].empty() || !names.insert(header[c]).second)
      throw UsageError(where(source, header_line) + "column " + std::to_string(c + 1) +
                       (header[c].empty() ? " has no name" : " repeats '" + header[c] + "'"));
  std::set<std::string> seen;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& [line, f] = records[r];
    if (f.size() != header.size())
      throw UsageError(where(source, line) + "expected " + std::to_string(header.size()) + " fields, found " +
                       std::to_string(f.size()));
    Experiment* target = nullptr;
    for (Experiment& e : experiments)
      if (e.id == f[0]) target = &e;
    if (!target) {
      std::string known;
      for (const Experiment& e : experiments) known += (known.empty() ? "" : ", ") + e.id;
      throw UsageError(where(source, line) + "no experiment '" + f[0] + "' (the data files give: " + known + ")");
    }
    if (!seen.insert(f[0]).second) throw UsageError(where(source, line) + "experiment '" + f[0] + "' is given twice");
    for (std::size_t c = 1; c < f.size(); ++c)
      if (!f[c].empty()) target->conditions[header[c]] = number(f[c], header[c].c_str(), source, line);
  }
}

void read_conditions(const std::string& path, std::vector<Experiment>& experiments) {
  parse_conditions(read_text(path, "condition table"), path, experiments);
}

}  // namespace daekit::fit
