// Each solver's options are declared once (sdk/option_table.hpp): the default a solver
// lists is the one it runs with, and a value out of an option's range is refused naming
// the option. Checked for every in-tree solver and every option it lists.
#include <catch2/catch.hpp>
#include <cstring>

#include "harness.hpp"

using namespace daekit;
using daekit::test::run;
using daekit::test::spec_for;

namespace {

bool same_run(const dk_stats& a, const dk_stats& b) {
  return a.steps == b.steps && a.accepted == b.accepted && a.rejected == b.rejected && a.nfev == b.nfev &&
         a.njac == b.njac && a.nlu == b.nlu && a.nnewton == b.nnewton && a.h_last == b.h_last;
}

}  // namespace

TEST_CASE("every listed default is what a solver runs with", "[conformance][options]") {
  for (const auto& solver : test::in_tree_solvers()) {
    const loader::Plugin* plugin = test::registry().find(solver);
    REQUIRE(plugin);
    const loader::SolverInstance instance(*plugin);
    const dk_solver_info& info = instance.info();
    // hires: n = 8, below every size from which a default changes (radauiia's n >= 50).
    auto spec = spec_for("hires", solver, 1e-6);
    const auto plain = run(spec);
    REQUIRE(plain.status() == Status::success);
    for (std::size_t k = 0; k < info.noptions; ++k) {
      const dk_option_desc& o = info.options[k];
      INFO(solver << ": " << o.key << " = " << o.default_value);
      auto given = spec;
      given.solver_options[o.key] = o.default_value;
      const auto explicit_default = run(given);
      CHECK(explicit_default.status() == Status::success);
      CHECK(same_run(plain.stats(), explicit_default.stats()));
    }
  }
}

TEST_CASE("a value out of an option's range is refused naming the option", "[conformance][options]") {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"bdf", "max_order", "6"},          {"bdf", "newton_tol", "-1"},        {"ndf", "max_newton", "0"},
      {"rodas5p", "safety", "1.5"},       {"rodas5p", "fac_min", "1"},        {"ros34pw2", "max_jacobian_age", "0"},
      {"radau5", "fac_max", "0.5"},       {"radau5", "keep_step_low", "0"},   {"radauiia", "max_stages", "9"},
      {"radauiia", "jacobian_reuse", "-1"}, {"cvode", "max_order", "0"},      {"ida", "max_nonlinear_iterations", "0"},
  };
  for (const auto& [solver, key, value] : cases) {
    INFO(solver << ": " << key << " = " << value);
    auto spec = spec_for("hires", solver, 1e-6);
    spec.solver_options[key] = value;
    const auto r = run(spec);
    CHECK(r.status() == Status::invalid_input);
    CHECK_THAT(r.message(), Catch::Contains(key) && Catch::Contains("out of range"));
  }
}
