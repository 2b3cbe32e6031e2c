// The solver's end of the output channel: points go to the host through the C
// callback; the host decides where they are stored. Events (ABI 1.2) go through the
// optional event sink of the solve options.
#pragma once

#include <Eigen/Core>
#include <functional>

#include "daekit/abi.h"
#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/dense_history.hpp"

namespace daekit {

class OutputSink {
 public:
  explicit OutputSink(const dk_output_sink* sink, const dk_event_sink* events = nullptr,
                      const dk_sens_sink* sens = nullptr)
      : sink_(sink), events_(events), sens_(sens) {}
  // false when the receiver asks to stop. With sensitivities asked for, s(t) follows.
  bool emit(double t, const Eigen::VectorXd& y) {
    if (sink_ && sink_->emit && sink_->emit(sink_->env, t, y.data(), static_cast<std::size_t>(y.size())) != 0)
      return false;
    if (!sensitivities_at_ || !wants_sensitivities()) return true;
    if (held_ && t == held_t_) return emit_sensitivities(t, *held_);
    if (!sensitivities_at_(t, s_)) return false;
    return emit_sensitivities(t, s_);
  }
  // s(t) from whoever integrates it; false when it cannot say.
  bool sensitivities_at(double t, Eigen::MatrixXd& s) { return sensitivities_at_ && sensitivities_at_(t, s); }
  // At an event that reset y, points emitted at its time t carry s past the jump (s+),
  // not the last step's s there, until the method restarts from it (nullptr: none held).
  void hold_sensitivities(double t, const Eigen::MatrixXd* s) {
    held_t_ = t;
    held_ = s;
  }
  // Whoever integrates s says how to get it at an emitted t (the last step's interpolant,
  // or s0 at the start): emit() then hands it on beside y.
  using SensitivitySource = std::function<bool(double t, Eigen::MatrixXd& s)>;
  void sensitivities_from(SensitivitySource source) { sensitivities_at_ = std::move(source); }
  bool wants_sensitivities() const { return sens_ && sens_->struct_size >= sizeof(dk_sens_sink) && sens_->emit; }
  // The sensitivities (n x ns, column-major) at the point emitted just before; false to stop.
  bool emit_sensitivities(double t, const Eigen::MatrixXd& s) {
    if (!wants_sensitivities()) return true;
    return sens_->emit(sens_->env, t, s.data(), static_cast<std::size_t>(s.rows()),
                       static_cast<std::size_t>(s.cols())) == 0;
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
  const dk_sens_sink* sens_;
  DenseHistory* dense_ = nullptr;
  SensitivitySource sensitivities_at_;
  Eigen::MatrixXd s_;
  const Eigen::MatrixXd* held_ = nullptr;
  double held_t_ = 0.0;
};

}  // namespace daekit
