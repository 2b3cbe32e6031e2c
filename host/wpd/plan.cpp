#include "plan.hpp"

#include <daekit/api/discovery.hpp>
#include <daekit/api/run_setup.hpp>
#include <daekit/solve_request.hpp>
#include <algorithm>
#include <set>

#include "../child_process.hpp"

namespace daekit::host::wpd {
namespace {

using nlohmann::json;

// What the solver says of a setup's options in a solve of one step: "" when it takes
// them, else why not (its message for invalid_input).
std::string refused_setup(const loader::ProblemInstance& problem, const loader::SolverInstance& solver,
                          api::RunSettings settings) {
  settings.max_steps = 1;
  const api::PreparedRun run(problem, solver, settings);
  api::Trajectory trajectory;
  const dk_result r = api::solve_checked(problem, solver, run.options(), trajectory, false);
  return r.status == DK_STATUS_INVALID_INPUT ? std::string(r.message) : "";
}

std::vector<Point> make_points(const Request& request, const Plan& plan) {
  std::vector<Point> points;
  for (const auto& instance : plan.instances.list)
    for (const auto& setup : plan.setups)
      for (double tol : request.tolerances) {
        Point p;
        p.problem = instance.problem;
        p.instance = instance.label;
        p.solver = setup.solver;
        p.setup = setup.name;
        p.setup_options = setup.all_options();
        p.params = instance.params;
        p.sweep_tol = tol;
        p.rtol = tol * setup.tol_factor;
        p.settings = request.settings;
        p.settings.rtol = p.rtol;
        if (request.atol_scale > 0) p.settings.atol = request.atol_scale * p.rtol;
        p.settings.solver_options = setup.solver_options;
        for (const auto& [k, v] : setup.run_settings) {
          if (k == "suppress-algebraic") p.settings.suppress_algebraic = v == "true";
          if (k == "index-scaling") p.settings.index_scaling = v == "true";
          if (k == "jacobian") p.settings.jacobian = v;
          if (k == "init") p.settings.init = v;
        }
        points.push_back(p);
      }
  return points;
}

// In the child: each point checked as the run will see it, and the facts of each problem.
std::string survey_points(const loader::Registry& registry, const std::vector<Point>& points) {
  json out;
  std::set<std::string> probed;
  try {
    for (const auto& p : points) {
      loader::ProblemInstance pi(*registry.find(p.problem), p.params);
      loader::SolverInstance si(*registry.find(p.solver));
      std::string why;
      if (!check_capabilities(si.info(), pi.info(), &why)) {
        out["points"].push_back({{"refused", why}});  // an unsupported row, the sweep goes on
      } else {
        api::PreparedRun check(pi, si, p.settings);
        out["points"].push_back({{"atol", check.atol_at(0)}});
        // A setup whose options the solver refuses as a whole (min_stages above
        // start_stages) is refused here, once, not run to invalid_input at every point.
        if (probed.insert(p.setup).second)
          if (const std::string refusal = refused_setup(pi, si, p.settings); !refusal.empty())
            return json{{"error", "--setup " + p.setup + " (" + p.solver + "): " + refusal}}.dump();
      }
      const auto& i = pi.info();
      out["problems"][p.instance] = {
          {"t0", i.t0}, {"tend", i.tend}, {"n", i.n}, {"exact", pi.has_reference_at()},
          {"own_reference_at_tend", (pi.has_stored_reference() && i.reference_t == i.tend) || pi.has_reference_at()}};
    }
  } catch (const std::exception& e) {
    out = {{"error", e.what()}};
  }
  return out.dump();
}

}  // namespace

const Instance& Plan::instance(const std::string& label) const {
  for (const auto& i : instances.list)
    if (i.label == label) return i;
  throw std::logic_error("no instance " + label);
}

Plan plan_sweep(const Request& request) {
  Plan plan{api::discover_plugins(request.plugins), {}, {}, {}, {}, {}, {}};
  plan.setups = make_setups(request.solvers, request.setup_texts, request.solver_opts);
  for (const auto& s : plan.setups)
    if (std::find(plan.solver_names.begin(), plan.solver_names.end(), s.solver) == plan.solver_names.end())
      plan.solver_names.push_back(s.solver);
  for (const auto& p : request.problems) api::require_plugin(plan.registry, p, DK_KIND_PROBLEM);
  for (const auto& s : plan.solver_names) api::require_plugin(plan.registry, s, DK_KIND_SOLVER);
  plan.instances = make_instances(request.problems, request.params, request.param_sweeps);
  for (const auto& instance : plan.instances.list) plan.labels.push_back(instance.label);
  plan.points = make_points(request, plan);

  // Plugin code runs in a child: a plugin that crashes when loaded ends the command with a message.
  const ChildOutcome surveyed = run_in_child([&] { return survey_points(plan.registry, plan.points); }, request.timeout);
  json survey;
  if (surveyed.finished()) survey = json::parse(surveyed.payload, nullptr, false);
  if (!survey.is_object() || survey.is_discarded())
    throw UsageError("the plugins could not be loaded to check the points: their code " +
                     surveyed.describe(request.timeout));
  if (survey.contains("error")) throw UsageError(survey["error"].get<std::string>());
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    const auto& row = survey["points"][i];
    if (row.contains("refused")) plan.points[i].refused = row["refused"].get<std::string>();
    if (row.contains("atol")) plan.points[i].atol = row["atol"].get<double>();
  }
  plan.problem_facts = survey["problems"];
  return plan;
}

}  // namespace daekit::host::wpd
