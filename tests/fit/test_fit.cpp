// daekit::fit: parameters recovered from synthetic data (noise-free to 1e-6 relative;
// with noise, inside the reported intervals as often as their level says), several
// experiments with their own conditions, estimated initial values, bounds, failed solves
// as rejected steps, unidentifiable parameters named, and the optimiser's limits reported
// as such.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <daekit/fit/fit.hpp>
#include <random>
#include <sstream>

namespace {

using daekit::fit::Experiment;
using daekit::fit::FitSettings;

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

// y' = -k y + c, y(0) = y0: y(t) = c/k + (y0 - c/k) exp(-k t), written here so that the
// data do not come from the code under test.
double decay_exact(double k, double c, double y0, double t) { return c / k + (y0 - c / k) * std::exp(-k * t); }

// The fixture's parametric_decay is that model on [0, 2], with df/dp; it refuses k <= 0.
daekit::ProblemHandle decay_problem() {
  daekit::api::PluginSearch search;
  search.files = {std::string(DAEKIT_TEST_FIXTURE_DIR) + "/parameters/fixture_parameter_models.so"};
  static const daekit::Registry fixtures(search);
  return fixtures.problem("parametric_decay");
}

// y' = -(a b) y: only the product a b is determined by any data.
class Product : public daekit::Problem {
 public:
  Product() {
    info_.name = "fit_product";
    info_.title = "y' = -a b y";
    info_.n = 1;
    info_.tend = 3.0;
    info_.parameters = {{"a", 1.0, 0.0}, {"b", 2.0, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 1.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * p(1) * y[0];
    return daekit::Eval::ok;
  }
};

std::string decay_csv(double k, double c, double y0, const std::vector<double>& times, double sigma = 1e-3) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,name,value,sigma\n";
  for (const double t : times) csv << t << ",y1," << decay_exact(k, c, y0, t) << "," << sigma << "\n";
  return csv.str();
}

FitSettings settings_for(std::vector<std::string> names) {
  FitSettings s;
  for (const auto& name : names) {
    daekit::fit::Estimate e;
    e.name = name;
    s.estimate.push_back(e);
  }
  s.run.rtol = 1e-10;
  s.run.atol = 1e-14;
  return s;
}

// Robertson's solution at the test's times, from a tight solve at the nominal constants
// (cross-checked against the test set's reference by the conformance tests).
std::vector<std::vector<double>> robertson_truth(const std::vector<double>& times) {
  daekit::SolveOptions options;
  options.rtol = 1e-12;
  options.atol = 1e-20;
  options.saveat = times;
  const auto s = daekit::solve(registry().problem("rober"), registry().solver("radau5"), options);
  REQUIRE(s.success());
  std::vector<std::vector<double>> out;
  for (std::size_t k = 0; k < s.size(); ++k) out.emplace_back(s.point(k), s.point(k) + 3);
  return out;
}

// One normal deviate per call from 53-bit uniforms (Box-Muller), the same on every machine.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : engine_(seed) {}
  double operator()() {
    const double u1 = (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  std::mt19937_64 engine_;
};

const std::vector<double> robertson_times{0.1, 0.4, 1, 4, 10, 40, 100, 400, 1000, 4000, 1e4, 4e4, 1e5};

std::string robertson_csv(const std::vector<std::vector<double>>& truth, double relative_noise, Noise* noise) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,name,value,sigma\n";
  for (std::size_t k = 0; k < robertson_times.size(); ++k)
    for (int i = 0; i < 3; ++i) {
      const double sigma = std::max(std::abs(truth[k][i]) * std::max(relative_noise, 1e-3), 1e-14);
      const double value = truth[k][i] + (noise ? sigma * (*noise)() : 0.0);
      csv << robertson_times[k] << ",y" << i + 1 << "," << value << "," << sigma << "\n";
    }
  return csv.str();
}

}  // namespace

TEST_CASE("fit recovers Robertson's rate constants from noise-free data to 1e-6", "[fit]") {
  const auto truth = robertson_truth(robertson_times);
  const Experiment data = daekit::fit::parse_experiment(robertson_csv(truth, 0, nullptr), "rober", "rober.csv");
  const auto problem = registry().problem("rober");
  for (const std::string solver : {"radau5", "radauiia", "bdf", "rodas5p", "cvode", "ida"}) {
    INFO(solver);
    FitSettings s = settings_for({"k1", "k2", "k3"});
    s.run.atol = 1e-16;
    s.estimate[0].initial = 0.03, s.estimate[1].initial = 2e7, s.estimate[2].initial = 2e4;
    for (auto& e : s.estimate) e.log_scale = true;
    const auto r = daekit::fit::fit(problem, registry().solver(solver), {data}, s);
    INFO(r.message);
    REQUIRE(r.status == "success");
    CHECK(std::abs(r.estimates[0] / 0.04 - 1) < 1e-6);
    CHECK(std::abs(r.estimates[1] / 3e7 - 1) < 1e-6);
    CHECK(std::abs(r.estimates[2] / 1e4 - 1) < 1e-6);
    CHECK(r.failed_solves == 0);
    CHECK(r.covariance.size() == 9);
    CHECK(r.measurements == 39);
    // The problem's own parameters are as they were.
    CHECK(problem.instance().parameters() == std::vector<double>{0.04, 3e7, 1e4});
  }
}

TEST_CASE("with noise, the reported 95% intervals hold the true constants in at least 90% of seeded fits",
          "[fit][coverage]") {
  const auto truth = robertson_truth(robertson_times);
  const auto problem = registry().problem("rober");
  const auto solver = registry().solver("radau5");
  const std::vector<double> exact{0.04, 3e7, 1e4};
  int inside = 0, intervals = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    Noise noise(seed);
    const Experiment data = daekit::fit::parse_experiment(robertson_csv(truth, 0.01, &noise), "rober", "rober.csv");
    FitSettings s = settings_for({"k1", "k2", "k3"});
    s.run.rtol = 1e-9;
    s.run.atol = 1e-15;
    for (auto& e : s.estimate) e.log_scale = true;
    const auto r = daekit::fit::fit(problem, solver, {data}, s);
    INFO("seed " << seed << ": " << r.message);
    REQUIRE(r.success());
    REQUIRE(r.lower.size() == 3);
    for (int k = 0; k < 3; ++k, ++intervals) inside += r.lower[k] <= exact[k] && exact[k] <= r.upper[k];
    // The intervals mean something: a few percent wide at 1% noise, not everything.
    CHECK(r.upper[1] / r.lower[1] < 1.5);
  }
  INFO(inside << " of " << intervals << " intervals hold the true value");
  CHECK(inside >= 0.9 * intervals);
}

