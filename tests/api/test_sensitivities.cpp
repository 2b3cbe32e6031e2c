// Forward sensitivities (ABI 1.3) through the library: each against an independent
// reference (closed forms written here; central differences of tight solves at moved
// parameters or initial values), with each way the SDK and the solvers build the
// sensitivity equations (exact df/dp or the SDK's differences in p; exact Jacobian
// products or directional differences), and the refusals that come before a run.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <iomanip>
#include <span>
#include <sstream>

namespace {

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

// y' = -k y + c, y(0) = y0: y = c/k + (y0 - c/k) e^{-kt}.
struct DecayExact {
  double k, c, y0, t;
  double e() const { return std::exp(-k * t); }
  double y() const { return c / k + (y0 - c / k) * e(); }
  double dk() const { return -c / (k * k) + c / (k * k) * e() - t * (y0 - c / k) * e(); }
  double dc() const { return (1.0 - e()) / k; }
  double dy0() const { return e(); }
};

// With_jacobian: exact Jacobian products, else directional differences; with_dfdp: the
// problem's df/dp, else the SDK's central differences in p.
template <bool with_jacobian, bool with_dfdp>
class Decay : public daekit::Problem {
 public:
  Decay() {
    info_.name = "decay_sens";
    info_.title = "y' = -k y + c";
    info_.n = 1;
    info_.tend = 2.0;
    info_.analytic_jacobian = with_jacobian;
    info_.parameters = {{"k", 1.5, 0.0}, {"c", 0.5, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 1.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0] + p(1);
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView j) override {
    if (!with_jacobian) return daekit::Eval::not_provided;
    j(0, 0) = -p(0);
    return daekit::Eval::ok;
  }
  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    if (!with_dfdp) return daekit::Eval::not_provided;
    d(0, 0) = -y[0];
    d(0, 1) = 1.0;
    return daekit::Eval::ok;
  }
};

// y1' = -k y1, 0 = y2 - a y1 (index 1): y1 = e^{-kt}, y2 = a e^{-kt}.
class LinearDae : public daekit::Problem {
 public:
  LinearDae() {
    info_.name = "linear_dae_sens";
    info_.title = "y1' = -k y1, 0 = y2 - a y1";
    info_.n = 2;
    info_.tend = 1.5;
    info_.mass = daekit::MassKind::constant;
    info_.differential = {1, 0};
    info_.parameters = {{"k", 0.7, 0.0}, {"a", 2.0, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override {
    y[0] = 1.0;
    y[1] = p(1);
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0];
    f[1] = y[1] - p(1) * y[0];
    return daekit::Eval::ok;
  }
  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    m.setZero();
    m(0, 0) = 1.0;
    return daekit::Eval::ok;
  }
};

daekit::Solution solve_with_sensitivities(const daekit::ProblemHandle& problem, const std::string& solver,
                                          std::vector<std::string> which, double rtol, bool error_control = true) {
  daekit::SolveOptions options;
  options.rtol = rtol;
  options.atol = rtol * 1e-2;
  options.output = DK_OUTPUT_END;
  options.sensitivities = std::move(which);
  options.sensitivity_error_control = error_control;
  daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
  INFO(s.message);
  REQUIRE(s.success());
  REQUIRE(s.sensitivity_count() == options.sensitivities.size());
  REQUIRE(s.s.size() == s.size() * s.n * s.sensitivity_count());
  return s;
}

double relative(double got, double want) { return std::abs(got - want) / std::max(std::abs(want), 1e-300); }

template <bool J, bool P>
void check_decay(const std::string& solver) {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay<J, P>>());
  const daekit::Solution s = solve_with_sensitivities(problem, solver, {"k", "c", "y0"}, 1e-10);
  const DecayExact x{1.5, 0.5, 1.0, 2.0};
  const std::size_t last = s.size() - 1;
  CHECK(s.sensitivity_names == std::vector<std::string>{"k", "c", "y0:y1"});
  CHECK(relative(s.sensitivity(last, 0, 0), x.dk()) < 1e-7);
  CHECK(relative(s.sensitivity(last, 0, 1), x.dc()) < 1e-7);
  CHECK(relative(s.sensitivity(last, 0, 2), x.dy0()) < 1e-7);
}

}  // namespace

