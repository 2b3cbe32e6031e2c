// The library API as a program uses it (daekit/daekit.hpp): discovery by the library's own
// rules, plugin and in-process problems on every solver, y(t) from kept dense output,
// variables besides y recorded at the points, and failures of the program's own model as
// statuses.
#include <catch2/catch.hpp>
#include <atomic>
#include <cmath>
#include <daekit/daekit.hpp>
#include <limits>
#include <span>
#include <stdexcept>

namespace {
namespace api = daekit::api;

// Prothero-Robinson with two stiffnesses, and an algebraic component for the DAE solvers:
//   y_i' = -lambda_i (y_i - sin t) + cos t,  0 = y_3 - (y_1 + y_2)
// exact solution y_1 = y_2 = sin t, y_3 = 2 sin t.
class ProtheroRobinson : public daekit::Problem {
 public:
  explicit ProtheroRobinson(bool dae, bool fail_late = false) : fail_late_(fail_late) {
    info_.name = dae ? "prothero_robinson_dae" : "prothero_robinson";
    info_.title = "Prothero-Robinson, in-process";
    info_.n = dae ? 3 : 2;
    info_.t0 = 0.0;
    info_.tend = 2.0;
    info_.analytic_jacobian = true;
    info_.reference_at_any_time = true;
    if (dae) {
      info_.mass = daekit::MassKind::constant;
      info_.differential = {1, 1, 0};
    }
  }
  void initial_values(daekit::Vector y0, daekit::Vector) override { y0.setZero(); }
  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    if (fail_late_ && t > 1.0) throw std::runtime_error("the model gave up at t > 1");
    f[0] = -lambda_[0] * (y[0] - std::sin(t)) + std::cos(t);
    f[1] = -lambda_[1] * (y[1] - std::sin(t)) + std::cos(t);
    if (info_.n == 3) f[2] = y[2] - (y[0] + y[1]);
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView J) override {
    J.setZero();
    J(0, 0) = -lambda_[0];
    J(1, 1) = -lambda_[1];
    if (info_.n == 3) {
      J(2, 0) = J(2, 1) = -1.0;
      J(2, 2) = 1.0;
    }
    return daekit::Eval::ok;
  }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    y[0] = y[1] = std::sin(t);
    if (info_.n == 3) y[2] = 2.0 * std::sin(t);
    return daekit::Eval::ok;
  }

 private:
  double lambda_[2] = {1e4, 10.0};
  bool fail_late_;
};

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

}  // namespace

TEST_CASE("daekit::Registry finds the build tree's plugins next to the library and names unknown ones") {
  const auto solvers = registry().solvers();
  const auto problems = registry().problems();
  for (const char* s : {"rodas5p", "radau5", "radauiia", "bdf", "ida", "cvode"})
    CHECK(std::find(solvers.begin(), solvers.end(), s) != solvers.end());
  for (const char* p : {"rober", "fekete", "hires"}) CHECK(std::find(problems.begin(), problems.end(), p) != problems.end());
  CHECK_THROWS_WITH(registry().solver("rodas5q"), Catch::Contains("did you mean") && Catch::Contains("'rodas5p'"));
  CHECK_THROWS_WITH(registry().problem("fekete", {{"M", "3"}}), Catch::Contains("unknown parameter 'M'"));
  CHECK_THROWS_AS(registry().problem("rodas5p"), daekit::UsageError);  // a solver, not a problem
  // Without the default folders and nothing named, nothing is found, and the error says so.
  api::PluginSearch none;
  none.default_folders = false;
  const daekit::Registry empty(none);
  CHECK(empty.solvers().empty());
  CHECK_THROWS_WITH(empty.solver("rodas5p"), Catch::Contains("no solver plugins were found"));
}

