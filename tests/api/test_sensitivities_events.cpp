// Sensitivities carried through events (numerics/sensitivity_jump.hpp), each against a
// closed form differentiated exactly (dual numbers): a bouncing ball with respect to its
// restitution, gravity and initial state (root events with a reset that depends on p,
// the event times moving with p); a dose at a fixed time whose size is a parameter (a
// time event); a root that switches the equations without touching y (the jump from
// y'- to y'+ alone). And what cannot be carried through an event is refused, or ends the
// run at the event with a message, never a silently wrong dy/dp.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <daekit/sdk/dual.hpp>

#include "ball_closed_form.hpp"
#include "event_problems.hpp"

namespace {

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

// The solvers that carry sensitivities through events.
const std::vector<std::string>& families() {
  static const std::vector<std::string> names{"cvode", "ida", "bdf", "ndf", "radau5", "radauiia", "rodas5p", "rodas4"};
  return names;
}

using D4 = daekit::Dual<4>;
D4 seeded(double value, int k) {
  D4 d(value);
  d.d[static_cast<std::size_t>(k)] = 1.0;
  return d;
}

using daekit::test::ball_at;
using namespace event_problems;

// y' + k y = 0 in residual form, watching y = 1/2: sensitivities through its event are refused.
class ResidualWithRoot : public daekit::Problem {
 public:
  ResidualWithRoot() {
    info_.name = "residual_root_sens";
    info_.title = "a residual-form problem with a root function";
    info_.n = 1;
    info_.form = daekit::Form::residual_only;
    info_.has_yp0 = true;
    info_.roots = {{"half", DK_ROOT_FALLING, false}};
    info_.parameters = {{"k", 1.0, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    y[0] = 1.0;
    yp[0] = -p(0);
  }
  daekit::Eval rhs(double, daekit::ConstVector, daekit::Vector) override { return daekit::Eval::not_provided; }
  daekit::Eval residual(double, daekit::ConstVector y, daekit::ConstVector yp, daekit::Vector r) override {
    r[0] = yp[0] + p(0) * y[0];
    return daekit::Eval::ok;
  }
  daekit::Eval roots(double, daekit::ConstVector y, daekit::Vector g) override {
    g[0] = y[0] - 0.5;
    return daekit::Eval::ok;
  }
};

daekit::SolveOptions options_for(std::vector<std::string> which, double rtol, std::vector<double> saveat = {}) {
  daekit::SolveOptions options;
  options.rtol = rtol;
  options.atol = rtol * 1e-2;
  options.sensitivities = std::move(which);
  if (saveat.empty())
    options.output = DK_OUTPUT_END;
  else
    options.saveat = std::move(saveat);
  return options;
}

double relative(double got, double want) { return std::abs(got - want) / std::max(std::abs(want), 1e-12); }

}  // namespace

TEST_CASE("a bouncing ball's dy/de, dy/dg, dy/dy0 through its bounces match the closed form in every family",
          "[api][sensitivities][events]") {
  // Impacts at t = 1.59, 3.89, 5.73: points in the first fall and after each bounce.
  const std::vector<double> saveat{1.0, 2.5, 4.0, 5.0, 6.0};
  for (const std::string& solver : families()) {
    INFO(solver);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<Ball>(true));
    const daekit::Solution s =
        daekit::solve(problem, registry().solver(solver), options_for({"e", "g", "y0:x", "y0:v"}, 1e-10, saveat));
    INFO(s.message);
    REQUIRE(s.success());
    REQUIRE(s.size() == saveat.size());
    CHECK(s.stats.nevents == 3);
    for (std::size_t k = 0; k < s.size(); ++k) {
      const auto exact = ball_at(seeded(10.0, 2), seeded(1.5, 3), seeded(0.8, 0), seeded(9.81, 1), s.t[k]);
      for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t q = 0; q < 4; ++q) {
          INFO("t=" << s.t[k] << " component " << i << " column " << q);
          CHECK(relative(s.point(k)[i], exact[i].v) < 1e-7);
          CHECK(relative(s.sensitivity(k, i, q), exact[i].d[q]) < 1e-6);
        }
    }
  }
}

TEST_CASE("the ball's sensitivities follow the tolerance down (the jump adds no error floor of its own)",
          "[api][sensitivities][events]") {
  // Free flights are quadratics, which radau5 and bdf integrate exactly: their error is the
  // events' location alone, already far below these bounds at loose tolerances.
  const auto exact = ball_at(D4(10.0), D4(1.5), seeded(0.8, 0), seeded(9.81, 1), 6.0);
  for (const std::string solver : {"cvode", "bdf", "radau5", "rodas4"}) {
    INFO(solver);
    for (const double rtol : {1e-5, 1e-7, 1e-9, 1e-11}) {
      const auto problem = daekit::ProblemHandle::from(std::make_unique<Ball>(true));
      const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options_for({"e", "g"}, rtol));
      INFO(s.message);
      REQUIRE(s.success());
      double error = 0.0;
      for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t q = 0; q < 2; ++q)
          error = std::max(error, relative(s.sensitivity(s.size() - 1, i, q), exact[i].d[q]));
      INFO("rtol " << rtol << ": " << error);
      CHECK(error < std::max(1e3 * rtol, 1e-9));
    }
  }
}

