// An output of the problem, o(t, y, p) (an FMU's output or local, a plugin's outputs()),
// as a fit observes it: its value at a solution point, and its derivatives by central
// differences, in y along a direction (o_y v) and in a real parameter (o_p). The latter
// moves the instance's parameters and restores them, so it is called between solves only.
#pragma once

#include <cstdint>
#include <vector>

#include "daekit/loader/registry.hpp"

namespace daekit::fit {

class ObservedOutput {
 public:
  // `floor`: the size below which a component of y is noise (atol / rtol), for increments.
  ObservedOutput(const loader::ProblemInstance& problem, std::uint32_t index, double floor);
  // std::runtime_error with the problem's message where it fails.
  double value(double t, const double* y) const;
  // o_y v.
  double along(double t, const double* y, const double* v) const;
  // d o / d p_i at fixed (t, y).
  double along_parameter(double t, const double* y, std::size_t i) const;

 private:
  const loader::ProblemInstance& problem_;
  std::vector<std::uint32_t> which_;
  double floor_;
  std::size_t n_;
};

}  // namespace daekit::fit