TEST_CASE("experiments with their own conditions, and an initial value estimated", "[fit]") {
  const auto problem = decay_problem();
  const std::vector<double> times{0.25, 0.5, 1, 1.5, 2};
  // Truth: k = 0.7, c = 0.2; experiment b starts at y0 = 3 and is run with c = 0.9.
  std::vector<Experiment> experiments{
      daekit::fit::parse_experiment(decay_csv(0.7, 0.2, 1.25, times), "a", "a.csv"),
      daekit::fit::parse_experiment(decay_csv(0.7, 0.9, 3.0, times), "b", "b.csv")};
  daekit::fit::parse_conditions("experiment,c,y0:y1\nb,0.9,3\n", "conditions.csv", experiments);
  REQUIRE(experiments[1].conditions.size() == 2);
  FitSettings s = settings_for({"k", "c", "y0:y1"});
  const auto r = daekit::fit::fit(problem, registry().solver("bdf"), experiments, s);
  INFO(r.message);
  REQUIRE(r.success());
  CHECK(r.names[2] == "y0:y1");
  CHECK(std::abs(r.estimates[0] - 0.7) < 1e-6);
  CHECK(std::abs(r.estimates[1] - 0.2) < 1e-6);
  CHECK(std::abs(r.estimates[2] - 1.25) < 1e-6);  // experiment a's y0 (b's is its condition)
  REQUIRE(r.experiments.size() == 2);
  CHECK(r.experiments[1].points.size() == times.size());
  CHECK(std::abs(r.experiments[1].points[0].model - decay_exact(0.7, 0.9, 3.0, 0.25)) < 1e-7);
  // The model curves for plots follow the same conditions.
  const auto curves = daekit::fit::model_curves(problem, registry().solver("bdf"), experiments, s, r.estimates);
  REQUIRE(curves.size() == 2);
  REQUIRE(curves[1].failure.empty());
  CHECK(std::abs(curves[1].values.back() - decay_exact(0.7, 0.9, 3.0, curves[1].t.back())) < 1e-6);
}