TEST_CASE("daekit::solve of a plugin problem scores it against the test set's reference") {
  daekit::SolveOptions options;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  const daekit::Solution s = daekit::solve(registry().problem("rober"), registry().solver("radauiia"), options);
  REQUIRE(s.status_name() == "success");
  REQUIRE(s.accuracy);
  CHECK(s.accuracy->mescd > 8.0);  // scd is held down by y2's relative error at atol 1e-10
  CHECK(s.t.front() == 0.0);
  CHECK(s.t.back() == s.tend);  // every step by default
  CHECK(s.size() == static_cast<std::size_t>(s.stats.accepted) + 1);
  CHECK(s.y.size() == s.size() * s.n);
  // Tolerances the solver cannot take are refused before anything runs.
  options.rtol = -1.0;
  CHECK_THROWS_AS(daekit::solve(registry().problem("rober"), registry().solver("radauiia"), options), daekit::UsageError);
}

TEST_CASE("every solver that keeps dense output gives y(t) equal to its saveat output and accurate to the tolerance") {
  const double tol = 1e-7;
  std::vector<double> times;
  for (int k = 0; k <= 40; ++k) times.push_back(0.05 * k);
  int checked = 0;
  for (const std::string& name : registry().solvers()) {
    const daekit::SolverHandle solver = registry().solver(name);
    const bool dae = solver.info().max_dae_index >= 1 && solver.info().max_mass_kind >= DK_MASS_CONSTANT;
    INFO("solver " << name << (dae ? " on the DAE" : " on the ODE"));
    const auto problem = daekit::ProblemHandle::from(std::make_unique<ProtheroRobinson>(dae));
    daekit::SolveOptions options;
    options.rtol = options.atol = tol;
    options.dense = true;
    const daekit::Solution dense = daekit::solve(problem, solver, options);
    REQUIRE(dense.success());
    REQUIRE((solver.info().flags & DK_SOLVER_KEEP_DENSE) != 0);  // every in-tree solver keeps it
    REQUIRE(dense.has_dense());
    options.dense = false;
    options.saveat = times;
    const daekit::Solution saved = daekit::solve(problem, solver, options);
    REQUIRE(saved.success());
    REQUIRE(saved.size() == times.size());
    CHECK(saved.stats.accepted == dense.stats.accepted);  // output times do not steer the steps
    double worst_vs_saveat = 0, worst_differential = 0, worst_algebraic = 0;
    for (std::size_t k = 0; k < times.size(); ++k) {
      const std::vector<double> y = dense(times[k]);
      for (std::size_t i = 0; i < dense.n; ++i) {
        worst_vs_saveat = std::max(worst_vs_saveat, std::abs(y[i] - saved.point(k)[i]));
        const double error = std::abs(y[i] - (i == 2 ? 2.0 : 1.0) * std::sin(times[k]));
        (i == 2 ? worst_algebraic : worst_differential) = std::max(i == 2 ? worst_algebraic : worst_differential, error);
      }
    }
    CHECK(worst_vs_saveat <= 1e-12);
    CHECK(worst_differential <= 300 * tol);
    // Methods without dense-output coefficients interpolate by cubic Hermite, linearly on
    // algebraic components (O(h^2) between steps: ros34pw2 was 4.7e-4 off here); an index-1
    // DAE's output points and dense samples get them re-solved (docs/solvers/radau.md).
    CHECK(worst_algebraic <= 300 * tol);
    CHECK_THROWS_AS(dense(2.5), std::out_of_range);
    CHECK_THROWS_AS(dense(-0.1), std::out_of_range);
    ++checked;
  }
  CHECK(checked >= 16);
}

TEST_CASE("a solver built against ABI 1.1 solves through the library and says it has no dense output") {
  api::PluginSearch search;
  search.default_folders = false;
  search.files = {std::string(DAEKIT_TEST_FIXTURE_DIR) + "/fixture_abi_1_1.so"};
  const daekit::Registry legacy(search);
  daekit::SolveOptions options;
  options.dense = true;
  const daekit::Solution s = daekit::solve(legacy.problem("legacy_decay"), legacy.solver("legacy_euler"), options);
  REQUIRE(s.success());
  CHECK_FALSE(s.has_dense());
  CHECK_THROWS_WITH(s(0.5), Catch::Contains("has no dense output"));
  // The 1.2 solvers take the 1.1 problem, dense output included.
  const daekit::Solution modern = daekit::solve(legacy.problem("legacy_decay"), registry().solver("bdf"), options);
  REQUIRE(modern.success());
  CHECK(modern.has_dense());
}

