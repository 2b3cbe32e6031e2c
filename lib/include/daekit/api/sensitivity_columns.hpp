// Which sensitivities a run asks for (`--sensitivities all|p1,p2[,y0]`), resolved against
// the problem's real parameters and components, and the sink that stores s beside y.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <daekit/loader/registry.hpp>

#include "daekit/api/run_setup.hpp"

namespace daekit::api {

struct SensitivityColumns {
  std::vector<std::int32_t> index;  // dk_solve_options::sens_index
  std::vector<std::string> names;   // a parameter's name, or "y0:COMPONENT"
};

// Words: "all" (every real parameter), a parameter's name, "y0" (every initial value),
// "y0:NAME" or "y0:I" (one, by component name or 1-based index). UsageError names an
// unknown word with the closest names, a problem without parameters, and repeats.
SensitivityColumns resolve_sensitivities(const loader::ProblemInstance& problem, const std::vector<std::string>& words);

// The component `word` names: a component's name or its 1-based index. UsageError, with
// the closest names, for neither; `option` opens the message ("--sensitivities").
std::size_t resolve_component(const dk_problem_info& info, const std::string& word, const std::string& option);

// s(t0) for the columns `index` where the problem's initial values depend on its
// parameters (a dose, an initial concentration): dy0/dp by central differences of
// initial_values in each such parameter (the problem's p restored after), e_i for y0_i.
// Empty when y0 depends on none of them (the solvers' default s0 is then exact).
std::vector<double> initial_sensitivities(const loader::ProblemInstance& problem, const std::vector<std::int32_t>& index);

// Stores the sensitivities the solver emits into trajectory.s (trajectory.sensitivity_names
// and n set): n x ns per point, column-major, one block per point of trajectory.t.
dk_sens_sink collect_sensitivities_into(Trajectory& trajectory);

}  // namespace daekit::api
