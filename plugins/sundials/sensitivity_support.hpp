// What CVODES and IDAS share for forward sensitivities: the columns of s as SUNDIALS
// vectors, and their counters.
#pragma once

#include <nvector/nvector_serial.h>

#include <Eigen/Core>
#include <daekit/abi.h>

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

}  // namespace daekit::plugins::sundials