TEST_CASE("sensitivities of y' = -k y + c match the closed form in every way they are built", "[api][sensitivities]") {
  // (ros3p, whose state itself needs 10^5 steps at rtol 1e-10, is tested at constant steps below.)
  for (const std::string solver :
       {"cvode", "ida", "bdf", "ndf", "radau5", "radauiia", "rodas5p", "rodas4", "rodas3", "ros34pw2"}) {
    INFO(solver);
    check_decay<true, true>(solver);
    check_decay<false, true>(solver);
    check_decay<true, false>(solver);
    check_decay<false, false>(solver);
  }
}

namespace {

// y' = -k y + c without a Jacobian, with its (df/dy) S = -k S (ABI 1.3 jacobian_sens).
class DecayProducts : public Decay<false, true> {
 public:
  daekit::Eval jacobian_sens(double, daekit::ConstVector, daekit::ConstMatrixView s, daekit::MatrixView js) override {
    ++calls;
    js = -p(0) * s;
    return daekit::Eval::ok;
  }
  static inline long calls = 0;
};

}  // namespace

TEST_CASE("a problem's (df/dy) S products stand in for differences of f, in every family", "[api][sensitivities]") {
  const DecayExact x{1.5, 0.5, 1.0, 2.0};
  for (const std::string solver : {"cvode", "ida", "bdf", "radau5", "radauiia", "rodas5p", "ros34pw2"}) {
    INFO(solver);
    DecayProducts::calls = 0;
    const auto problem = daekit::ProblemHandle::from(std::make_unique<DecayProducts>());
    const daekit::Solution s = solve_with_sensitivities(problem, solver, {"k", "c", "y0"}, 1e-10);
    CHECK(s.stats.nfev_sens == 0);  // no differences of f: the products did it
    CHECK(DecayProducts::calls > 0);
    const std::size_t last = s.size() - 1;
    CHECK(relative(s.sensitivity(last, 0, 0), x.dk()) < 1e-7);
    CHECK(relative(s.sensitivity(last, 0, 1), x.dc()) < 1e-7);
    CHECK(relative(s.sensitivity(last, 0, 2), x.dy0()) < 1e-7);
  }
}

TEST_CASE("Prothero-Robinson's sensitivities match their closed forms, mild and stiff, in every family",
          "[api][sensitivities]") {
  // y' = L (y - g(t)) + g'(t), y(0) = g(0): y = g for every L, so dy/dL = 0, and dy/dy0 =
  // e^{L t}. Non-autonomous: the Rosenbrock methods' f_t terms of s are exercised too.
  for (const std::string solver :
       {"cvode", "ida", "bdf", "ndf", "radau5", "radauiia", "rodas5p", "rodas4", "ros34pw2"})
    for (const double lambda : {-2.0, -1e6}) {
      INFO(solver << ", L = " << lambda);
      std::ostringstream text;
      text << lambda;
      daekit::SolveOptions options;
      options.rtol = 1e-10;
      options.atol = 1e-10;
      options.saveat = {0.5, 1.0, 2.0};
      options.output = DK_OUTPUT_SAVEAT;
      options.sensitivities = {"L", "y0"};
      // Error control off (the default): dy/dL is 0 in exact arithmetic, forced only by y's
      // error, and in the error test with atol 1e-10 it makes the BDF codes crawl (cvode
      // 42 021 steps, ida 19 269 (then 10^5 with y0 too), bdf 10 188, against 768 off).
      const daekit::Solution s =
          daekit::solve(registry().problem("prothero_robinson", {{"L", text.str()}}), registry().solver(solver), options);
      INFO(s.message);
      REQUIRE(s.success());
      REQUIRE(s.size() == 3);
      for (std::size_t p = 0; p < s.size(); ++p) {
        INFO("t = " << s.t[p] << ": dy/dL " << s.sensitivity(p, 0, 0) << ", dy/dy0 " << s.sensitivity(p, 0, 1));
        // L dy/dL is forced by y's own error alone (s' = L s + (y - g)): no larger than it.
        CHECK(std::abs(lambda * s.sensitivity(p, 0, 0)) < 1e-7);
        CHECK(std::abs(s.sensitivity(p, 0, 1) - std::exp(lambda * s.t[p])) < 1e-7 * std::exp(lambda * s.t[p]) + 1e-12);
      }
    }
}

