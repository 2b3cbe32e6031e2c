// Locating sign changes of event functions g_i(t) on one step's interval, given a way
// to evaluate g anywhere inside it (from the step's dense output). The method is the
// one of Hiebert and Shampine's rootfinder, which SUNDIALS' CVODE and IDA use: a
// bracketed secant (Illinois) iteration towards the earliest crossing over all
// functions, stopped when the bracket is below a time tolerance; every function that
// crosses inside the final bracket fires together.
//
// Conventions that make event handling predictable:
//  * A function that is exactly zero at the left end has not crossed (a restart on the
//    surface is not an event); one that reaches zero at the right end has.
//  * A crossing counts only in an allowed direction (+1 rising, -1 falling, 0 both);
//    crossings the other way are passed over.
//  * A grazing zero (g touches 0 without a sign change) is not an event.
//  * Where a function keeps its sign at both ends but is small against its change over
//    the interval, its value at the midpoint is looked at too, so that two crossings
//    within one step (down and up again) are not both missed.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/function_ref.hpp"
#include "daekit/status.hpp"

namespace daekit {

struct RootBracket {
  double t = 0.0;                     // the located time: the bracket's right end
  std::vector<std::int32_t> fired;    // functions that changed sign in (t - tolerance, t]
  std::vector<std::int8_t> directions;  // +1 rising, -1 falling, for each fired
};

class RootFinder {
 public:
  // g(t, out) fills out (size m) and returns ok, or a failure that ends the search.
  using Evaluate = FunctionRef<Eval(double t, Eigen::VectorXd& out)>;

  // allowed[i]: DK_ROOT_* direction of function i.
  explicit RootFinder(std::vector<std::int8_t> allowed);

  // Searches (a, b] (b may lie before a when integrating backwards). ga, gb: g at the
  // ends. Returns ok with *found true and the earliest crossing in *root, ok with
  // *found false when nothing crosses, or the failure of an evaluation.
  Eval search(const Evaluate& g, double a, double b, const Eigen::VectorXd& ga, const Eigen::VectorXd& gb,
              RootBracket* root, bool* found);

  // The largest bracket left at the end: a few hundred ulps of the times involved.
  static double time_tolerance(double a, double b);

 private:
  // Direction of an allowed crossing between the two values (+1/-1), or 0 for none.
  int crossing(std::size_t i, double left, double right) const;
  bool any_crossing(const Eigen::VectorXd& left, const Eigen::VectorXd& right) const;
  Eval refine(const Evaluate& g, double lo, double hi, Eigen::VectorXd glo, Eigen::VectorXd ghi, RootBracket* root);

  std::vector<std::int8_t> allowed_;
  Eigen::VectorXd gmid_;
};

}  // namespace daekit
