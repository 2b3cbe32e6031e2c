#include "observed_output.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace daekit::fit {

ObservedOutput::ObservedOutput(const loader::ProblemInstance& problem, std::uint32_t index, double floor)
    : problem_(problem), which_{index}, floor_(floor), n_(problem.info().n) {}

double ObservedOutput::value(double t, const double* y) const {
  double out = 0;
  std::string why;
  if (!problem_.outputs(t, y, which_, &out, &why))
    throw std::runtime_error("output '" + problem_.output_name(which_[0]) + "' at t = " + std::to_string(t) + ": " + why);
  return out;
}

// The step along v that moves no component of y by more than eps^(1/3) of its size (or of
// the floor below which the tolerances call it noise).
double ObservedOutput::along(double t, const double* y, const double* v) const {
  double largest = 0;
  for (std::size_t i = 0; i < n_; ++i) largest = std::max(largest, std::abs(v[i]) / (std::abs(y[i]) + floor_));
  if (largest == 0) return 0;
  const double step = std::cbrt(std::numeric_limits<double>::epsilon()) / largest;
  std::vector<double> moved(y, y + n_);
  for (std::size_t i = 0; i < n_; ++i) moved[i] = y[i] + step * v[i];
  const double up = value(t, moved.data());
  for (std::size_t i = 0; i < n_; ++i) moved[i] = y[i] - step * v[i];
  return (up - value(t, moved.data())) / (2 * step);
}

double ObservedOutput::along_parameter(double t, const double* y, std::size_t i) const {
  const std::vector<double> p = problem_.parameters();
  const double step = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(p[i]), 1e-8);
  std::vector<double> moved = p;
  double up = 0, down = 0;
  try {
    moved[i] = p[i] + step;
    problem_.set_parameters(moved);
    up = value(t, y);
    moved[i] = p[i] - step;
    problem_.set_parameters(moved);
    down = value(t, y);
  } catch (...) {
    problem_.set_parameters(p);
    throw;
  }
  problem_.set_parameters(p);
  return (up - down) / (2 * step);
}

}  // namespace daekit::fit
