// A problem seen through a flag that someone else may raise (a Ctrl-C in Python, a
// program's cancel button): every model entry is forwarded to the problem, and once
// *interrupt is true the next evaluation of f, F or a Jacobian fails as fatal with the
// message "interrupted", so any solver ends within a step, in any family, without a
// hook of its own. The solve then reports evaluation_failure, "interrupted".
#pragma once

#include <atomic>

#include "daekit/abi.h"

namespace daekit::api {

class InterruptibleProblem {
 public:
  InterruptibleProblem(const dk_problem& inner, const std::atomic<bool>* interrupt);
  InterruptibleProblem(const InterruptibleProblem&) = delete;
  InterruptibleProblem& operator=(const InterruptibleProblem&) = delete;

  const dk_problem& handle() const { return outer_; }
  bool interrupted() const { return interrupt_->load(std::memory_order_relaxed); }
  const dk_problem& inner() const { return inner_; }

 private:
  dk_problem inner_;
  const std::atomic<bool>* interrupt_;
  dk_problem_vtbl table_{};
  dk_problem outer_{};
};

}  // namespace daekit::api