TEST_CASE("a failed solve during the fit is a rejected step, and bounds hold", "[fit]") {
  const auto problem = decay_problem();
  const std::vector<double> times{0.1, 0.3, 1, 1.5, 2};
  const Experiment data = daekit::fit::parse_experiment(decay_csv(0.05, 0.0, 1.0, times, 1e-4), "slow", "slow.csv");
  SECTION("steps beyond k > 0 fail and are stepped back from") {
    FitSettings s = settings_for({"k", "c"});
    s.estimate[0].initial = 3.0;
    s.estimate[1].initial = 0.0;
    const auto r = daekit::fit::fit(problem, registry().solver("radau5"), {data}, s);
    INFO(r.message);
    CHECK(r.success());
    CHECK(std::abs(r.estimates[0] - 0.05) < 1e-6);
    INFO("failed solves " << r.failed_solves);
    CHECK(r.failed_solves > 0);
  }
  SECTION("an upper bound below the truth: the estimate ends on it") {
    FitSettings s = settings_for({"k"});
    s.estimate[0].initial = 0.02;
    s.estimate[0].upper = 0.04;
    const auto r = daekit::fit::fit(problem, registry().solver("radau5"), {data}, s);
    INFO(r.message);
    CHECK(r.success());
    CHECK(r.estimates[0] <= 0.04);
    CHECK(r.estimates[0] > 0.04 * (1 - 1e-9));
  }
}

TEST_CASE("the optimiser's limits end a fit with their own status and the best point reached", "[fit]") {
  const auto problem = decay_problem();
  const Experiment data = daekit::fit::parse_experiment(decay_csv(0.7, 0.2, 1.0, {0.5, 1, 1.5, 2}), "e", "e.csv");
  FitSettings s = settings_for({"k", "c"});
  s.estimate[0].initial = 5.0;
  s.max_iterations = 1;
  const auto r = daekit::fit::fit(problem, registry().solver("radau5"), {data}, s);
  CHECK(r.status == "not_converged");
  CHECK_FALSE(r.success());
  REQUIRE(r.estimates.size() == 2);
  CHECK(r.chi2 > 0);
  // The best point is no worse than the start.
  CHECK(r.starts[0].cost <= 0.5 * r.chi2 * (1 + 1e-12));
}

TEST_CASE("an optimiser that stops where the gradient is not small does not report success", "[fit]") {
  // Tolerances so loose that Ceres' own tests pass after its first step, far from the minimum.
  const auto problem = decay_problem();
  const Experiment data = daekit::fit::parse_experiment(decay_csv(0.7, 0.2, 1.0, {0.5, 1, 1.5, 2}), "e", "e.csv");
  for (const std::string gradient : {"forward", "adjoint"}) {
    INFO(gradient);
    FitSettings s = settings_for({"k", "c"});
    s.estimate[0].initial = 3.0;
    s.function_tolerance = 0.9;
    s.parameter_tolerance = 0.9;
    s.gradient = gradient;
    const auto r = daekit::fit::fit(problem, registry().solver("cvode"), {data}, s);
    CHECK(r.status == "not_converged");
    CHECK(r.gradient == gradient);
    CHECK_THAT(r.message, Catch::Contains("the gradient is not small"));
  }
}

