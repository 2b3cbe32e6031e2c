// The sweep `daekit wpd` will run (plan): the plugins, the setups and problem instances,
// and every point, each checked by loading the plugins in a child before anything runs.
#pragma once

#include <daekit/loader/registry.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "instances.hpp"
#include "request.hpp"
#include "setups.hpp"
#include "sweep.hpp"

namespace daekit::host::wpd {

struct Plan {
  loader::Registry registry;
  std::vector<Setup> setups;
  std::vector<std::string> solver_names;  // the plugins the setups use, once each
  Instances instances;
  std::vector<std::string> labels;        // the instances' labels, in order
  std::vector<Point> points;
  // Per instance label: t0, tend, n, exact (reference at any t), own_reference_at_tend.
  nlohmann::json problem_facts;

  const Instance& instance(const std::string& label) const;
};

// Throws UsageError for an unknown plugin, a point the plugins refuse as a whole (a
// setup's options), or plugins that cannot be loaded.
Plan plan_sweep(const Request& request);

}  // namespace daekit::host::wpd
