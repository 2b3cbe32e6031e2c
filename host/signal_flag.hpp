// SIGINT and SIGTERM, while a long command runs, end it in order instead of at once: for
// as long as an InterruptFlag lives they only set its flag (the command kills its running
// children and writes what finished); the handlers before it are put back afterwards.
#pragma once

#include <csignal>

namespace daekit::host {

class InterruptFlag {
 public:
  InterruptFlag() {
    raised_ = 0;
    struct sigaction on_signal {};
    on_signal.sa_handler = [](int) { raised_ = 1; };
    sigemptyset(&on_signal.sa_mask);
    sigaction(SIGINT, &on_signal, &old_int_);
    sigaction(SIGTERM, &on_signal, &old_term_);
  }
  ~InterruptFlag() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const volatile std::sig_atomic_t* flag() const { return &raised_; }

 private:
  static inline volatile std::sig_atomic_t raised_ = 0;  // a handler can reach only static state
  struct sigaction old_int_ {}, old_term_ {};
};

}  // namespace daekit::host