TEST_CASE("an exception in an in-process model is the solve's evaluation failure, with its message") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<ProtheroRobinson>(false, true));
  for (const char* name : {"rodas5p", "radauiia", "bdf", "ida", "cvode"}) {
    INFO(name);
    const daekit::Solution s = daekit::solve(problem, registry().solver(name));
    CHECK_FALSE(s.success());
    CHECK(s.message.find("the model gave up at t > 1") != std::string::npos);
    CHECK(s.t_reached <= 1.0 + 1e-9);
  }
}

namespace {
// y' = -y with outputs beside y: "twice" = 2 y, "phase" the mode a time event at t = 0.5
// switches, "blows_up" not finite after t = 0.8, "throws" an exception after t = 0.3.
class DecayWithOutputs : public daekit::Problem {
 public:
  DecayWithOutputs() {
    info_.name = "decay_with_outputs";
    info_.title = "y' = -y, outputs computed at the points";
    info_.n = 1;
    info_.tend = 1.0;
    info_.component_names = {"y"};
    info_.time_events = true;
    info_.outputs = {"twice", "phase", "blows_up", "throws"};
  }
  void initial_values(daekit::Vector y0, daekit::Vector) override {
    y0[0] = 1.0;
    phase_ = 0.0;
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -y[0];
    return daekit::Eval::ok;
  }
  double next_time_event(double t) override { return t < 0.5 ? 0.5 : std::numeric_limits<double>::infinity(); }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector) override {
    phase_ = 1.0;
    return daekit::EventAction::proceed;
  }
  daekit::Eval outputs(double t, daekit::ConstVector y, std::span<const std::uint32_t> which,
                       daekit::Vector values) override {
    for (std::size_t k = 0; k < which.size(); ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      switch (which[k]) {
        case 0: values[i] = 2.0 * y[0]; break;
        case 1: values[i] = phase_; break;
        case 2: values[i] = t > 0.8 ? std::numeric_limits<double>::infinity() : 0.0; break;
        default:
          if (t > 0.3) throw std::runtime_error("the output model gave up at t > 0.3");
          values[i] = 0.0;
      }
    }
    return daekit::Eval::ok;
  }

 private:
  double phase_ = 0.0;
};
}  // namespace

TEST_CASE("variables besides y are computed as the points arrive, in the order asked, for every event solver",
          "[output-vars]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<DecayWithOutputs>());
  int checked = 0;
  for (const std::string& name : registry().solvers()) {
    const daekit::SolverHandle solver = registry().solver(name);
    if (!(solver.info().flags & DK_SOLVER_EVENTS)) continue;
    INFO(name);
    daekit::SolveOptions options;
    options.output_vars = {"phase", "y", "twice"};
    const daekit::Solution s = daekit::solve(problem, solver, options);
    REQUIRE(s.success());
    CHECK(s.variable_names == std::vector<std::string>{"phase", "y", "twice"});
    REQUIRE(s.variables.size() == 3 * s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
      const double* row = &s.variables[3 * k];
      CHECK(row[1] == s.point(k)[0]);
      CHECK(row[2] == 2.0 * s.point(k)[0]);
      // The mode of the point: before the time event 0, after it 1 (the event's own time
      // may be either limit).
      if (s.t[k] < 0.5) CHECK(row[0] == 0.0);
      if (s.t[k] > 0.5) CHECK(row[0] == 1.0);
    }
    ++checked;
  }
  CHECK(checked >= 16);
}

