// What the adjoint tests share: data terms of a nominal solution, the sum of their
// squares as a functional, its gradient by forward sensitivities, and the check of an
// adjoint gradient against it over three tolerances.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <functional>

namespace adjoint_test {

inline const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

// Measurements of every component at `times`, sigma relative to the nominal solution's
// value, the data 1% off it: r_k = (y_c(t_k) - d_k) / sigma_k.
struct DataTerms {
  std::vector<double> t, value, sigma;
  std::vector<std::size_t> component;
};

inline DataTerms data_for(const daekit::ProblemHandle& problem, const std::vector<double>& times, double tend = NAN) {
  daekit::SolveOptions o;
  if (!std::isnan(tend)) o.tend = tend;
  o.rtol = 1e-10;
  o.atol = 1e-14;
  o.saveat = times;
  const auto s = daekit::solve(problem, registry().solver("radau5"), o);
  REQUIRE(s.success());
  DataTerms d;
  for (std::size_t k = 0; k < s.size(); ++k)
    for (std::size_t i = 0; i < s.n; ++i) {
      const double y = s.point(k)[i];
      d.t.push_back(s.t[k]);
      d.component.push_back(i);
      d.sigma.push_back(std::max(std::abs(y) * 0.01, 1e-12));
      d.value.push_back(y * 1.01 + 0.1 * d.sigma.back());
    }
  return d;
}

inline daekit::api::Functional sum_of_squares(const DataTerms& d) {
  daekit::api::Functional f;
  f.data_t = d.t;
  f.data_term = [&d](std::size_t k, const double* y, double* dy, double*) {
    dy[d.component[k]] = 1.0 / d.sigma[k];
    return (y[d.component[k]] - d.value[k]) / d.sigma[k];
  };
  return f;
}

// dG/dp of the sum of squares from forward sensitivities at the data times.
inline std::vector<double> forward_gradient(const daekit::ProblemHandle& problem, const DataTerms& d, double rtol,
                                     double tend = NAN) {
  daekit::SolveOptions o;
  if (!std::isnan(tend)) o.tend = tend;
  o.rtol = rtol;
  o.atol = rtol * 1e-4;
  o.saveat = d.t;
  o.saveat.erase(std::unique(o.saveat.begin(), o.saveat.end()), o.saveat.end());
  o.sensitivities = {"all"};
  o.sensitivity_error_control = true;
  const auto s = daekit::solve(problem, registry().solver("radau5"), o);
  REQUIRE(s.success());
  std::vector<double> g(s.sensitivity_count(), 0.0);
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    const std::size_t point = static_cast<std::size_t>(std::find(s.t.begin(), s.t.end(), d.t[k]) - s.t.begin());
    const double r = (s.point(point)[d.component[k]] - d.value[k]) / d.sigma[k];
    for (std::size_t q = 0; q < g.size(); ++q) g[q] += r * s.sensitivity(point, d.component[k], q) / d.sigma[k];
  }
  return g;
}

inline daekit::Solution adjoint_solve(const daekit::ProblemHandle& problem, const daekit::api::Functional& f, double rtol,
                               const std::string& solver = "cvode", double tend = NAN) {
  daekit::SolveOptions o;
  if (!std::isnan(tend)) o.tend = tend;
  o.rtol = rtol;
  o.atol = rtol * 1e-4;
  o.output = DK_OUTPUT_END;
  o.adjoint = &f;
  return daekit::solve(problem, registry().solver(solver), o);
}

// The largest difference relative to the largest component of `reference`.
inline double relative_difference(const std::vector<double>& a, const std::vector<double>& reference) {
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    worst = std::max(worst, std::abs(a[k] - reference[k]));
    scale = std::max(scale, std::abs(reference[k]));
  }
  return worst / scale;
}

// The adjoint gradient of a sum of squares of every component at `times` against forward
// sensitivities (radau5, rtol 1e-11), at rtol 1e-6, 1e-8, 1e-10 (or those given): within
// 2e4 rtol, and ten times closer at least for each hundredfold tolerance.
inline void check_sum_of_squares(const std::string& name, const std::vector<double>& times, double tend,
                                 const std::string& solver, const std::vector<double>& rtols = {1e-6, 1e-8, 1e-10}) {
  INFO(name << " by " << solver);
  const auto problem = registry().problem(name);
  const DataTerms d = data_for(problem, times, tend);
  const auto f = sum_of_squares(d);
  const auto reference = forward_gradient(problem, d, 1e-11, tend);
  double previous = INFINITY;
  for (const double rtol : rtols) {
    INFO("rtol " << rtol);
    const auto s = adjoint_solve(problem, f, rtol, solver, tend);
    INFO(s.message);
    REQUIRE(s.success());
    REQUIRE(s.gradient.size() == problem.instance().parameter_count());
    const double error = relative_difference(s.gradient, reference);
    CHECK(error < 2e4 * rtol);
    CHECK(error < previous / 10);
    previous = error;
    REQUIRE(s.functional_value);
    CHECK(*s.functional_value > 0);
  }
}


// An adjoint solve's dG/dp against five-point central differences of G (h = 1e-3 p;
// truncation ~ h^4), each G from `g_now` at the parameters set on the problem's instance.
// With three points, the h small enough for their truncation error met a solver's own error
// in G (1.5e-12 relative at rtol 1e-12, measured with ida) divided by h, 1e-4 relative on
// chemakzo's k3. That error, times the formula's 18/12, bounds what the differences resolve.
inline void check_against_differences(const daekit::ProblemHandle& problem, const daekit::Solution& s,
                                      const std::function<double()>& g_now) {
  const auto& instance = problem.instance();
  const std::vector<double> nominal = instance.parameters();
  auto g_at = [&](std::size_t q, double value) {
    std::vector<double> p = nominal;
    p[q] = value;
    instance.set_parameters(p);
    const double g = g_now();
    instance.set_parameters(nominal);
    return g;
  };
  for (std::size_t q = 0; q < nominal.size(); ++q) {
    INFO(instance.parameter_name(q));
    const double h = 1e-3 * std::abs(nominal[q]), p = nominal[q];
    const double difference = (8 * (g_at(q, p + h) - g_at(q, p - h)) - (g_at(q, p + 2 * h) - g_at(q, p - 2 * h))) / (12 * h);
    INFO("adjoint " << s.gradient[q] << ", differences " << difference);
    CHECK(std::abs(s.gradient[q] - difference) <= 1e-6 * std::abs(difference) + 3e-12 * *s.functional_value / h);
  }
}

}  // namespace adjoint_test
