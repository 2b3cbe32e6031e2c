#include "setups.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <daekit/api/run_setup.hpp>

#include "../cli.hpp"

namespace daekit::host::wpd {
namespace {

const std::vector<std::string> run_setting_keys = {"suppress-algebraic", "index-scaling", "jacobian", "init"};

bool is_bool(const std::string& v) { return v == "true" || v == "false"; }

void check_run_setting(const std::string& key, const std::string& value, const std::string& setup) {
  const bool ok = (key == "suppress-algebraic" || key == "index-scaling")
                      ? is_bool(value)
                      : key == "jacobian" ? (value == "auto" || value == "analytic" || value == "fd")
                                          : (value == "check" || value == "fix" || value == "trust");
  if (!ok)
    throw UsageError("--setup " + setup + ": " + key + "=" + value + " is not a valid value (" +
                     (key == "jacobian" ? "auto, analytic or fd" : key == "init" ? "check, fix or trust" : "true or false") +
                     ")");
}

}  // namespace

std::map<std::string, std::string> Setup::all_options() const {
  std::map<std::string, std::string> all = solver_options;
  for (const auto& [k, v] : run_settings) all["run:" + k] = v;
  if (tol_factor != 1.0) {
    std::ostringstream f;
    f.precision(17);
    f << tol_factor;
    all["run:tol_factor"] = f.str();
  }
  return all;
}

Setup parse_setup(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("--setup expects NAME=SOLVER[:key=value,...][@rtol*F], got '" + text + "'");
  Setup s;
  s.name = text.substr(0, eq);
  // Names are labels in files and diagrams: plain characters only.
  for (const char c : s.name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+'))
      throw UsageError("--setup name '" + s.name + "': use letters, digits and _ - . + only");
  std::string rest = text.substr(eq + 1);
  if (const auto at = rest.rfind('@'); at != std::string::npos) {
    const std::string factor = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (factor.rfind("rtol*", 0) != 0) throw UsageError("--setup " + s.name + ": expected @rtol*F, got @" + factor);
    char* end = nullptr;
    s.tol_factor = std::strtod(factor.c_str() + 5, &end);
    if (end == factor.c_str() + 5 || *end != '\0' || !(s.tol_factor > 0) || !std::isfinite(s.tol_factor))
      throw UsageError("--setup " + s.name + ": @rtol*F needs a positive number F, got '" + factor.substr(5) + "'");
  }
  const auto colon = rest.find(':');
  s.solver = rest.substr(0, colon);
  if (s.solver.empty()) throw UsageError("--setup " + s.name + ": no solver named");
  if (colon != std::string::npos) {
    std::vector<std::string> items;
    std::stringstream in(rest.substr(colon + 1));
    std::string item;
    while (std::getline(in, item, ','))
      if (!item.empty()) items.push_back(item);
    for (const auto& [k, v] : parse_key_values(items, ("--setup " + s.name).c_str())) {
      // Run settings are spelled as the run command's flags (suppress-algebraic), solver
      // options as the solvers declare them (linear_solver); either spelling is accepted.
      std::string run_key = k;
      std::replace(run_key.begin(), run_key.end(), '_', '-');
      if (std::find(run_setting_keys.begin(), run_setting_keys.end(), run_key) != run_setting_keys.end()) {
        check_run_setting(run_key, v, s.name);
        s.run_settings[run_key] = v;
      } else {
        s.solver_options[api::canonical_option_key(k)] = v;
      }
    }
  }
  return s;
}

std::vector<Setup> make_setups(const std::vector<std::string>& solvers, const std::vector<std::string>& setup_texts,
                               const std::vector<std::string>& solver_opts) {
  std::vector<Setup> setups;
  for (const auto& name : solvers) {
    Setup s;
    s.name = s.solver = name;
    setups.push_back(s);
  }
  for (const auto& item : solver_opts) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) throw UsageError("--solver-opt expects SOLVER:key=value, got '" + item + "'");
    const std::string solver = item.substr(0, colon);
    auto it = std::find_if(setups.begin(), setups.end(), [&](const Setup& s) { return s.name == solver; });
    if (it == setups.end())
      throw UsageError("--solver-opt names '" + solver + "', which is not in --solvers (a --setup takes its options itself)");
    for (const auto& [k, v] : parse_key_values({item.substr(colon + 1)}, "--solver-opt"))
      it->solver_options[api::canonical_option_key(k)] = v;
  }
  for (const auto& text : setup_texts) setups.push_back(parse_setup(text));
  for (std::size_t i = 0; i < setups.size(); ++i)
    for (std::size_t k = 0; k < i; ++k) {
      if (setups[i].name == setups[k].name)
        throw UsageError("the setup name '" + setups[i].name + "' is given twice (--solvers and --setup names are " +
                         "the series of the sweep; each must be unique)");
      if (setups[i].solver == setups[k].solver && setups[i].all_options() == setups[k].all_options())
        throw UsageError("setups '" + setups[k].name + "' and '" + setups[i].name + "' are the same solver with the " +
                         "same options: each would run the same points twice");
    }
  if (setups.empty()) throw UsageError("--solvers or --setup must name at least one solver");
  return setups;
}

}  // namespace daekit::host::wpd
