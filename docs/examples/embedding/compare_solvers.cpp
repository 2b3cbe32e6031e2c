// Solves a plugin problem and a problem of this program with several solver plugins,
// and reads the solution between the output points from the solvers' dense output.
//   compare_solvers [solver ...]      (default: rodas5p radauiia bdf ida)
#include <cmath>
#include <cstdio>
#include <daekit/daekit.hpp>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace {

// A damped oscillator written here, not as a plugin: x'' + 2 zeta w x' + w^2 x = 0 with
// its closed form, given to daekit as its reference at any time.
class Oscillator : public daekit::Problem {
 public:
  Oscillator() {
    info_.name = "oscillator";
    info_.title = "damped oscillator, w = 50, zeta = 0.1";
    info_.n = 2;
    info_.tend = 1.0;
    info_.analytic_jacobian = true;
    info_.reference_at_any_time = true;
  }
  void initial_values(daekit::Vector y0, daekit::Vector) override { y0 << 1.0, -zeta_ * w_; }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f << y[1], -w_ * w_ * y[0] - 2.0 * zeta_ * w_ * y[1];
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView J) override {
    J << 0.0, 1.0, -w_ * w_, -2.0 * zeta_ * w_;
    return daekit::Eval::ok;
  }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    // x = e^{-zeta w t} cos(wd t) from x(0) = 1, x'(0) = -zeta w.
    const double wd = w_ * std::sqrt(1.0 - zeta_ * zeta_), decay = std::exp(-zeta_ * w_ * t);
    y[0] = decay * std::cos(wd * t);
    y[1] = decay * (-zeta_ * w_ * std::cos(wd * t) - wd * std::sin(wd * t));
    return daekit::Eval::ok;
  }

 private:
  double w_ = 50.0, zeta_ = 0.1;
};

}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::string> solvers(argv + 1, argv + argc);
  if (solvers.empty()) solvers = {"rodas5p", "radauiia", "bdf", "ida"};

  const daekit::Registry registry;  // the plugins `daekit list` shows
  const daekit::ProblemHandle rober = registry.problem("rober");
  const daekit::ProblemHandle oscillator = daekit::ProblemHandle::from(std::make_unique<Oscillator>());

  daekit::SolveOptions options;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  options.dense = true;  // keep each step's interpolant: y(t) anywhere afterwards
  int failures = 0;
  std::printf("%-10s %-10s %-8s %6s %7s %6s  %s\n", "problem", "solver", "status", "steps", "scd", "points",
              "y1(0.5) from dense output");
  for (const auto& name : solvers) {
    const daekit::SolverHandle solver = registry.solver(name);
    for (const daekit::ProblemHandle* problem : {&rober, &oscillator}) {
      const daekit::Solution s = daekit::solve(*problem, solver, options);
      std::string middle = "(no dense output)";
      if (s.has_dense()) middle = std::to_string(s(0.5)[0]);
      std::printf("%-10s %-10s %-8s %6lld %7.2f %6zu  %s\n", s.problem.c_str(), s.solver.c_str(),
                  s.status_name().c_str(), static_cast<long long>(s.stats.steps),
                  s.accuracy ? s.accuracy->scd : NAN, s.size(), middle.c_str());
      if (!s.success()) ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
  // Unknown names, bad options: the library's message says which and suggests the closest.
  std::fprintf(stderr, "compare_solvers: %s\n", e.what());
  return 2;
}
