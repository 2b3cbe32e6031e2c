#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/solve_request.hpp>

using namespace daekit;

namespace {
struct Fixture {
  std::uint8_t index[2] = {1, 1}, differential[2] = {1, 1};
  dk_problem_info info{};
  double y0[2] = {1.0, 2.0};
  double rtol = 1e-6, atol = 1e-8;
  dk_solve_options o{};
  Fixture() {
    info.struct_size = sizeof info;
    info.name = "two";
    info.n = 2;
    info.index = index;
    info.differential = differential;
    o.struct_size = sizeof o;
    o.t0 = 0;
    o.tend = 1;
    o.y0 = y0;
    o.nrtol = o.natol = 1;
    o.rtol = &rtol;
    o.atol = &atol;
    o.max_steps = 10;
  }
  bool parse(std::string* why) {
    SolveRequest r;
    return parse_request(o, info, &r, why);
  }
};
}  // namespace

TEST_CASE("valid options expand scalar tolerances to every component", "[unit][options]") {
  Fixture f;
  SolveRequest r;
  std::string why;
  REQUIRE(parse_request(f.o, f.info, &r, &why));
  CHECK(r.rtol.size() == 2);
  CHECK(r.atol[1] == 1e-8);
  CHECK(r.rtol.uniform());  // one number each, not n copies
  CHECK(r.atol.uniform());
  CHECK(r.hmax == 1.0);
}

TEST_CASE("per-component tolerances keep each component's value", "[unit][options]") {
  Fixture f;
  const double atols[2] = {1e-8, 1e-3};
  f.o.natol = 2;
  f.o.atol = atols;
  SolveRequest r;
  std::string why;
  REQUIRE(parse_request(f.o, f.info, &r, &why));
  CHECK_FALSE(r.atol.uniform());
  CHECK(r.atol[0] == 1e-8);
  CHECK(r.atol[1] == 1e-3);
  CHECK(r.rtol[1] == 1e-6);
  const double bad[2] = {1e-8, -1.0};
  f.o.atol = bad;
  CHECK_FALSE(parse_request(f.o, f.info, &r, &why));
  CHECK(why.find("component 2") != std::string::npos);
}

TEST_CASE("bad options are refused with a reason", "[unit][options]") {
  std::string why;
  {
    Fixture f;
    f.rtol = -1e-6;
    CHECK_FALSE(f.parse(&why));
    CHECK_THAT(why, Catch::Contains("rtol"));
  }
  {
    Fixture f;
    f.atol = std::nan("");
    CHECK_FALSE(f.parse(&why));
    CHECK_THAT(why, Catch::Contains("atol"));
  }
  {
    Fixture f;
    f.y0[1] = INFINITY;
    CHECK_FALSE(f.parse(&why));
    CHECK_THAT(why, Catch::Contains("component 2"));
  }
  {
    Fixture f;
    f.o.tend = 0;
    CHECK_FALSE(f.parse(&why));
    CHECK_THAT(why, Catch::Contains("empty"));
  }
  {
    Fixture f;
    f.o.max_steps = 0;
    CHECK_FALSE(f.parse(&why));
  }
  {
    Fixture f;
    f.o.nrtol = 3;
    CHECK_FALSE(f.parse(&why));
    CHECK_THAT(why, Catch::Contains("1 or 2"));
  }
}

TEST_CASE("plugin options are checked against the solver's list", "[unit][options]") {
  dk_option_desc opts[] = {{"controller", "choice:pi|i", "pi", ""}, {"safety", "real", "0.9", ""}};
  dk_solver_info s{};
  s.struct_size = sizeof s;
  s.name = "demo";
  s.noptions = 2;
  s.options = opts;
  std::string why;
  CHECK(check_extra_options(s, {{"controller", "i"}, {"safety", "0.8"}}, &why));
  CHECK_FALSE(check_extra_options(s, {{"controler", "i"}}, &why));
  CHECK_THAT(why, Catch::Contains("valid: controller, safety"));
  CHECK_FALSE(check_extra_options(s, {{"controller", "p"}}, &why));
  CHECK_FALSE(check_extra_options(s, {{"safety", "high"}}, &why));
}

