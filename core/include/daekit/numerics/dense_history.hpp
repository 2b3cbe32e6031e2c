// The dense output of a whole solve, kept for y(t) afterwards (ABI 1.2 keep_dense).
//
// Every method's dense output on one step is a polynomial in t (Rosenbrock's stage
// combination, Radau's collocation polynomial, BDF's divided differences). Instead of a
// format per method, the driver samples that polynomial at degree + 1 Chebyshev-Lobatto
// points of the step, which determine it exactly; y(t) later is the barycentric Lagrange
// form through those samples (stable at any degree the methods use, 1 to 7). A stepper
// says its degree with `int dense_degree() const`; one that does not is not recorded.
// Memory: (degree + 1) n doubles per accepted step.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "daekit/eigen_abi.hpp"

namespace daekit {

class DenseHistory {
 public:
  // Forget the last solve; the next segments have n components each.
  void reset(std::size_t n);
  // The nodes of a segment of this degree as fractions of the step, from 0 to 1.
  static const std::vector<double>& nodes(int degree);
  // Appends the segment [t_a, t_b] from values at t_a + nodes(degree)[j] (t_b - t_a),
  // given column by column in `samples` (n x (degree + 1)). Segments arrive in the
  // direction of integration, each starting where the previous ended or later.
  void add(double t_a, double t_b, int degree, const Eigen::MatrixXd& samples);
  // The same, sampling y at the nodes with value(j, t, y): false from it stops and adds
  // nothing. `scratch` is reused between steps (no allocation once sized).
  template <class Value>
  bool sample(double t_a, double t_b, int degree, Eigen::MatrixXd& scratch, Value&& value) {
    const std::vector<double>& x = nodes(degree);
    scratch.resize(static_cast<Eigen::Index>(n_), degree + 1);
    for (int j = 0; j <= degree; ++j)
      if (!value(j, t_a + x[static_cast<std::size_t>(j)] * (t_b - t_a), scratch.col(j))) return false;
    add(t_a, t_b, degree, scratch);
    return true;
  }

  bool empty() const { return segments_.empty(); }
  // The span covered, in the direction of integration.
  double t_first() const;
  double t_last() const;
  // y(t); false when t lies outside the span or nothing was kept. At a time where two
  // segments meet (an event that changed the state) the later segment's value.
  bool evaluate(double t, double* y) const;

 private:
  struct Segment {
    double t_a, t_b;
    int degree;
    std::size_t offset;  // into values_
  };
  std::size_t n_ = 0;
  std::vector<Segment> segments_;
  std::vector<double> values_;
};

}  // namespace daekit