TEST_CASE("sensitivities of an index-1 DAE match the closed form, algebraic parts from the constraint",
          "[api][sensitivities]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<LinearDae>());
  for (const std::string solver : {"ida", "bdf", "radau5", "rodas5p"}) {
    INFO(solver);
    const daekit::Solution s = solve_with_sensitivities(problem, solver, {"k", "a", "y0:y1"}, 1e-10);
    const double k = 0.7, a = 2.0, t = 1.5, e = std::exp(-k * t);
    const std::size_t last = s.size() - 1;
    CHECK(relative(s.sensitivity(last, 0, 0), -t * e) < 1e-7);      // dy1/dk
    CHECK(relative(s.sensitivity(last, 1, 0), -a * t * e) < 1e-7);  // dy2/dk
    CHECK(std::abs(s.sensitivity(last, 0, 1)) < 1e-12);             // dy1/da
    CHECK(relative(s.sensitivity(last, 1, 1), e) < 1e-7);           // dy2/da
    CHECK(relative(s.sensitivity(last, 0, 2), e) < 1e-7);           // dy1/dy1(0)
    CHECK(relative(s.sensitivity(last, 1, 2), a * e) < 1e-7);       // dy2/dy1(0), through the constraint
  }
}

TEST_CASE("the families agree on chemakzo's sensitivities (index 1) to 6 digits", "[api][sensitivities]") {
  // No closed form: the five families against each other, y0:y1 and y0:y4 at t = 180.
  std::vector<std::vector<double>> results;
  for (const std::string solver : {"ida", "bdf", "radau5", "rodas5p"}) {
    INFO(solver);
    daekit::SolveOptions options;
    options.rtol = 1e-10;
    options.atol = 1e-12;
    options.output = DK_OUTPUT_END;
    options.sensitivities = {"y0:y1", "y0:y4"};
    options.sensitivity_error_control = true;
    const daekit::Solution s = daekit::solve(registry().problem("chemakzo"), registry().solver(solver), options);
    REQUIRE(s.success());
    results.emplace_back(s.s.end() - static_cast<std::ptrdiff_t>(s.n * 2), s.s.end());
  }
  for (std::size_t r = 1; r < results.size(); ++r)
    for (std::size_t i = 0; i < results[0].size(); ++i) {
      INFO("family " << r << ", entry " << i << ": " << results[r][i] << " against " << results[0][i]);
      CHECK(std::abs(results[r][i] - results[0][i]) <= 1e-6 * std::max(1.0, std::abs(results[0][i])));
    }
}

namespace {

// y(tend) of a tight solve (radauiia, rtol 1e-13) with one parameter moved.
std::vector<double> tight_end(const std::string& problem_name, const std::string& parameter, double value,
                              double tend) {
  std::ostringstream text;  // every digit: std::to_string keeps six decimals (0.0007 +- 7e-8 would be equal)
  text << std::setprecision(17) << value;
  const auto problem = registry().problem(problem_name, {{parameter, text.str()}});
  daekit::SolveOptions options;
  options.rtol = 1e-13;
  options.atol = 1e-20;
  options.tend = tend;
  options.output = DK_OUTPUT_END;
  const daekit::Solution s = daekit::solve(problem, registry().solver("radauiia"), options);
  REQUIRE(s.success());
  return std::vector<double>(s.point(s.size() - 1), s.point(s.size() - 1) + s.n);
}

}  // namespace

namespace {

// Every solver's dy/dk at tend (rtol 1e-10, the sensitivities in the error test) against
// central differences of tight solves with k moved by 1e-4 of itself: `digits` digits
// relative to the largest entry of each column.
void check_against_differences(const std::string& problem, const std::vector<std::pair<std::string, double>>& constants,
                               double tend, double digits,
                               const std::vector<std::string>& solvers = {"cvode", "ida", "bdf", "radau5", "radauiia",
                                                                          "rodas5p"},
                               const daekit::SolveOptions& base = {}) {
  std::vector<std::vector<double>> reference;  // reference[k][i] = d y_i / d k
  for (const auto& [name, value] : constants) {
    const double h = value * 1e-4;
    const auto up = tight_end(problem, name, value + h, tend), down = tight_end(problem, name, value - h, tend);
    reference.emplace_back();
    for (std::size_t i = 0; i < up.size(); ++i) reference.back().push_back((up[i] - down[i]) / (2 * h));
  }
  std::vector<std::string> names;
  for (const auto& c : constants) names.push_back(c.first);
  for (const std::string& solver : solvers) {
    INFO(problem << ", " << solver);
    daekit::SolveOptions options = base;
    options.rtol = 1e-10;
    options.atol = 1e-16;
    options.tend = tend;
    options.output = DK_OUTPUT_END;
    options.sensitivities = names;
    options.sensitivity_error_control = true;
    const daekit::Solution s = daekit::solve(registry().problem(problem), registry().solver(solver), options);
    REQUIRE(s.success());
    for (std::size_t k = 0; k < constants.size(); ++k) {
      double largest = 0.0;
      for (double v : reference[k]) largest = std::max(largest, std::abs(v));
      for (std::size_t i = 0; i < reference[k].size(); ++i) {
        INFO("d y" << i + 1 << " / d " << constants[k].first << ": " << s.sensitivity(s.size() - 1, i, k) << " against "
                   << reference[k][i]);
        CHECK(std::abs(s.sensitivity(s.size() - 1, i, k) - reference[k][i]) <= std::pow(10.0, -digits) * largest);
      }
    }
  }
}

}  // namespace

