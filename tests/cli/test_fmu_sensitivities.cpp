// An FMU's real parameters as the problem's real parameters (ABI 1.3): listed, changed
// between solves (the FMU restarts from its initialisation with them), and sensitivities
// with respect to them from df/dp by instances with one parameter moved, each against
// the native twin whose df/dp is analytic.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <string>

#include "harness.hpp"

namespace {

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

std::string fmu(const std::string& name) { return daekit::test::fmu_dir() + "/" + name + ".fmu"; }

daekit::Solution solve_with_sensitivities(const daekit::ProblemHandle& problem, const std::string& solver) {
  daekit::SolveOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-10;
  options.output = DK_OUTPUT_END;
  options.sensitivities = {"eps", "y0:y1", "y0:y2"};
  options.sensitivity_error_control = true;
  return daekit::solve(problem, registry().solver(solver), options);
}

}  // namespace

TEST_CASE("an FMU's dy/dp (df/dp from moved instances) agrees with its native twin's (analytic df/dp)",
          "[fmu][sensitivities]") {
  const auto native = registry().problem("vdpol", {{"eps", "1e-3"}});
  for (const std::string solver : {"cvode", "bdf", "radau5", "rodas5p"}) {
    const daekit::Solution reference = solve_with_sensitivities(native, solver);
    REQUIRE(reference.success());
    for (const char* version : {"van_der_pol_fmi2", "van_der_pol_fmi3"}) {
      INFO(solver << ", " << version);
      const auto model = registry().problem("fmu", {{"file", fmu(version)}, {"eps", "1e-3"}});
      const daekit::Solution s = solve_with_sensitivities(model, solver);
      REQUIRE(s.success());
      REQUIRE(s.sensitivity_names == reference.sensitivity_names);
      // Two runs of one method whose step sequences differ by rounding: apart by their global
      // errors, which for bdf reach 1.5e-6 here (against radau5's, at rtol 1e-10).
      const double tolerance = solver == "bdf" ? 5e-6 : 1e-6;
      const std::size_t end = reference.size() - 1;
      for (std::size_t k = 0; k < 3; ++k) {
        const double largest =
            std::max(std::abs(reference.sensitivity(end, 0, k)), std::abs(reference.sensitivity(end, 1, k)));
        for (std::size_t i = 0; i < 2; ++i) {
          INFO("d y" << i + 1 << " / d " << s.sensitivity_names[k] << ": " << s.sensitivity(s.size() - 1, i, k)
                     << " against " << reference.sensitivity(end, i, k));
          CHECK(std::abs(s.sensitivity(s.size() - 1, i, k) - reference.sensitivity(end, i, k)) <= tolerance * largest);
        }
      }
    }
  }
}

TEST_CASE("an FMU's parameters are listed and change between solves without re-creating it", "[fmu][parameters]") {
  const auto model = registry().problem("fmu", {{"file", fmu("van_der_pol_fmi2")}, {"eps", "1e-3"}});
  const auto& instance = model.instance();
  REQUIRE(instance.parameter_count() == 2);  // eps and fail_after: the real parameters, fixed or tunable
  CHECK(instance.parameter_name(0) == "eps");
  CHECK(instance.nominal_parameter(0) == 1e-3);  // the value --param gave
  daekit::SolveOptions options;
  options.rtol = 1e-9;
  options.atol = 1e-9;
  options.output = DK_OUTPUT_END;
  auto end = [&](const daekit::ProblemHandle& p) {
    const daekit::Solution s = daekit::solve(p, registry().solver("radau5"), options);
    REQUIRE(s.success());
    return std::vector<double>(s.point(s.size() - 1), s.point(s.size() - 1) + 2);
  };
  const auto first = end(model);
  instance.set_parameters({2e-3, 1e300});
  const auto moved = end(model), twin = end(registry().problem("vdpol", {{"eps", "2e-3"}}));
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("y" << i + 1);
    CHECK(std::abs(moved[i] - twin[i]) <= 1e-6 * (1.0 + std::abs(twin[i])));
    CHECK(std::abs(moved[i] - first[i]) > 1e-3);
  }
  instance.set_parameters({1e-3, 1e300});
  const auto back = end(model);
  CHECK(back == first);
}

TEST_CASE("an FMU event that resets y ends a sensitivity run there, saying why", "[fmu][sensitivities]") {
  // The FMU gives no derivatives of its reset (FMI has none): s cannot be carried past it.
  daekit::SolveOptions options;
  options.sensitivities = {"g", "e"};
  const daekit::Solution s = daekit::solve(registry().problem("fmu", {{"file", fmu("bouncing_ball_fmi2")}}),
                                           registry().solver("bdf"), options);
  CHECK(s.status == daekit::Status::unsupported_problem);
  CHECK_THAT(s.message, Catch::Contains("changed y") && Catch::Contains("event_derivatives"));
}

TEST_CASE("daekit check passes an FMU's df/dp and dg/dp: new parameters reach the evaluations that follow",
          "[fmu][parameters]") {
  for (const char* version : {"van_der_pol_fmi2", "bouncing_ball_fmi3"}) {
    INFO(version);
    std::string out;
    CHECK(daekit::test::run_command(daekit::test::daekit_binary() + " check " + daekit::test::plugin_dir() + "/fmu.so --param file=" + fmu(version) + " 2>&1",
                                    &out) == 0);
    CHECK_THAT(out, Catch::Contains("[pass] df/dp agrees with differences"));
    CHECK_THAT(out, !Catch::Contains("[FAIL]"));
  }
}
