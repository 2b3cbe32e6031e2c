#include "daekit/api/sensitivity_columns.hpp"

#include <algorithm>
#include <daekit/sdk/closest_names.hpp>
#include <daekit/sdk/parameter_differences.hpp>
#include <daekit/solve_request.hpp>

#include "daekit/api/discovery.hpp"

namespace daekit::api {
namespace {

std::int32_t append_sensitivities(void* env, double t, const double* s, std::size_t n, std::size_t ns) {
  auto* trajectory = static_cast<Trajectory*>(env);
  const std::size_t wanted = trajectory->sensitivity_names.size();
  if (n != trajectory->n || ns != wanted || !s) {
    trajectory->violation = "emitted sensitivities of " + std::to_string(n) + " x " + std::to_string(ns) +
                            " values for " + std::to_string(trajectory->n) + " x " + std::to_string(wanted);
    return 1;
  }
  // They belong to the point emitted just before, and to no other.
  const std::size_t points = trajectory->t.size();
  if (points == 0 || trajectory->t.back() != t || trajectory->s.size() != (points - 1) * n * ns) {
    trajectory->violation = "emitted sensitivities at t = " + format_number(t) + " without their point";
    return 1;
  }
  trajectory->s.insert(trajectory->s.end(), s, s + n * ns);
  return 0;
}

}  // namespace

std::size_t resolve_component(const dk_problem_info& info, const std::string& word, const std::string& option) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.n; ++i) names.push_back(component_name(info, i));
  const auto at = std::find(names.begin(), names.end(), word);
  if (at != names.end()) return static_cast<std::size_t>(at - names.begin());
  if (!word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      word.size() < 10) {
    const std::size_t i = std::stoul(word);
    if (i >= 1 && i <= info.n) return i - 1;
  }
  std::string msg = option + ": problem '" + std::string(info.name) + "' has no component '" + word + "'";
  const auto near = closest_names(word, names);
  for (std::size_t i = 0; i < near.size(); ++i) msg += (i == 0 ? "; did you mean '" : "', '") + near[i];
  if (!near.empty()) msg += "'?";
  throw UsageError(msg + " (name a component or give its 1-based index)");
}

SensitivityColumns resolve_sensitivities(const loader::ProblemInstance& problem, const std::vector<std::string>& words) {
  const dk_problem_info& info = problem.info();
  const std::size_t np = problem.parameter_count();
  std::vector<std::string> parameters;
  for (std::size_t i = 0; i < np; ++i) parameters.push_back(problem.parameter_name(i));
  SensitivityColumns columns;
  auto add = [&](std::int32_t index, const std::string& name) {
    if (std::find(columns.index.begin(), columns.index.end(), index) != columns.index.end())
      throw UsageError("--sensitivities names '" + name + "' twice");
    columns.index.push_back(index);
    columns.names.push_back(name);
  };
  for (const auto& word : words) {
    if (word == "all" || (word != "y0" && word.rfind("y0:", 0) != 0)) {
      if (np == 0)
        throw UsageError("--sensitivities: problem '" + std::string(info.name) +
                         "' declares no real parameters (`daekit info " + info.name +
                         "` lists them); ask for y0 to get sensitivities to the initial values");
    }
    if (word == "all") {
      for (std::size_t i = 0; i < np; ++i) add(static_cast<std::int32_t>(i), parameters[i]);
    } else if (word == "y0") {
      for (std::size_t i = 0; i < info.n; ++i) add(-1 - static_cast<std::int32_t>(i), sensitivity_name(info, -1 - static_cast<std::int32_t>(i)));
    } else if (word.rfind("y0:", 0) == 0) {
      const std::size_t i = resolve_component(info, word.substr(3), "--sensitivities");
      add(-1 - static_cast<std::int32_t>(i), sensitivity_name(info, -1 - static_cast<std::int32_t>(i)));
    } else {
      const auto at = std::find(parameters.begin(), parameters.end(), word);
      if (at == parameters.end()) {
        std::string msg = "--sensitivities: problem '" + std::string(info.name) + "' has no real parameter '" + word + "'";
        const auto near = closest_names(word, parameters);
        for (std::size_t i = 0; i < near.size(); ++i) msg += (i == 0 ? "; did you mean '" : "', '") + near[i];
        msg += near.empty() ? "" : "'?";
        throw UsageError(msg + " (it has: " + [&] {
          std::string all;
          for (const auto& p : parameters) all += (all.empty() ? "" : ", ") + p;
          return all;
        }() + ")");
      }
      add(static_cast<std::int32_t>(at - parameters.begin()), word);
    }
  }
  if (columns.index.empty()) throw UsageError("--sensitivities names nothing");
  return columns;
}

std::vector<double> initial_sensitivities(const loader::ProblemInstance& problem,
                                          const std::vector<std::int32_t>& index) {
  const dk_problem_info& info = problem.info();
  const std::size_t n = info.n;
  const std::vector<double> p = problem.parameters();
  std::vector<double> s(n * index.size(), 0.0), plus, minus, yp;
  bool depends = false, moved_any = false;
  try {
    for (std::size_t k = 0; k < index.size(); ++k) {
      const std::int32_t q = index[k];
      if (q < 0) {
        s[k * n + static_cast<std::size_t>(-1 - q)] = 1.0;
        continue;
      }
      const auto j = static_cast<std::size_t>(q);
      const double delta = sdk::parameter_increment(p[j], info.p_scale ? info.p_scale[j] : 0.0);  // as df/dp's
      std::vector<double> moved = p;
      moved_any = true;
      moved[j] = p[j] + delta;
      problem.set_parameters(moved);
      problem.initial_values(plus, yp);
      moved[j] = p[j] - delta;
      problem.set_parameters(moved);
      problem.initial_values(minus, yp);
      for (std::size_t i = 0; i < n; ++i) {
        s[k * n + i] = (plus[i] - minus[i]) / (2.0 * delta);
        depends = depends || plus[i] != minus[i];
      }
    }
  } catch (const loader::LoadError& e) {
    if (moved_any) problem.set_parameters(p);
    throw UsageError(std::string("the initial values' dependence on the parameters: ") + e.what());
  }
  if (moved_any) problem.set_parameters(p);
  if (!depends) return {};
  return s;
}

dk_sens_sink collect_sensitivities_into(Trajectory& trajectory) {
  return {sizeof(dk_sens_sink), &trajectory, &append_sensitivities};
}

}  // namespace daekit::api
