// `daekit check`: conformance checks an author runs on a plugin before
// publishing it. Each check is a line of the report: passed or failed, and why.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <daekit/api/run_setup.hpp>
#include <daekit/loader/registry.hpp>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace daekit::host::check {
using namespace daekit::api;  // the run settings are the library's

// A number as the check lines print it (3 significant digits).
inline std::string fmt(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

// The increment of a check's central difference in a variable of value `value`: 1e-6 of
// max(|value|, floor). A component's floor is 1 (its scale is unknown); a parameter's is 0,
// its own size (eps = 1e-6 moved by an absolute 1e-6 would reach 0), 1e-6 absolute at 0.
inline double difference_increment(double value, double floor) {
  const double size = std::max(floor, std::abs(value));
  return 1e-6 * (size > 0.0 ? size : 1.0);
}
inline constexpr double component_floor = 1.0, parameter_floor = 0.0;

struct Item {
  std::string name;
  bool passed = false;
  std::string detail;
  bool skipped = false;  // not run, and why (counts as passed)
  bool warning = false;  // passed, with something the author should look at
};

struct Report {
  std::string subject;  // "problem 'pendulum' (file)"
  std::vector<Item> items;
  void add(std::string name, bool passed, std::string detail = "") {
    items.push_back({std::move(name), passed, std::move(detail)});
  }
  void skip(std::string name, std::string why) { items.push_back({std::move(name), true, std::move(why), true}); }
  void warn(std::string name, std::string why) {
    items.push_back({std::move(name), true, std::move(why), false, true});
  }
  bool passed() const;
};

// Sizes, flags, finite values everywhere, every provided derivative (dense and sparse
// Jacobian, the pattern's coverage, df/dt, the residual Jacobian) against differences,
// the mass matrix against the differential flags, consistency, the reference.
Report check_problem(const loader::Plugin& plugin, const std::map<std::string, std::string>& params = {});
// A few standard problems (those installed) at moderate tolerance, statistics sanity, bad input.
Report check_solver(const loader::Plugin& plugin, const loader::Registry& registry);

void print(std::ostream& out, const Report& report);

// The events part of check_problem (host/check/event_checks.cpp): y0 and yp0 as the
// problem gives them (yp0 zero where it gives none).
void check_events(Report& report, const loader::Plugin& plugin, const std::map<std::string, std::string>& params,
                  const loader::ProblemInstance& problem, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0);

// The derivatives for sensitivities at events (host/check/event_derivative_checks.cpp):
// dg/dy, dg/dp and the reset's dR/dy, dR/dp against differences, where the problem gives them.
void check_event_derivatives(Report& report, const loader::Plugin& plugin,
                             const std::map<std::string, std::string>& params, const loader::ProblemInstance& problem,
                             const Eigen::VectorXd& y0);

}  // namespace daekit::host::check
