// What CVODES and IDAS share for forward sensitivities: the columns of s as SUNDIALS
// vectors, and the scales (pbar) their error weights are divided by.
#pragma once

#include <nvector/nvector_serial.h>

#include <Eigen/Core>
#include <cmath>
#include <vector>

#include <daekit/problem_view.hpp>
#include <daekit/solve_request.hpp>

namespace daekit::plugins::sundials {

// What CVODES' and IDAS' sensitivity counters say, summed over restarts (which zero them).
struct SensitivityCounters {
  long iterations = 0, error_test_failures = 0;
  SensitivityCounters& operator+=(const SensitivityCounters& o) {
    iterations += o.iterations, error_test_failures += o.error_test_failures;
    return *this;
  }
  // Each iteration of the staggered corrector back-solves every column once; a step its
  // error test rejects is a rejected step too.
  void add_to(dk_stats& s, int columns) const {
    s.nsolve_sens += iterations * columns;
    s.nsolve += iterations * columns;
    s.nsens_error_fails += error_test_failures;
    s.rejected += error_test_failures;
    s.steps += error_test_failures;
  }
};

// ns serial vectors of length n, as CVodeSensInit and IDASensInit take them.
class VectorArray {
 public:
  VectorArray(int count, N_Vector like) : count_(count), v_(count > 0 ? N_VCloneVectorArray(count, like) : nullptr) {}
  ~VectorArray() {
    if (v_) N_VDestroyVectorArray(v_, count_);
  }
  VectorArray(const VectorArray&) = delete;
  VectorArray& operator=(const VectorArray&) = delete;
  N_Vector* data() const { return v_; }
  int size() const { return count_; }
  Eigen::Map<Eigen::VectorXd> column(int k) const { return {N_VGetArrayPointer(v_[k]), N_VGetLength(v_[k])}; }
  void store(const Eigen::MatrixXd& s) const {
    for (int k = 0; k < count_; ++k) column(k) = s.col(k);
  }
  void load(Eigen::MatrixXd& s) const {
    if (count_ == 0) return;
    s.resize(N_VGetLength(v_[0]), count_);
    for (int k = 0; k < count_; ++k) s.col(k) = column(k);
  }

 private:
  int count_;
  N_Vector* v_;
};

// The magnitude each column's sensitivity is measured against (SUNDIALS' pbar): a
// parameter's declared scale, else its nominal value's size, else 1; 1 for an initial
// value. The error weight of dy/dq_k is then that of y with atol divided by pbar_k.
inline std::vector<double> sensitivity_scales(const ProblemView& problem, const SolveRequest& request) {
  std::vector<double> pbar;
  const dk_problem_info& info = problem.info();
  for (auto q : request.sens_index) {
    double scale = 1.0;
    if (q >= 0) {
      const double declared = info.p_scale ? info.p_scale[q] : 0.0;
      const double nominal = std::abs(info.p_nominal[q]);
      scale = declared > 0.0 ? declared : nominal > 0.0 ? nominal : 1.0;
    }
    pbar.push_back(scale);
  }
  return pbar;
}

}  // namespace daekit::plugins::sundials