TEST_CASE("a model that must hear of every step is refused by a solver that does not tell it", "[unit][options]") {
  Fixture f;
  f.info.flags = DK_PROBLEM_STEP_NOTIFICATION;
  dk_solver_info solver{};
  solver.struct_size = sizeof solver;
  solver.name = "quiet";
  solver.max_mass_kind = DK_MASS_IDENTITY;
  solver.flags = DK_SOLVER_EVENTS;
  std::string why;
  CHECK_FALSE(check_capabilities(solver, f.info, &why));
  CHECK(why.find("needs to hear of every completed step") != std::string::npos);
  solver.flags |= DK_SOLVER_STEP_NOTIFICATION;
  CHECK(check_capabilities(solver, f.info, &why));
  // Without the problem's flag nothing is asked of the solver.
  f.info.flags = 0;
  solver.flags = DK_SOLVER_EVENTS;
  CHECK(check_capabilities(solver, f.info, &why));
}

TEST_CASE("initial sensitivities are taken as given, or refused when not finite", "[unit][options][sensitivities]") {
  Fixture f;
  f.info.np = 1;  // parse reads only np and n of the parameters
  const std::int32_t index[2] = {0, -2};
  double s0[4] = {0.5, 0.0, 0.0, 1.0};
  f.o.nsens = 2;
  f.o.sens_index = index;
  f.o.sens_initial = s0;
  SolveRequest r;
  std::string why;
  REQUIRE(parse_request(f.o, f.info, &r, &why));
  CHECK(r.sens_initial == std::vector<double>{0.5, 0.0, 0.0, 1.0});
  s0[1] = std::nan("");
  CHECK_FALSE(f.parse(&why));
  CHECK_THAT(why, Catch::Contains("sens_initial"));
  f.o.sens_initial = nullptr;  // the default: e_i, 0
  SolveRequest by_default;
  REQUIRE(parse_request(f.o, f.info, &by_default, &why));
  CHECK(by_default.sens_initial.empty());
}

TEST_CASE("a request for the analytic Jacobian is met by what the problem gives the solver that reads it", "[unit][options]") {
  dk_eval (*const local)(void*, double, const double*, double*) = [](void*, double, const double*, double*) {
    return DK_EVAL_OK;
  };
  dk_solver_info serial{}, distributed{};
  serial.struct_size = distributed.struct_size = sizeof serial;
  serial.name = "serial";
  distributed.name = "spread";
  distributed.flags = DK_SOLVER_DISTRIBUTED;
  dk_problem_vtbl with_local{}, without{};
  with_local.jacobian_local = local;
  std::string why;
  auto analytic = [](Fixture& f, std::string* why_parse) {
    f.o.jacobian = DK_JACOBIAN_ANALYTIC;
    SolveRequest r;
    const bool ok = parse_request(f.o, f.info, &r, why_parse);
    return std::pair{ok, r};
  };
  {  // A whole problem: the flags, dense, in a pattern, or a residual form's own.
    Fixture f;
    auto [ok, r] = analytic(f, &why);
    CHECK_FALSE(ok);
    CHECK_THAT(why, Catch::Contains("does not provide one"));
    f.info.form = DK_FORM_RESIDUAL_ONLY;
    f.info.flags = DK_PROBLEM_ANALYTIC_RESIDUAL_JACOBIAN;
    auto [residual_ok, residual] = analytic(f, &why);
    CHECK(residual_ok);
    CHECK(check_jacobian_request(serial, f.info, &without, residual, &why));
  }
  {  // Spread over ranks: the owned rows for a distributed solver, the whole matrix otherwise.
    Fixture f;
    dk_distribution d{};
    d.struct_size = sizeof d;
    d.n_local = 1;
    f.info.distribution = &d;
    auto [ok, r] = analytic(f, &why);
    REQUIRE(ok);  // left to check_jacobian_request
    CHECK(check_jacobian_request(distributed, f.info, &with_local, r, &why));
    CHECK_FALSE(check_jacobian_request(distributed, f.info, &without, r, &why));
    CHECK_THAT(why, Catch::Contains("jacobian_local"));
    CHECK_FALSE(check_jacobian_request(serial, f.info, &with_local, r, &why));
    CHECK_THAT(why, Catch::Contains("distributed: yes"));
    f.info.flags = DK_PROBLEM_SPARSE_JACOBIAN;
    CHECK(check_jacobian_request(serial, f.info, &with_local, r, &why));
    r.jacobian = JacobianSource::automatic;
    f.info.flags = 0;
    CHECK(check_jacobian_request(serial, f.info, &without, r, &why));
  }
}