TEST_CASE("Robertson's and hires' dy/dk against central differences of tight solves, at rtol 1e-10",
          "[api][sensitivities]") {
  check_against_differences("rober", {{"k1", 0.04}, {"k2", 3e7}, {"k3", 1e4}}, 4e5, 6.0);
  check_against_differences("hires", {{"k1", 1.71}, {"k7", 280.0}, {"Oks", 0.0007}}, 321.8122, 6.0);
}

TEST_CASE("chemakzo's dy/dp (index 1; Ks moves the algebraic y6(0) too) against central differences of tight solves",
          "[api][sensitivities]") {
  check_against_differences("chemakzo", {{"k1", 18.7}, {"klA", 3.3}, {"Ks", 115.83}}, 180.0, 6.0,
                            {"ida", "bdf", "radau5", "radauiia", "rodas5p"});
}

TEST_CASE("Robertson's DAE with y >= 0 and the sensitivities in the error test, in every DAE family",
          "[api][sensitivities]") {
  // y3 = 1 - y1 - y2 rounds to -2e-15 in the first steps; charged to y3's projection budget
  // (atol = 1e-13) as if it were y3's own error, it used the budget up at t = 6e-9 and ida
  // ended there (error_test_failures, 51 projections). An algebraic component's round-off
  // is that of the largest component it is computed from (core/src/numerics/constraint_guard.cpp).
  for (const std::string solver : {"ida", "bdf", "radau5", "radauiia", "rodas5p"})
    for (const double rtol : {1e-6, 1e-7, 1e-8, 1e-10}) {
      INFO(solver << " at " << rtol);
      daekit::SolveOptions options;
      options.rtol = rtol;
      options.atol = 1e-6 * rtol;
      options.tend = 4e5;
      options.output = DK_OUTPUT_END;
      options.sensitivities = {"all"};
      options.sensitivity_error_control = true;
      const daekit::Solution s = daekit::solve(registry().problem("rober_dae"), registry().solver(solver), options);
      INFO(s.message);
      CHECK(s.success());
    }
}

TEST_CASE("sensitivities come at every output point and follow the trajectory", "[api][sensitivities]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay<true, true>>());
  daekit::SolveOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  options.saveat = {0.0, 0.5, 1.0, 2.0};
  options.output = DK_OUTPUT_SAVEAT;
  options.sensitivities = {"k"};
  for (const std::string solver : {"cvode", "ida", "bdf", "radau5", "rodas5p", "ros34pw2"}) {
    INFO(solver);
    const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
    REQUIRE(s.success());
    REQUIRE(s.size() == 4);
    for (std::size_t p = 0; p < s.size(); ++p) {
      INFO("t = " << s.t[p]);
      const DecayExact x{1.5, 0.5, 1.0, s.t[p]};
      CHECK(std::abs(s.sensitivity(p, 0, 0) - x.dk()) < 1e-7);
    }
  }
}

TEST_CASE("bdf's sensitivities converge with the order of its formula at constant steps", "[api][sensitivities]") {
  // y' = -k y + c: dy/dk at t = 2 against the closed form, steps h = 2/N; the slope of
  // log error over log h between the two finest steps still clear of round-off.
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay<true, true>>());
  const DecayExact x{1.5, 0.5, 1.0, 2.0};
  for (int order = 1; order <= 5; ++order) {
    INFO("order " << order);
    std::vector<double> hs, errors;
    for (int steps : {40, 80, 160, 320, 640}) {
      daekit::SolveOptions options;
      options.rtol = 1e-13;
      options.atol = 1e-13;
      options.output = DK_OUTPUT_END;
      options.sensitivities = {"k"};
      options.solver_options = {{"fixed_step", std::to_string(2.0 / steps)}, {"max_order", std::to_string(order)}};
      const daekit::Solution s = daekit::solve(problem, registry().solver("bdf"), options);
      REQUIRE(s.success());
      const double error = std::abs(s.sensitivity(s.size() - 1, 0, 0) - x.dk());
      if (error < 1e-11) break;
      hs.push_back(2.0 / steps);
      errors.push_back(error);
    }
    REQUIRE(hs.size() >= 2);
    const std::size_t a = hs.size() - 2, b = hs.size() - 1;
    const double slope = std::log(errors[a] / errors[b]) / std::log(hs[a] / hs[b]);
    INFO("errors " << errors[a] << ", " << errors[b]);
    CHECK(std::abs(slope - order) <= 0.3);
  }
}

