// The solver's end of the output channel: points go to the host through the C
// callback; the host decides where they are stored.
#pragma once

#include <Eigen/Core>

#include "daekit/abi.h"

namespace daekit {

class OutputSink {
 public:
  explicit OutputSink(const dk_output_sink* sink) : sink_(sink) {}
  // false when the receiver asks to stop.
  bool emit(double t, const Eigen::VectorXd& y) {
    if (!sink_ || !sink_->emit) return true;
    return sink_->emit(sink_->env, t, y.data(), static_cast<std::size_t>(y.size())) == 0;
  }

 private:
  const dk_output_sink* sink_;
};

}  // namespace daekit
