#include "daekit/api/interruptible_problem.hpp"

#include <cstdio>
#include <cstring>

namespace daekit::api {

namespace {

// Forwards the entry M of the table to the inner problem; with Checked, an evaluation
// that fails once the flag is raised.
template <auto M, bool Checked>
struct Forward;

template <class R, class... A, R (*dk_problem_vtbl::*M)(void*, A...), bool Checked>
struct Forward<M, Checked> {
  static R call(void* self, A... a) {
    auto* p = static_cast<const InterruptibleProblem*>(self);
    if constexpr (Checked)
      if (p->interrupted()) return DK_EVAL_FATAL;
    return (p->inner().vtbl->*M)(p->inner().self, a...);
  }
};

template <class R, class... A, R (*dk_problem_vtbl::*M)(const void*, A...), bool Checked>
struct Forward<M, Checked> {
  static R call(const void* self, A... a) {
    auto* p = static_cast<const InterruptibleProblem*>(self);
    return (p->inner().vtbl->*M)(p->inner().self, a...);
  }
};

constexpr const char* interrupted_message = "interrupted";

// The problem's own message, or ours once the flag is raised.
std::size_t last_error(const void* self, char* buffer, std::size_t size) {
  auto* p = static_cast<const InterruptibleProblem*>(self);
  if (p->interrupted()) {
    if (size > 0) std::snprintf(buffer, size, "%s", interrupted_message);
    return std::strlen(interrupted_message);
  }
  return p->inner().vtbl->last_error ? p->inner().vtbl->last_error(p->inner().self, buffer, size) : 0;
}

void destroy_nothing(void*) {}  // the inner problem belongs to its owner

}  // namespace

InterruptibleProblem::InterruptibleProblem(const dk_problem& inner, const std::atomic<bool>* interrupt)
    : inner_(inner), interrupt_(interrupt) {
  const dk_problem_vtbl& in = *inner.vtbl;
  table_.struct_size = in.struct_size;  // the same entries as the problem's, no more
  table_.destroy = &destroy_nothing;
  table_.last_error = &last_error;
  const auto has = [&](std::size_t offset) { return in.struct_size >= offset + sizeof(void*); };
#define DK_FORWARD(field, checked)                                                          \
  if (has(offsetof(dk_problem_vtbl, field)) && in.field) \
  table_.field = &Forward<&dk_problem_vtbl::field, checked>::call
  DK_FORWARD(info, false);
  DK_FORWARD(initial_values, false);
  DK_FORWARD(rhs, true);
  DK_FORWARD(jacobian, true);
  DK_FORWARD(jacobian_sparse, true);
  DK_FORWARD(dfdt, false);
  DK_FORWARD(mass, false);
  DK_FORWARD(residual, true);
  DK_FORWARD(residual_jacobian, true);
  DK_FORWARD(reference, false);
  DK_FORWARD(mass_diagonal, false);
  DK_FORWARD(mass_sparse, false);
  DK_FORWARD(roots, false);
  DK_FORWARD(next_time_event, false);
  DK_FORWARD(on_event, false);
  DK_FORWARD(reference_at, false);
  DK_FORWARD(jacobian_vector, true);
  DK_FORWARD(step_completed, false);
  DK_FORWARD(outputs, false);
  DK_FORWARD(set_p, false);
  DK_FORWARD(dfdp, true);
  DK_FORWARD(residual_dfdp, true);
  DK_FORWARD(jacobian_sens, true);
  DK_FORWARD(roots_dgdp, false);
  DK_FORWARD(event_derivatives, false);
  DK_FORWARD(residual_jacobian_vector, true);
  DK_FORWARD(prec_setup, true);
  DK_FORWARD(prec_solve, true);
  DK_FORWARD(rhs_local, true);
  DK_FORWARD(jacobian_local, true);
  DK_FORWARD(mass_diagonal_local, false);
#undef DK_FORWARD
  outer_.vtbl = &table_;
  outer_.self = this;
}

}  // namespace daekit::api