TEST_CASE("one-step methods' sensitivities converge with the method's order at constant steps",
          "[api][sensitivities]") {
  // Constant steps: h0 = hmax = 2/N at a tolerance no step fails; dy/dk at t = 2. The
  // Rosenbrock methods need the second-derivative term here (df/dk = -y moves with y):
  // without it their sensitivities fall to order 1.
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay<true, true>>());
  const DecayExact x{1.5, 0.5, 1.0, 2.0};
  for (const auto& [solver, order] : {std::pair{"radau5", 5}, std::pair{"rodas5p", 5}, std::pair{"rodas4", 4},
                                     std::pair{"rodas3", 3}, std::pair{"ros34pw2", 3}, std::pair{"ros3p", 3}}) {
    INFO(solver);
    std::vector<double> hs, errors;
    for (int steps : {4, 8, 16, 32, 64}) {
      daekit::SolveOptions options;
      options.rtol = 1e-1;
      options.atol = 1e-1;
      options.h0 = options.hmax = 2.0 / steps;
      options.output = DK_OUTPUT_END;
      options.sensitivities = {"k"};
      const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
      REQUIRE(s.success());
      REQUIRE(s.stats.accepted == steps);
      REQUIRE(s.stats.rejected == 0);
      const double error = std::abs(s.sensitivity(s.size() - 1, 0, 0) - x.dk());
      if (error < 1e-11) break;
      hs.push_back(2.0 / steps);
      errors.push_back(error);
    }
    REQUIRE(hs.size() >= 3);
    for (std::size_t i = 1; i < hs.size(); ++i) {
      const double slope = std::log(errors[i - 1] / errors[i]) / std::log(hs[i - 1] / hs[i]);
      INFO("h " << hs[i] << ": errors " << errors[i - 1] << ", " << errors[i]);
      // The order, approached from below (ros3p: 2.46, 2.65, 2.79, 2.89 from h = 1/2 on) and
      // met on the finest pair; above it by at most 0.8 where the error nears the round-off
      // of the second-derivative differences (rodas5p at h = 1/8: 9.9e-11, slope 5.56).
      CHECK(slope >= order - (i + 1 == hs.size() ? 0.3 : 0.6));
      CHECK(slope <= order + 0.8);
    }
  }
}

TEST_CASE("radauiia's sensitivities at each of its orders (3, 5, 7 stages) and through its order changes",
          "[api][sensitivities]") {
  // The closed form of y' = -k y + c at the end and between steps (its collocation
  // polynomial at saveat times), each stage count fixed, then free to change.
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay<true, true>>());
  for (const std::string stages : {"3", "5", "7", ""}) {
    INFO("stages " << (stages.empty() ? "3-7" : stages));
    daekit::SolveOptions options;
    options.rtol = 1e-11;
    options.atol = 1e-13;
    options.saveat = {0.3, 1.1, 1.7, 2.0};
    options.output = DK_OUTPUT_SAVEAT;
    options.sensitivities = {"k", "c", "y0"};
    options.sensitivity_error_control = true;
    if (!stages.empty())
      options.solver_options = {{"min_stages", stages}, {"max_stages", stages}, {"start_stages", stages}};
    const daekit::Solution s = daekit::solve(problem, registry().solver("radauiia"), options);
    REQUIRE(s.success());
    REQUIRE(s.size() == 4);
    for (std::size_t p = 0; p < s.size(); ++p) {
      const DecayExact x{1.5, 0.5, 1.0, s.t[p]};
      INFO("t = " << s.t[p]);
      CHECK(relative(s.sensitivity(p, 0, 0), x.dk()) < 1e-8);
      CHECK(relative(s.sensitivity(p, 0, 1), x.dc()) < 1e-8);
      CHECK(relative(s.sensitivity(p, 0, 2), x.dy0()) < 1e-8);
    }
  }
}