TEST_CASE("a dose at a fixed time whose size is a parameter: dy/dk and dy/dD through the time event",
          "[api][sensitivities][events]") {
  using D2 = daekit::Dual<2>;
  for (const std::string& solver : families()) {
    INFO(solver);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<Dose>());
    const daekit::Solution s =
        daekit::solve(problem, registry().solver(solver), options_for({"k", "D", "y0"}, 1e-10, {0.5, 2.5}));
    INFO(s.message);
    REQUIRE(s.success());
    D2 k(0.9), dose(0.6);
    k.d[0] = 1.0;
    dose.d[1] = 1.0;
    const D2 before = exp(-k * 0.5), after = (exp(-k) + dose) * exp(-k * 1.5);
    CHECK(relative(s.sensitivity(0, 0, 0), before.d[0]) < 1e-7);
    CHECK(relative(s.sensitivity(1, 0, 0), after.d[0]) < 1e-7);
    CHECK(relative(s.sensitivity(1, 0, 1), after.d[1]) < 1e-7);
    CHECK(relative(s.sensitivity(1, 0, 2), std::exp(-0.9 * 2.5)) < 1e-7);  // dy/dy0
  }
}

TEST_CASE("a root that switches the equations without moving y: the jump from y'- to y'+", "[api][sensitivities][events]") {
  // y(2) = 1 + b (2 - (1 - y0)/a): dy/da = b (1 - y0)/a^2, dy/db = 2 - (1 - y0)/a, dy/dy0 = b/a.
  const double a = 1.25, b = -0.5, y0 = 0.2, star = (1.0 - y0) / a;
  for (const std::string& solver : families()) {
    INFO(solver);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<Switch>());
    const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options_for({"a", "b", "y0"}, 1e-10));
    INFO(s.message);
    REQUIRE(s.success());
    const std::size_t last = s.size() - 1;
    CHECK(relative(s.point(last)[0], 1.0 + b * (2.0 - star)) < 1e-8);
    CHECK(relative(s.sensitivity(last, 0, 0), b * (1.0 - y0) / (a * a)) < 1e-7);
    CHECK(relative(s.sensitivity(last, 0, 1), 2.0 - star) < 1e-7);
    CHECK(relative(s.sensitivity(last, 0, 2), b / a) < 1e-7);
  }
}

TEST_CASE("an index-1 DAE through a dose its algebraic component triggers: s+ made consistent after the reset",
          "[api][sensitivities][events]") {
  D4 k(0.7), a(2.0), c(1.0), dose(0.4);
  k.d[0] = a.d[1] = c.d[2] = dose.d[3] = 1.0;
  const D4 star = log(a / c) / k;
  for (const std::string solver : {"ida", "bdf", "radau5", "rodas5p"}) {
    INFO(solver);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<DaeDose>());
    // Every step. The point at the event's time is its right limit as on_event left it,
    // before re-initialisation (y2 = c there, s+ likewise): not on the closed form.
    daekit::SolveOptions options = options_for({"k", "a", "c", "D"}, 1e-10);
    options.output = DK_OUTPUT_EVERY_STEP;
    const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options);
    INFO(s.message);
    REQUIRE(s.success());
    REQUIRE(s.stats.nevents == 1);
    for (std::size_t point = 0; point < s.size(); ++point) {
      const double t = s.t[point];
      if (std::abs(t - star.v) < 1e-7) continue;
      const bool dosed = t > star.v;
      const D4 y1 = dosed ? (c / a + dose) * exp(-k * (t - star)) : exp(-k * t);
      const D4 y2 = a * y1;
      for (std::size_t q = 0; q < 4; ++q) {
        INFO("t=" << t << " column " << q);
        CHECK(std::abs(s.sensitivity(point, 0, q) - y1.d[q]) < 1e-6 * std::max(1.0, std::abs(y1.d[q])));
        CHECK(std::abs(s.sensitivity(point, 1, q) - y2.d[q]) < 1e-6 * std::max(1.0, std::abs(y2.d[q])));
      }
    }
  }
}

TEST_CASE("sensitivities that cannot be carried through an event end the run there, or are refused before it",
          "[api][sensitivities][events]") {
  // A reset without its derivatives: the run stops at the first bounce, saying why.
  for (const std::string& solver : families()) {
    INFO(solver);
    const auto problem = daekit::ProblemHandle::from(std::make_unique<Ball>(false));
    const daekit::Solution s = daekit::solve(problem, registry().solver(solver), options_for({"e"}, 1e-8));
    CHECK(s.status == daekit::Status::unsupported_problem);
    CHECK_THAT(s.message, Catch::Contains("event_derivatives"));
    CHECK(s.t_reached < 2.0);  // the first impact, at t = 1.58
  }
  // A residual-form problem with events: refused before the run, whoever solves it.
  const auto residual = daekit::ProblemHandle::from(std::make_unique<ResidualWithRoot>());
  CHECK_THROWS_WITH(daekit::solve(residual, registry().solver("bdf"), options_for({"k"}, 1e-8)),
                    Catch::Contains("residual form") && Catch::Contains("events"));
}
