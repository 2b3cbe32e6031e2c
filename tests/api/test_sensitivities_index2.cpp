// Forward sensitivities of an index-2 DAE (Hessenberg form): the pendulum with its velocity
// constraint, x u + y v = 0, against an independent reference, the same motion in the
// angle, theta'' = -(g/L) sin theta, whose own sensitivity equations are integrated here
// in long double. The multiplier's sensitivity at t0 comes from the constraint's time
// derivative (the hidden constraint), which the columns dy/dy0 exercise: it is not zero.
#include <catch2/catch.hpp>
#include <array>
#include <cmath>
#include <daekit/daekit.hpp>
#include <iomanip>
#include <map>
#include <numbers>
#include <sstream>

namespace {

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

constexpr double L = 1.0, g = 9.81;

// d(x, y, u, v, lambda)/dq at t for q = g, x0 (the length: a pendulum released at rest
// from (L + e, 0) is one of length L + e) and y0 (released from (L, e): its angle starts
// e / L higher), from the angle form x = L sin th, y = -L cos th, u = L cos th w,
// v = L sin th w, lambda = w^2 + (g / L) cos th.
std::array<std::array<double, 5>, 3> angle_reference(double t_end) {
  using real = long double;
  const real k = g / L;
  // State: th, w, then (d th/dq, d w/dq) for q = g, L, th0.
  using State = std::array<real, 8>;
  auto slope = [k](const State& s) {
    const real sn = std::sin(s[0]), c = std::cos(s[0]);
    State d{};
    d[0] = s[1], d[1] = -k * sn;
    const real forcing[3] = {-sn / L, g / (static_cast<real>(L) * L) * sn, 0};
    for (int q = 0; q < 3; ++q) d[2 + 2 * q] = s[3 + 2 * q], d[3 + 2 * q] = -k * c * s[2 + 2 * q] + forcing[q];
    return d;
  };
  State s{std::numbers::pi_v<real> / 2, 0, 0, 0, 0, 0, 1 / static_cast<real>(L), 0};
  const int steps = 1 << 14;
  const real h = static_cast<real>(t_end) / steps;
  auto moved = [](const State& a, real f, const State& b) {
    State r;
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = a[i] + f * b[i];
    return r;
  };
  for (int i = 0; i < steps; ++i) {
    const State k1 = slope(s), k2 = slope(moved(s, h / 2, k1)), k3 = slope(moved(s, h / 2, k2)),
                k4 = slope(moved(s, h, k3));
    for (std::size_t j = 0; j < s.size(); ++j) s[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
  }
  const real th = s[0], w = s[1], sn = std::sin(th), c = std::cos(th);
  const real by_th[5] = {L * c, L * sn, -L * sn * w, L * c * w, -k * sn};
  const real by_w[5] = {0, 0, L * c, L * sn, 2 * w};
  const real explicit_g[5] = {0, 0, 0, 0, c / L};
  const real explicit_l[5] = {sn, -c, c * w, sn * w, -g / (static_cast<real>(L) * L) * c};
  std::array<std::array<double, 5>, 3> out{};
  for (int i = 0; i < 5; ++i) {
    out[0][i] = static_cast<double>(by_th[i] * s[2] + by_w[i] * s[3] + explicit_g[i]);
    out[1][i] = static_cast<double>(by_th[i] * s[4] + by_w[i] * s[5] + explicit_l[i]);
    out[2][i] = static_cast<double>(by_th[i] * s[6] + by_w[i] * s[7]);
  }
  return out;
}

daekit::Solution pendulum_sensitivities(const std::string& solver, double rtol, dk_output_mode output) {
  daekit::SolveOptions options;
  options.rtol = rtol;
  options.atol = rtol;
  options.output = output;
  options.sensitivities = {"g", "y0:x", "y0:y"};
  options.sensitivity_error_control = true;  // the accurate mode (without it radauiia's d lambda/dq: 1.2e-6)
  return daekit::solve(registry().problem("pendulum_dae"), registry().solver(solver), options);
}

}  // namespace

TEST_CASE("the index-2 pendulum's dy/dg, dy/dx0, dy/dy0 against the angle ODE's sensitivities, in every family",
          "[api][sensitivities][dae]") {
  const auto reference = angle_reference(3.0);
  // Digits relative to each column's largest entry, at rtol 1e-10 (the Rosenbrock methods
  // lose order on index 2, their state too: ten times radau5's steps there).
  struct Case {
    const char* solver;
    double rtol, digits;
  };
  for (const Case c : {Case{"radau5", 1e-10, 6.0}, Case{"radauiia", 1e-10, 6.0}, Case{"bdf", 1e-10, 6.0}, Case{"ndf", 1e-10, 6.0},
                       Case{"rodas5p", 1e-10, 6.0}, Case{"rodas4p2", 1e-10, 6.0}}) {
    INFO(c.solver);
    const daekit::Solution s = pendulum_sensitivities(c.solver, c.rtol, DK_OUTPUT_END);
    REQUIRE(s.success());
    for (std::size_t k = 0; k < 3; ++k) {
      double largest = 0.0;
      for (double v : reference[k]) largest = std::max(largest, std::abs(v));
      for (std::size_t i = 0; i < 5; ++i) {
        INFO("column " << s.sensitivity_names[k] << ", component " << i << ": " << s.sensitivity(s.size() - 1, i, k)
                       << " against " << reference[k][i]);
        CHECK(std::abs(s.sensitivity(s.size() - 1, i, k) - reference[k][i]) <= std::pow(10.0, -c.digits) * largest);
      }
    }
  }
}

TEST_CASE("the multiplier's initial sensitivity comes from the hidden constraint", "[api][sensitivities][dae]") {
  // lambda = (u^2 + v^2 - g y) / (x^2 + y^2) on the solution: d lambda / d y0 = -g / L^2
  // at t0, the other columns 0; s's other entries as given (e_x, e_y, 0).
  for (const std::string solver : {"radau5", "bdf", "rodas5p"}) {
    INFO(solver);
    const daekit::Solution s = pendulum_sensitivities(solver, 1e-8, DK_OUTPUT_EVERY_STEP);
    REQUIRE(s.success());
    CHECK(s.sensitivity(0, 4, 2) == Approx(-g / (L * L)).epsilon(1e-6));
    CHECK(std::abs(s.sensitivity(0, 4, 0)) < 1e-9);
    CHECK(std::abs(s.sensitivity(0, 4, 1)) < 1e-9);
    CHECK(s.sensitivity(0, 0, 1) == 1.0);
    CHECK(s.sensitivity(0, 1, 2) == 1.0);
  }
}

TEST_CASE("an initial-value sensitivity that leaves the index-2 constraint, or index 3, ends with the reason",
          "[api][sensitivities][dae]") {
  daekit::SolveOptions options;
  // u0 moves the velocity off x u + y v = 0 at (L, 0): no consistent solution moves so.
  options.sensitivities = {"y0:u"};
  for (const std::string solver : {"radau5", "bdf", "rodas5p"}) {
    INFO(solver);
    const daekit::Solution s = daekit::solve(registry().problem("pendulum_dae"), registry().solver(solver), options);
    CHECK_FALSE(s.success());
    CHECK_THAT(s.message, Catch::Contains("y0:u") && Catch::Contains("violates the constraint"));
  }
  // radau5 integrates index 3 (the others refuse the problem itself).
  options.sensitivities = {"g"};
  const daekit::Solution refused =
      daekit::solve(registry().problem("pendulum_dae", {{"index", "3"}}), registry().solver("radau5"), options);
  CHECK(refused.status == daekit::Status::unsupported_problem);
  CHECK_THAT(refused.message, Catch::Contains("index 1 and 2") && Catch::Contains("has index 3"));
  // ida's initial sensitivities come from IDACalcIC, which meets index 1 only.
  const daekit::Solution ida = daekit::solve(registry().problem("pendulum_dae"), registry().solver("ida"), options);
  CHECK(ida.status == daekit::Status::unsupported_problem);
  CHECK_THAT(ida.message, Catch::Contains("index-1"));
}

TEST_CASE("the slider crank's dy/dEE and dy/dRHO (index 2, 24 unknowns) against central differences of tight solves",
          "[api][sensitivities][dae]") {
  // The test set's constants under its names; its y0 is printed to 9 digits, so every solve
  // makes it consistent first (init fix), the moved ones included.
  const double tend = 0.02;
  auto solve = [&](const std::string& solver, const std::map<std::string, std::string>& params, double rtol,
                   std::vector<std::string> sensitivities) {
    daekit::SolveOptions options;
    options.rtol = options.atol = rtol;
    options.tend = tend;
    options.init = "fix";
    options.output = DK_OUTPUT_END;
    options.sensitivities = std::move(sensitivities);
    options.sensitivity_error_control = !options.sensitivities.empty();
    const daekit::Solution s = daekit::solve(registry().problem("crank", params), registry().solver(solver), options);
    INFO(s.message);
    REQUIRE(s.success());
    return s;
  };
  const std::vector<std::pair<std::string, double>> constants{{"EE", 0.2e12}, {"RHO", 7870.0}};
  std::vector<std::vector<double>> reference;  // reference[k][i] = d y_i / d q_k
  for (const auto& [name, value] : constants) {
    std::ostringstream up, down;
    up << std::setprecision(17) << value * (1 + 1e-4);
    down << std::setprecision(17) << value * (1 - 1e-4);
    const daekit::Solution a = solve("radauiia", {{name, up.str()}}, 1e-12, {});
    const daekit::Solution b = solve("radauiia", {{name, down.str()}}, 1e-12, {});
    reference.emplace_back();
    for (std::size_t i = 0; i < 24; ++i) reference.back().push_back((a.point(0)[i] - b.point(0)[i]) / (2e-4 * value));
  }
  for (const std::string solver : {"radau5", "radauiia"}) {
    INFO(solver);
    const daekit::Solution s = solve(solver, {}, 1e-9, {"EE", "RHO"});
    for (std::size_t k = 0; k < constants.size(); ++k) {
      double largest = 0.0;
      for (std::size_t i = 0; i < 14; ++i) largest = std::max(largest, std::abs(reference[k][i]));
      for (std::size_t i = 0; i < 14; ++i) {  // positions and velocities (index 1)
        INFO("d y" << i + 1 << " / d " << constants[k].first << ": " << s.sensitivity(0, i, k) << " against "
                   << reference[k][i]);
        CHECK(std::abs(s.sensitivity(0, i, k) - reference[k][i]) <= 1e-5 * largest);
      }
    }
  }
  // A length moves the constraints the printed y0 lies on: dy0/dL1 = 0 leaves them.
  daekit::SolveOptions options;
  options.init = "fix";
  options.sensitivities = {"L1"};
  const daekit::Solution refused = daekit::solve(registry().problem("crank"), registry().solver("radau5"), options);
  CHECK_THAT(refused.message, Catch::Contains("the sensitivity to L1") && Catch::Contains("violates the constraint"));
}