TEST_CASE("between the steps of a method without a continuous extension s is cubic Hermite, of order 3 or more",
          "[api][sensitivities]") {
  // Constant steps 2/N; dy/dk at times inside steps. Their error is the method's (order 3)
  // plus the interpolant's (order 4): it falls at least as h^3 (a linear interpolant: h^2).
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Decay<true, true>>());
  for (const std::string solver : {"rodas3", "ros34pw2", "ros3p"}) {
    INFO(solver);
    std::vector<double> errors;
    for (int steps : {8, 16, 32}) {
      daekit::SolveOptions options;
      options.rtol = options.atol = 1e-1;
      options.h0 = options.hmax = 2.0 / steps;
      options.saveat = {0.3, 1.1, 1.7};  // 0.3 is 1.2, 2.4, 4.8 steps in
      options.output = DK_OUTPUT_SAVEAT;
      options.sensitivities = {"k"};
      const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
      REQUIRE(s.success());
      REQUIRE(s.stats.rejected == 0);
      double error = 0.0;
      for (std::size_t p = 0; p < s.size(); ++p)
        error = std::max(error, std::abs(s.sensitivity(p, 0, 0) - DecayExact{1.5, 0.5, 1.0, s.t[p]}.dk()));
      errors.push_back(error);
    }
    for (std::size_t i = 1; i < errors.size(); ++i) {
      INFO("errors " << errors[i - 1] << ", " << errors[i]);
      CHECK(std::log2(errors[i - 1] / errors[i]) >= 2.6);
    }
  }
}

namespace {

// y' = -k y whose df/dp turns NaN beyond t = 0.5.
class NanDfdp : public daekit::Problem {
 public:
  NanDfdp() {
    info_.name = "nan_dfdp";
    info_.n = 1;
    info_.tend = 1.0;
    info_.parameters = {{"k", 1.0, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 1.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0];
    return daekit::Eval::ok;
  }
  daekit::Eval dfdp(double t, daekit::ConstVector y, daekit::MatrixView d) override {
    d(0, 0) = t > 0.5 ? std::nan("") : -y[0];
    return daekit::Eval::ok;
  }
};

}  // namespace

TEST_CASE("a df/dp that turns NaN ends the run as a model failure that names it, in every family",
          "[api][sensitivities]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<NanDfdp>());
  daekit::SolveOptions options;
  options.sensitivities = {"k"};
  for (const std::string solver : {"cvode", "ida", "bdf", "radau5", "rodas5p"}) {
    INFO(solver);
    const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
    CHECK_FALSE(s.success());
    CHECK(s.t_reached <= 0.5 + 1e-9);
    CHECK_THAT(s.message, Catch::Contains("df/dp") && Catch::Contains("parameter 'k'"));
  }
}

TEST_CASE("sensitivities a solver or problem cannot give are refused before the run", "[api][sensitivities]") {
  daekit::SolveOptions options;
  options.sensitivities = {"all"};
  // (A solver without DK_SOLVER_SENSITIVITIES, every in-tree one having it: an ABI 1.1
  // fixture's, tests/cli/test_sensitivities_cli.cpp.)
  // Unknown names, with the closest; a problem without real parameters; a repeat.
  options.sensitivities = {"k4"};
  CHECK_THROWS_WITH(daekit::solve(registry().problem("rober"), registry().solver("cvode"), options),
                    Catch::Contains("no real parameter 'k4'") && Catch::Contains("k1"));
  options.sensitivities = {"all"};
  CHECK_THROWS_WITH(daekit::solve(registry().problem("plei"), registry().solver("cvode"), options),
                    Catch::Contains("declares no real parameters"));
  options.sensitivities = {"k1", "k1"};
  CHECK_THROWS_WITH(daekit::solve(registry().problem("rober"), registry().solver("cvode"), options),
                    Catch::Contains("twice"));
  options.sensitivities = {"y0:y9"};
  CHECK_THROWS_WITH(daekit::solve(registry().problem("rober"), registry().solver("cvode"), options),
                    Catch::Contains("no component 'y9'"));
  // The index-2 and index-3 pendulums: test_sensitivities_index2.cpp.
}

namespace {

// y' = -k y from y(0) = a, a parameter: y = a e^{-kt}, dy/da = e^{-kt}, dy/dk = -t a e^{-kt}.
class DecayFromParameter : public daekit::Problem {
 public:
  DecayFromParameter() {
    info_.name = "decay_from_parameter";
    info_.title = "y' = -k y, y(0) = a";
    info_.n = 1;
    info_.tend = 1.5;
    info_.parameters = {{"k", 0.8, 0.0}, {"a", 2.5, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = p(1); }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0];
    return daekit::Eval::ok;
  }
};

}  // namespace

TEST_CASE("a parameter the initial values depend on starts its sensitivity at dy0/dp, in every family",
          "[api][sensitivities]") {
  for (const std::string solver : {"cvode", "ida", "bdf", "radau5", "rodas5p"}) {
    INFO(solver);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<DecayFromParameter>());
    const daekit::Solution s = solve_with_sensitivities(problem, solver, {"k", "a"}, 1e-10);
    const std::size_t last = s.size() - 1;
    const double e = std::exp(-0.8 * 1.5);
    CHECK(relative(s.sensitivity(last, 0, 0), -1.5 * 2.5 * e) < 1e-7);
    CHECK(relative(s.sensitivity(last, 0, 1), e) < 1e-7);
  }
}

