#include "instances.hpp"

#include <algorithm>
#include <daekit/sdk/closest_names.hpp>

#include "../cli.hpp"

namespace daekit::host::wpd {
namespace {

// "PROBLEM:rest" when the text before the first ':' comes before any '=' (a value may hold
// a colon: file=C:/x), else "" and the whole text for every problem.
std::pair<std::string, std::string> split_problem(const std::string& item) {
  const auto eq = item.find('='), colon = item.find(':');
  if (colon == std::string::npos || (eq != std::string::npos && colon > eq)) return {"", item};
  return {item.substr(0, colon), item.substr(colon + 1)};
}

void require_swept(const std::string& option, const std::string& item, const std::string& problem,
                   const std::vector<std::string>& problems) {
  if (std::find(problems.begin(), problems.end(), problem) != problems.end()) return;
  std::string msg = option + " " + item + " names the problem '" + problem + "', which is not swept";
  const auto near = daekit::closest_names(problem, problems);
  if (!near.empty()) msg += "; did you mean '" + near.front() + "'?";
  throw UsageError(msg + " (the sweep's problems: --problem)");
}

// A label that is also a file name: the value's characters beyond [A-Za-z0-9._+-] become '_'.
std::string label_of(const std::string& problem, const std::string& key, const std::string& value) {
  std::string v = value;
  for (char& c : v)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '+' || c == '-')) c = '_';
  return problem + "-" + key + "=" + v;
}

}  // namespace

Instances make_instances(const std::vector<std::string>& problems, const std::vector<std::string>& params,
                         const std::vector<std::string>& sweeps) {
  std::vector<std::string> shared;
  std::map<std::string, std::vector<std::string>> own;
  for (const auto& item : params) {
    const auto [problem, rest] = split_problem(item);
    if (problem.empty()) {
      shared.push_back(item);
      continue;
    }
    require_swept("--param", item, problem, problems);
    own[problem].push_back(rest);
  }
  const auto common = parse_key_values(shared, "--param");

  std::map<std::string, ParameterSweep> sweep_of;
  for (const auto& item : sweeps) {
    const auto [problem, rest] = split_problem(item);
    if (!problem.empty()) require_swept("--param-sweep", item, problem, problems);
    const auto eq = rest.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--param-sweep " + item + ": expected [PROBLEM:]KEY=V1,V2,...");
    ParameterSweep s;
    s.key = rest.substr(0, eq);
    s.values = split_list(rest.substr(eq + 1), ',');
    if (s.values.empty()) throw UsageError("--param-sweep " + item + " gives no value");
    for (std::size_t i = 0; i < s.values.size(); ++i)
      for (std::size_t k = 0; k < i; ++k)
        if (s.values[i] == s.values[k]) throw UsageError("--param-sweep " + item + " gives '" + s.values[i] + "' twice");
    for (const auto& p : problems) {
      if (!problem.empty() && p != problem) continue;
      if (sweep_of.count(p))
        throw UsageError("--param-sweep: two sweeps for the problem '" + p + "'; one parameter is swept at a time");
      sweep_of[p] = s;
      sweep_of[p].problem = p;
    }
  }

  Instances out;
  for (const auto& problem : problems) {
    auto mine = parse_key_values(own[problem], ("--param " + problem + ":").c_str());
    mine.insert(common.begin(), common.end());  // keeps the problem's own value for a key given for all
    auto swept = sweep_of.find(problem);
    if (swept == sweep_of.end()) {
      out.list.push_back({problem, problem, mine});
      continue;
    }
    ParameterSweep& s = swept->second;
    if (mine.count(s.key))
      throw UsageError("--param-sweep sweeps '" + s.key + "' of " + problem + ", which --param also sets");
    for (const auto& value : s.values) {
      Instance instance{label_of(problem, s.key, value), problem, mine};
      instance.params[s.key] = value;
      s.labels.push_back(instance.label);
      out.list.push_back(instance);
    }
    out.sweeps.push_back(s);
  }
  for (std::size_t i = 0; i < out.list.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (out.list[i].label == out.list[k].label)
        throw UsageError("the sweep names the problem instance '" + out.list[i].label + "' twice");
  return out;
}

}  // namespace daekit::host::wpd