TEST_CASE("a fit by adjoint gradients reaches the forward fit's optimum", "[fit][adjoint]") {
  const auto truth = robertson_truth(robertson_times);
  const Experiment data = daekit::fit::parse_experiment(robertson_csv(truth, 0, nullptr), "rober", "rober.csv");
  FitSettings s = settings_for({"k1", "k2", "k3"});
  s.run.atol = 1e-16;
  s.estimate[0].initial = 0.03, s.estimate[1].initial = 2e7, s.estimate[2].initial = 2e4;
  for (auto& e : s.estimate) e.log_scale = true;
  s.gradient = "adjoint";
  // cvode on the ODE, ida and rodas5p (the discrete adjoint) on the index-1 DAE (y3 from
  // the conservation law).
  for (const auto& [problem, solver] : std::vector<std::pair<std::string, std::string>>{
           {"rober", "cvode"}, {"rober_dae", "ida"}, {"rober_dae", "rodas5p"}}) {
    INFO(problem << " by " << solver);
    const auto r = daekit::fit::fit(registry().problem(problem), registry().solver(solver), {data}, s);
    INFO(r.message);
    REQUIRE(r.success());
    CHECK(r.gradient == "adjoint");
    CHECK(std::abs(r.estimates[0] / 0.04 - 1) < 1e-6);
    CHECK(std::abs(r.estimates[1] / 3e7 - 1) < 1e-6);
    CHECK(std::abs(r.estimates[2] / 1e4 - 1) < 1e-6);
  }
  // auto takes the adjoint only where estimates outnumber measurements; bounds need forward.
  s.gradient = "auto";
  CHECK(daekit::fit::fit(registry().problem("rober"), registry().solver("cvode"), {data}, s).gradient == "forward");
  s.gradient = "adjoint";
  s.estimate[0].upper = 1;
  CHECK_THROWS_WITH(daekit::fit::fit(registry().problem("rober"), registry().solver("cvode"), {data}, s),
                    Catch::Contains("keeps no bounds"));
  s.estimate[0].upper = INFINITY;
  CHECK_THROWS_AS(daekit::fit::fit(registry().problem("rober"), registry().solver("radau5"), {data}, s),
                  daekit::UnsupportedProblem);
}

TEST_CASE("parameters the data cannot tell apart are named, with no covariance", "[fit]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Product>());
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,name,value,sigma\n";
  for (const double t : {0.5, 1.0, 2.0}) csv << t << ",y1," << std::exp(-3.0 * t) << ",1e-3\n";
  const auto data = daekit::fit::parse_experiment(csv.str(), "p", "p.csv");
  const auto r = daekit::fit::fit(problem, registry().solver("rodas5p"), {data}, settings_for({"a", "b"}));
  INFO(r.message);
  CHECK(r.success());
  CHECK(std::abs(r.estimates[0] * r.estimates[1] - 3.0) < 1e-6);
  CHECK(r.covariance.empty());
  CHECK(r.standard_errors.empty());
  CHECK_THAT(r.identifiability, Catch::Contains("a, b"));
}

TEST_CASE("more starts drawn in the bounds find the optimum from a bad first guess", "[fit]") {
  const auto problem = decay_problem();
  const Experiment data = daekit::fit::parse_experiment(decay_csv(0.7, 0.2, 1.0, {0.25, 0.5, 1, 1.5, 2}), "e", "e.csv");
  FitSettings s = settings_for({"k", "c"});
  s.estimate[0].lower = 1e-3, s.estimate[0].upper = 10, s.estimate[0].log_scale = true;
  s.estimate[1].lower = -1, s.estimate[1].upper = 1;
  s.starts = 4;
  s.seed = 7;
  const auto a = daekit::fit::fit(problem, registry().solver("radau5"), {data}, s);
  const auto b = daekit::fit::fit(problem, registry().solver("radau5"), {data}, s);
  REQUIRE(a.success());
  CHECK(std::abs(a.estimates[0] - 0.7) < 1e-6);
  REQUIRE(a.starts.size() == 4);
  for (std::size_t k = 1; k < 4; ++k) {
    CHECK(a.starts[k].initial == b.starts[k].initial);  // the same draws for the same seed
    CHECK(a.starts[k].initial[0] >= 1e-3);
    CHECK(a.starts[k].initial[0] <= 10);
  }
  s.estimate[1].upper = INFINITY;
  CHECK_THROWS_WITH(daekit::fit::fit(problem, registry().solver("radau5"), {data}, s), Catch::Contains("c needs finite bounds"));
}