TEST_CASE("cvode's and ida's sensitivities with SUNDIALS' Krylov solvers match the closed forms and the LU's",
          "[api][sensitivities][krylov]") {
  const DecayExact x{1.5, 0.5, 1.0, 2.0};
  for (const std::string solver : {"cvode", "ida"}) {
    INFO(solver);
    // y' = -k y + c: no pattern, so no preconditioner; J v by SUNDIALS' differences.
    const auto decay = daekit::ProblemHandle::from(std::make_unique<Decay<true, true>>());
    daekit::SolveOptions options;
    options.rtol = 1e-10;
    options.atol = 1e-12;
    options.output = DK_OUTPUT_END;
    options.sensitivities = {"k", "c", "y0"};
    options.solver_options = {{"linear_solver", "spgmr"}};
    daekit::Solution s = daekit::solve(decay, registry().solver(solver), options);
    INFO(s.message);
    REQUIRE(s.success());
    CHECK(s.stats.linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
    const std::size_t last = s.size() - 1;
    CHECK(relative(s.sensitivity(last, 0, 0), x.dk()) < 1e-6);
    CHECK(relative(s.sensitivity(last, 0, 1), x.dc()) < 1e-6);
    CHECK(relative(s.sensitivity(last, 0, 2), x.dy0()) < 1e-6);
    // A large stiff grid with the problem's preconditioner: dy/dy0 of one cell against the LU's.
    const auto grid = registry().problem("brusselator", {{"N", "16"}});
    options = daekit::SolveOptions{};
    options.rtol = 1e-8;
    options.atol = 1e-8;
    options.tend = 1.5;
    options.output = DK_OUTPUT_END;
    options.sensitivities = {"y0:u1_1"};
    const daekit::Solution direct = daekit::solve(grid, registry().solver(solver), options);
    options.solver_options = {{"linear_solver", "spgmr"}, {"preconditioner", "problem"}};
    const daekit::Solution krylov = daekit::solve(grid, registry().solver(solver), options);
    REQUIRE(direct.success());
    REQUIRE(krylov.success());
    CHECK(krylov.stats.nprec_solves > 0);
    double worst = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < direct.n; ++i) {
      worst = std::max(worst, std::abs(krylov.sensitivity(direct.size() - 1, i, 0) - direct.sensitivity(direct.size() - 1, i, 0)));
      scale = std::max(scale, std::abs(direct.sensitivity(direct.size() - 1, i, 0)));
    }
    CHECK(worst <= 1e-5 * scale);
  }
}

TEST_CASE("sensitivities with linear_solver=krylov in bdf/ndf and the Rosenbrock family match differences and LUs",
          "[api][sensitivities][krylov]") {
  // Unpreconditioned, J v and (df/dy) S by differences of f: Robertson's stiff kinetics.
  daekit::SolveOptions unpreconditioned;
  unpreconditioned.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
  // (ndf and ros34pw2 share these paths: the grid below takes them.)
  check_against_differences("rober", {{"k1", 0.04}, {"k2", 3e7}, {"k3", 1e4}}, 4e5, 6.0, {"bdf", "rodas5p"},
                            unpreconditioned);
  // A stiff grid with the problem's own preconditioner (N = 12: its multigrid coarsens to
  // 3): dy/da of one cell's source and dy/dy0 of one cell against the same family's LU.
  const auto grid = registry().problem("brusselator", {{"N", "12"}, {"per_cell", "true"}});
  for (const std::string solver : {"bdf", "ndf", "rodas5p", "ros34pw2"}) {
    INFO(solver);
    daekit::SolveOptions options;
    options.rtol = 1e-8;
    options.atol = 1e-8;
    options.tend = 0.75;
    options.output = DK_OUTPUT_END;
    options.sensitivities = {"a3_5", "y0:u1_1"};
    const daekit::Solution direct = daekit::solve(grid, registry().solver(solver), options);
    options.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "problem"}};
    const daekit::Solution krylov = daekit::solve(grid, registry().solver(solver), options);
    REQUIRE(direct.success());
    INFO(krylov.message);
    REQUIRE(krylov.success());
    CHECK(krylov.stats.linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
    CHECK(krylov.stats.nprec_solves > 0);
    const std::size_t last = direct.size() - 1;
    for (std::size_t k = 0; k < 2; ++k) {
      double worst = 0.0, scale = 0.0;
      for (std::size_t i = 0; i < direct.n; ++i) {
        worst = std::max(worst, std::abs(krylov.sensitivity(last, i, k) - direct.sensitivity(last, i, k)));
        scale = std::max(scale, std::abs(direct.sensitivity(last, i, k)));
      }
      INFO("column " << k << ": largest difference " << worst << " of " << scale);
      CHECK(worst <= 1e-5 * scale);
    }
  }
}