TEST_CASE("variables that are unknown, repeated or cannot be computed are refused or fail the run",
          "[output-vars][bad-input]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<DecayWithOutputs>());
  const daekit::SolverHandle solver = registry().solver("rodas5p");
  daekit::SolveOptions options;
  options.output_vars = {"twise"};
  CHECK_THROWS_WITH(daekit::solve(problem, solver, options), Catch::Contains("did you mean 'twice'"));
  options.output_vars = {"y", "y"};
  CHECK_THROWS_WITH(daekit::solve(problem, solver, options), Catch::Contains("names 'y' twice"));
  // Not finite after t = 0.8: evaluation_failure, the points before it kept whole.
  options.output_vars = {"blows_up", "y"};
  daekit::Solution s = daekit::solve(problem, solver, options);
  CHECK(s.status_name() == "evaluation_failure");
  CHECK_THAT(s.message, Catch::Contains("output 'blows_up' is not finite") && Catch::Contains("at t = "));
  CHECK(s.variables.size() == 2 * s.size());
  CHECK(!s.t.empty());
  CHECK(s.t.back() <= 0.8);
  // An exception from the model's outputs: its message, the same status.
  options.output_vars = {"throws"};
  s = daekit::solve(problem, solver, options);
  CHECK(s.status_name() == "evaluation_failure");
  CHECK_THAT(s.message, Catch::Contains("the output model gave up at t > 0.3"));
  CHECK(s.t.back() <= 0.3);
}

TEST_CASE("a solve ends at its next model evaluation once its interrupt flag is raised, in every family") {
  for (const char* solver : {"rodas5p", "radau5", "bdf", "ida", "cvode"}) {
    INFO(solver);
    std::atomic<bool> interrupt{false};
    daekit::SolveOptions options;
    options.rtol = 1e-6;
    options.interrupt = &interrupt;
    // Not raised: the same run as without the flag.
    const daekit::Solution plain = daekit::solve(registry().problem("rober"), registry().solver(solver), options);
    REQUIRE(plain.status_name() == "success");
    interrupt = true;
    const daekit::Solution stopped = daekit::solve(registry().problem("rober"), registry().solver(solver), options);
    CHECK(stopped.status_name() == "evaluation_failure");
    CHECK(stopped.message.find("interrupted") != std::string::npos);
    CHECK(stopped.stats.steps <= 1);
  }
}

TEST_CASE("rok4a takes y' = f only: a problem with a mass matrix is refused before the run") {
  // 2 y' = -y: a constant M counts as a possible DAE, which rok4a (not stiffly accurate,
  // ODEs only) does not claim; linear_solver=arnoldi (y' = f only) could not take it either.
  class MassDecay : public daekit::Problem {
   public:
    MassDecay() {
      info_.name = "mass_decay";
      info_.title = "2 y' = -y, in-process";
      info_.n = 1;
      info_.tend = 1.0;
      info_.mass = daekit::MassKind::constant;
      info_.differential = {1};
    }
    void initial_values(daekit::Vector y0, daekit::Vector) override { y0[0] = 1.0; }
    daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
      f[0] = -y[0];
      return daekit::Eval::ok;
    }
    daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
      m(0, 0) = 2.0;
      return daekit::Eval::ok;
    }
  };
  const auto problem = daekit::ProblemHandle::from(std::make_unique<MassDecay>());
  daekit::SolveOptions options;
  for (const char* linear : {"auto", "arnoldi", "dense"}) {
    INFO(linear);
    options.solver_options = {{"linear_solver", linear}};
    CHECK_THROWS_WITH(daekit::solve(problem, registry().solver("rok4a"), options), Catch::Contains("ODEs only"));
  }
  // The same problem with a method that claims DAEs.
  options.solver_options.clear();
  options.rtol = options.atol = 1e-8;
  const daekit::Solution solved = daekit::solve(problem, registry().solver("rodas4"), options);
  REQUIRE(solved.success());
  CHECK(solved.point(solved.size() - 1)[0] == Approx(std::exp(-0.5)).epsilon(1e-6));
}
