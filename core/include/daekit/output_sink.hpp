// The solver's end of the output channel: points go to the host through the C
// callback; the host decides where they are stored. Events (ABI 1.2) go through the
// optional event sink of the solve options.
#pragma once

#include <Eigen/Core>

#include "daekit/abi.h"
#include "daekit/numerics/dense_history.hpp"

namespace daekit {

class OutputSink {
 public:
  explicit OutputSink(const dk_output_sink* sink, const dk_event_sink* events = nullptr)
      : sink_(sink), events_(events) {}
  // false when the receiver asks to stop.
  bool emit(double t, const Eigen::VectorXd& y) {
    if (!sink_ || !sink_->emit) return true;
    return sink_->emit(sink_->env, t, y.data(), static_cast<std::size_t>(y.size())) == 0;
  }
  // A point at an event (DK_MARK_LEFT_LIMIT / DK_MARK_RIGHT_LIMIT); false to stop.
  bool emit_marked(double t, const Eigen::VectorXd& y, std::uint32_t mark) {
    if (!has(&dk_event_sink::emit_marked)) return true;
    return events_->emit_marked(events_->env, t, y.data(), static_cast<std::size_t>(y.size()), mark) == 0;
  }
  // An event and the action that follows it; false to stop.
  bool event(const dk_event& e, std::uint32_t action) {
    if (!has(&dk_event_sink::event)) return true;
    return events_->event(events_->env, &e, action) == 0;
  }
  // Where the driver keeps each accepted step's dense output (keep_dense), or nullptr.
  void keep_dense_in(DenseHistory* history) { dense_ = history; }
  DenseHistory* dense_history() const { return dense_; }

 private:
  template <class Member>
  bool has(Member member) const {
    return events_ && events_->struct_size >= sizeof(dk_event_sink) && events_->*member != nullptr;
  }
  const dk_output_sink* sink_;
  const dk_event_sink* events_;
  DenseHistory* dense_ = nullptr;  // last: code built against the older layout never reads it
};

}  // namespace daekit