TEST_CASE("sensitivities by unpreconditioned Krylov on stiff kinetics: within reach of the tolerance or failed",
          "[api][sensitivities][krylov]") {
  // pollu's dy/dk1 and dy/dk3 with GMRES(5) and no preconditioner, against the direct
  // LU's at 1e-12, each column weighed as its error test weighs it (y's tolerances on
  // pbar s). bdf's staggered corrector stopped on a correction whose Krylov solve had only
  // reduced its residual (small because the method stalled): dy/dk3 (pbar s ~ 1e-6) ended
  // 890 578 tolerances off at rtol 1e-6, with success. It now iterates on from such a
  // solve, as y's iteration does: measured 2.1 (ndf 0.6). ida: IDAS's corrector keeps
  // its first correction with the Krylov solve's error in it (971 tolerances off); its
  // linear tolerance with sensitivities is now a hundred times tighter (measured 7.3).
  daekit::SolveOptions exact;
  exact.rtol = exact.atol = 1e-12;
  exact.output = DK_OUTPUT_END;
  exact.sensitivities = {"k1", "k3"};
  const auto problem = registry().problem("pollu");
  const daekit::Solution reference = daekit::solve(problem, registry().solver("rodas5p"), exact);
  REQUIRE(reference.success());
  const double pbar[] = {0.35, 12300.0}, rtol = 1e-6;  // the parameters' scales
  for (const char* solver : {"bdf", "ndf", "ida"}) {
    INFO(solver);
    daekit::SolveOptions options = exact;
    options.rtol = options.atol = rtol;
    options.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
    const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
    INFO(s.message);
    REQUIRE(s.success());
    CHECK(s.stats.nlin_iters > 0);
    double error = 0.0;
    for (std::size_t c = 0; c < 2; ++c)
      for (std::size_t i = 0; i < s.n; ++i) {
        const double want = pbar[c] * reference.sensitivity(0, i, c), got = pbar[c] * s.sensitivity(0, i, c);
        error = std::max(error, std::abs(got - want) / (rtol + rtol * std::abs(want)));
      }
    CHECK(error < 30.0);
  }
}

TEST_CASE("ida's sensitivities with unpreconditioned Krylov on long steps match its LU's", "[api][sensitivities][krylov]") {
  // Robertson to t = 1e4 (steps up to hundreds): IDA tests a Krylov residual in F's units
  // against y's weights, and its staggered corrector kept a first correction solved only
  // to that tolerance: dy/dk2 ended 39 % off, and dy1 + dy2 + dy3 = 0 (Robertson's
  // conservation, which every correction keeps) was broken by a third of dy1. Measured
  // after: 2.9e-6 against the LU, the sum 6e-15 of dy1.
  daekit::SolveOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-10;
  options.tend = 1e4;
  options.output = DK_OUTPUT_END;
  options.sensitivities = {"k2"};
  const auto problem = registry().problem("rober");
  const daekit::Solution direct = daekit::solve(problem, registry().solver("ida"), options);
  options.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
  const daekit::Solution krylov = daekit::solve(problem, registry().solver("ida"), options);
  REQUIRE(direct.success());
  REQUIRE(krylov.success());
  const double s1 = krylov.sensitivity(0, 0, 0), s2 = krylov.sensitivity(0, 1, 0), s3 = krylov.sensitivity(0, 2, 0);
  CHECK(relative(s1, direct.sensitivity(0, 0, 0)) < 1e-4);
  CHECK(std::abs(s1 + s2 + s3) < 1e-4 * std::abs(s1));
}
