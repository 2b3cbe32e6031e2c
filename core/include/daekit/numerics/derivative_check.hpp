// A run-time check of a supplied Jacobian (a plugin's df/dy, an FMU's directional
// derivatives): J d compared with differences of f along a random direction d, scaled
// per component by the tolerances. `daekit check` compares every entry once, before
// anyone runs the problem; this catches at run time, for a few f evaluations, what a user
// who never ran `check` would otherwise get silently: a run that converges slowly or to
// the wrong answer because its Newton or Rosenbrock matrices are wrong.
//
// When: at the 1st, 4th, 16th, 64th ... Jacobian of a solve (so a Jacobian wrong only in
// some region is met there too, at a cost that grows with the logarithm of the count) and
// at the first after each event (a mode switch may change the equations). Cost: two
// evaluations of f per check (central differences, exact for quadratic models). On a
// disagreement the column is found by bisection of d's support (two evaluations per
// halving) and the finding names row, column and both values.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/function_ref.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;
struct SolveRequest;

class DerivativeCheck {
 public:
  // out = J d with the Jacobian being checked.
  using Product = FunctionRef<void(const Eigen::VectorXd& d, Eigen::VectorXd& out)>;
  // The Jacobian's entry (row, column), for the finding.
  using Entry = FunctionRef<double(Eigen::Index row, Eigen::Index column)>;

  void setup(ProblemView& problem, const SolveRequest& request);
  // Whether the Jacobian just evaluated is one to check (counts it).
  bool due();
  // Compares J at (t, y) with differences of f; abs_jd(v, out) gives |J| v (entrywise
  // absolute values), the size of the terms a row of J d sums. ok with *agrees; a model
  // that cannot be evaluated near y leaves the check inconclusive (*agrees true).
  Eval compare(double t, const Eigen::VectorXd& y, const Product& jd, const Product& abs_jd, const Entry& entry,
               bool* agrees);
  // What disagreed, after compare said so.
  const std::string& finding() const { return finding_; }

 private:
  // D = J d by differences of f along d (restricted to columns [first, last)).
  Eval difference(double t, const Eigen::VectorXd& y, Eigen::Index first, Eigen::Index last, Eigen::VectorXd& out,
                  Eigen::VectorXd& f_scale);
  // The row whose disagreement stands out most beyond what differences can tell, or -1:
  // allowed are a share of the terms' size (terms = |J| |d|) and the rounding of f's terms
  // (rounding = |J| |y| + |f|) in the difference.
  static Eigen::Index worst_row(const Eigen::VectorXd& jd, const Eigen::VectorXd& d_diff, const Eigen::VectorXd& terms,
                                const Eigen::VectorXd& rounding);
  // J d - D in `row` for d restricted to columns [first, last).
  Eval row_error(double t, const Eigen::VectorXd& y, Eigen::Index row, Eigen::Index first, Eigen::Index last,
                 const Product& jd, double* error);
  Eval locate_column(double t, const Eigen::VectorXd& y, Eigen::Index row, const Product& jd, Eigen::Index* column);

  ProblemView* problem_ = nullptr;
  Eigen::VectorXd direction_, d_part_, d_whole_, y_work_, f_plus_, f_minus_, jd_, diff_, f_scale_, terms_, rounding_;
  std::int64_t jacobians_ = 0, events_seen_ = 0;
  std::uint64_t seed_ = 0;
  std::string finding_;
};

}  // namespace daekit
