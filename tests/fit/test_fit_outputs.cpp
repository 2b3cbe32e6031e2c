// Data that observe outputs of the problem, o(t, y, p), instead of components of y: the
// fit's residuals use the outputs as the solve recorded them, its Jacobian o_y s + o_p by
// differences; the parameters are recovered from outputs alone, with the Jacobian of a fit
// on the components; an adjoint fit of outputs is refused, naming the output.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <daekit/fit/fit.hpp>
#include <limits>
#include <memory>
#include <string>
#include <sstream>

namespace {

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

// y1' = -a y1, y2' = a y1 - b y2 (y1(0) = 1, y2(0) = 0); outputs "total" = y1 + y2 and
// "signal" = g y2, the gain g a parameter that enters the output only. Closed form:
// y1 = e^{-a t}, y2 = a/(b - a) (e^{-a t} - e^{-b t}).
class Chain : public daekit::Problem {
 public:
  Chain() {
    info_.name = "chain_with_outputs";
    info_.title = "two-species chain observed through outputs";
    info_.n = 2;
    info_.tend = 4.0;
    info_.autonomous = true;
    info_.component_names = {"y1", "y2"};
    info_.outputs = {"total", "signal"};
    info_.parameters = {{"a", 1.3, 0.0}, {"b", 0.4, 0.0}, {"g", 2.0, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y << 1.0, 0.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << -p(0) * y[0], p(0) * y[0] - p(1) * y[1];
    return daekit::Eval::ok;
  }
  daekit::Eval outputs(double, daekit::ConstVector y, std::span<const std::uint32_t> which,
                       daekit::Vector values) override {
    for (std::size_t k = 0; k < which.size(); ++k)
      values[static_cast<Eigen::Index>(k)] = which[k] == 0 ? y[0] + y[1] : p(2) * y[1];
    return daekit::Eval::ok;
  }
};

// y' = -k y with a switch at t = 1 (a time event) that the output "level" = y + on reads:
// after the solve the switch is on at every t, so the output is not a function of (t, y).
class Switched : public daekit::Problem {
 public:
  Switched() {
    info_.name = "switched_output";
    info_.title = "an output that reads a mode";
    info_.n = 1;
    info_.tend = 2.0;
    info_.time_events = true;
    info_.outputs = {"level"};
    info_.parameters = {{"k", 0.5, 0.0}};
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y[0] = 1.0; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -p(0) * y[0];
    return daekit::Eval::ok;
  }
  double next_time_event(double t) override { return t < 1.0 ? 1.0 : std::numeric_limits<double>::infinity(); }
  daekit::EventAction on_event(const daekit::Event&, daekit::Vector) override {
    on_ = true;
    return daekit::EventAction::proceed;
  }
  daekit::Eval outputs(double, daekit::ConstVector y, std::span<const std::uint32_t>, daekit::Vector values) override {
    values[0] = y[0] + (on_ ? 1.0 : 0.0);
    return daekit::Eval::ok;
  }

 private:
  bool on_ = false;
};

double y1(double a, double t) { return std::exp(-a * t); }
double y2(double a, double b, double t) { return a / (b - a) * (std::exp(-a * t) - std::exp(-b * t)); }

daekit::fit::FitSettings settings(const std::vector<std::string>& names, const std::vector<double>& initial) {
  daekit::fit::FitSettings s;
  for (std::size_t k = 0; k < names.size(); ++k) {
    daekit::fit::Estimate e;
    e.name = names[k];
    e.initial = initial[k];
    s.estimate.push_back(e);
  }
  s.run.rtol = 1e-10;
  s.run.atol = 1e-14;
  s.gradient = "forward";
  return s;
}

// "total" and "signal" at six times from the closed form at a = 1.3, b = 0.4, g = 2.
std::string output_csv() {
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,name,value,sigma\n";
  for (const double t : {0.25, 0.5, 1.0, 1.5, 2.5, 4.0}) {
    csv << t << ",total," << y1(1.3, t) + y2(1.3, 0.4, t) << ",0.01\n";
    csv << t << ",signal," << 2.0 * y2(1.3, 0.4, t) << ",0.01\n";
  }
  return csv.str();
}

}  // namespace

TEST_CASE("a fit recovers parameters from outputs of the problem, one of them a parameter of the output alone",
          "[fit][outputs]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Chain>());
  const auto data = daekit::fit::parse_experiment(output_csv(), "chain", "chain.csv");
  const auto r = daekit::fit::fit(problem, registry().solver("rodas5p"), {data}, settings({"a", "b", "g"}, {1.0, 0.6, 1.5}));
  INFO(r.message);
  REQUIRE(r.success());
  CHECK(std::abs(r.estimates[0] / 1.3 - 1) < 1e-6);
  CHECK(std::abs(r.estimates[1] / 0.4 - 1) < 1e-6);
  CHECK(std::abs(r.estimates[2] / 2.0 - 1) < 1e-6);
  CHECK(r.chi2 < 1e-8);
  // The model curves carry the outputs, as the solve recorded them.
  const auto curves = daekit::fit::model_curves(problem, registry().solver("rodas5p"), {data},
                                                settings({"a", "b", "g"}, {1.0, 0.6, 1.5}), r.estimates);
  REQUIRE(curves.size() == 1);
  CHECK(curves[0].names == std::vector<std::string>{"total", "signal"});
  const std::size_t last = curves[0].t.size() - 1;
  CHECK(std::abs(curves[0].values[2 * last + 1] - 2.0 * y2(1.3, 0.4, curves[0].t[last])) < 1e-6);
}

TEST_CASE("the standard errors of a fit on outputs come from o_y s + o_p: a gain seen only in its output",
          "[fit][outputs]") {
  // With noise-free data and sigma 0.01 the covariance is that of J alone: the same
  // measurements written as components (y1 + y2 is not a component, but g y2 is g times
  // one) give g's standard error from the closed form of d(g y2)/dg = y2.
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Chain>());
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,name,value,sigma\n";
  double information = 0;  // sum (d signal / d g / sigma)^2 with a, b held: g's alone
  for (const double t : {0.5, 1.0, 2.0, 3.0}) {
    csv << t << ",signal," << 2.0 * y2(1.3, 0.4, t) << ",0.01\n";
    information += std::pow(y2(1.3, 0.4, t) / 0.01, 2);
  }
  const auto data = daekit::fit::parse_experiment(csv.str(), "gain", "gain.csv");
  auto s = settings({"g"}, {1.0});
  const auto r = daekit::fit::fit(problem, registry().solver("rodas5p"), {data}, s);
  INFO(r.message);
  REQUIRE(r.success());
  CHECK(std::abs(r.estimates[0] / 2.0 - 1) < 1e-8);
  REQUIRE(r.standard_errors.size() == 1);
  CHECK(std::abs(r.standard_errors[0] * std::sqrt(information) - 1) < 1e-5);
}

TEST_CASE("outputs in a fit: unknown names get the closest of components and outputs; an adjoint fit is refused",
          "[fit][outputs]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Chain>());
  const auto misspelt = daekit::fit::parse_experiment("t,name,value,sigma\n1,signl,0.5,0.01\n", "x", "x.csv");
  CHECK_THROWS_WITH(daekit::fit::fit(problem, registry().solver("rodas5p"), {misspelt}, settings({"a"}, {1.0})),
                    Catch::Contains("no component or output 'signl'") && Catch::Contains("signal"));
  const auto data = daekit::fit::parse_experiment(output_csv(), "chain", "chain.csv");
  auto s = settings({"a", "b"}, {1.0, 0.6});
  s.gradient = "adjoint";
  CHECK_THROWS_WITH(daekit::fit::fit(problem, registry().solver("rodas5p"), {data}, s),
                    Catch::Contains("output 'total'") && Catch::Contains("gradient forward"));
}

TEST_CASE("an output that reads a mode changed by a later event is refused, not differenced", "[fit][outputs]") {
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Switched>());
  const auto data = daekit::fit::parse_experiment(
      "t,name,value,sigma\n0.5,level," + std::to_string(std::exp(-0.25)) + ",0.01\n1.5,level," +
          std::to_string(1 + std::exp(-0.75)) + ",0.01\n",
      "s", "s.csv");
  CHECK_THROWS_WITH(daekit::fit::fit(problem, registry().solver("rodas5p"), {data}, settings({"k"}, {0.4})),
                    Catch::Contains("'level' at t = 0.5") && Catch::Contains("beyond y"));
}
