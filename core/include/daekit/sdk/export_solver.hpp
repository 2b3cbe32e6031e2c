// Turns a daekit::Solver subclass into the C function table of abi.h.
//
//   DAEKIT_EXPORT_SOLVER(MySolver, mysolver, "1.0.0", "One line on the method")
//
// The class needs a default constructor and a static `SolverDescription describe()`.
// Several solvers may be exported from one library.
#pragma once

#include <boost/dll/alias.hpp>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "daekit/abi.h"
#include "daekit/eigen_abi.hpp"
#include "daekit/sdk/manifest.hpp"
#include "daekit/sdk/export_problem.hpp"
#include "daekit/sdk/solver.hpp"

namespace daekit::sdk {

// The C description of a solver, kept alive as long as its instance.
class SolverAdapter {
 public:
  SolverAdapter(std::unique_ptr<Solver> impl, const char* name, const char* description, SolverDescription desc)
      : impl_(std::move(impl)), name_(name), description_(description), desc_(std::move(desc)) {
    for (const auto& o : desc_.options)
      coptions_.push_back({o.key.c_str(), o.type.c_str(), o.default_value.c_str(), o.help.c_str()});
    const Capabilities& c = desc_.capabilities;
    info_.struct_size = sizeof(dk_solver_info);
    info_.name = name_.c_str();
    info_.description = description_.c_str();
    info_.max_mass_kind = static_cast<std::uint32_t>(c.max_mass);
    info_.residual_form = c.residual_form ? 1u : 0u;
    info_.max_dae_index = c.max_dae_index;
    info_.flags = (c.dense_output ? DK_SOLVER_DENSE_OUTPUT : 0u) | (c.sparse ? DK_SOLVER_SPARSE : 0u) |
                  (c.banded ? DK_SOLVER_BANDED : 0u) | (c.events ? DK_SOLVER_EVENTS : 0u) |
                  (c.constraints ? DK_SOLVER_CONSTRAINTS : 0u) | (c.keep_dense ? DK_SOLVER_KEEP_DENSE : 0u) |
                  (c.mass_storage ? DK_SOLVER_MASS_STORAGE : 0u) |
                  (c.step_notification ? DK_SOLVER_STEP_NOTIFICATION : 0u) |
                  (c.event_sampling ? DK_SOLVER_EVENT_SAMPLING : 0u) |
                  (c.sensitivities ? DK_SOLVER_SENSITIVITIES : 0u) | (c.adjoint ? DK_SOLVER_ADJOINT : 0u) |
                  (c.distributed ? DK_SOLVER_DISTRIBUTED : 0u);
    info_.order = c.order;
    info_.noptions = coptions_.size();
    info_.options = coptions_.empty() ? nullptr : coptions_.data();
  }

  const dk_solver_info& info() const { return info_; }
  Solver& impl() { return *impl_; }
  // The last solve's dense output, when it was asked to keep it.
  DenseHistory& dense() { return dense_; }
  dk_solver_vtbl table{};

 private:
  std::unique_ptr<Solver> impl_;
  std::string name_, description_;
  SolverDescription desc_;
  std::vector<dk_option_desc> coptions_;
  dk_solver_info info_{};
  DenseHistory dense_;
};

struct SolverTrampolines {
  static void destroy(void* self) noexcept { delete static_cast<SolverAdapter*>(self); }
  static const dk_solver_info* info(const void* self) noexcept {
    return &static_cast<const SolverAdapter*>(self)->info();
  }

  static std::int32_t dense(void* self, double t, double* y) noexcept {
    if (!self || !y) return 1;
    try {
      return static_cast<SolverAdapter*>(self)->dense().evaluate(t, y) ? 0 : 1;
    } catch (...) {
      return 1;
    }
  }

  static std::int32_t solve(void* self, const dk_problem* problem, const dk_solve_options* options,
                            const dk_output_sink* sink, dk_result* result) noexcept {
    if (!result) return DK_STATUS_INVALID_INPUT;
    auto* a = static_cast<SolverAdapter*>(self);
    dk_result local{};
    local.struct_size = sizeof(dk_result);
    Stats stats{};
    SolveOutcome out;
    const auto start = std::chrono::steady_clock::now();
    try {
      out = run(*a, problem, options, sink, stats);
    } catch (const std::exception& e) {
      out.status = Status::internal_error;
      out.message = std::string("solver '") + a->info().name + "' failed: " + e.what();
    } catch (...) {
      out.status = Status::internal_error;
      out.message = std::string("solver '") + a->info().name + "' failed with an unknown exception";
    }
    stats.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    local.status = static_cast<std::int32_t>(out.status);
    local.t_reached = out.t_reached;
    copy_message(out.message, local.message, sizeof local.message);
    local.stats = stats;
    // Write only what the caller's struct has room for (it may come from an older minor).
    const std::size_t offset = offsetof(dk_result, status);
    const std::size_t size = result->struct_size < sizeof local ? result->struct_size : sizeof local;
    if (size > offset)
      std::memcpy(reinterpret_cast<char*>(result) + offset, reinterpret_cast<const char*>(&local) + offset,
                  size - offset);
    return local.status;
  }

 private:
  static SolveOutcome run(SolverAdapter& a, const dk_problem* problem, const dk_solve_options* options,
                          const dk_output_sink* sink, Stats& stats) {
    SolveOutcome out;
    out.status = Status::invalid_input;
    a.dense().reset(0);  // what an earlier solve kept is gone, whatever this one does
    if (!problem || !problem->vtbl || !options) {
      out.message = "solve called without a problem or options";
      return out;
    }
    ProblemView view(*problem, stats);
    SolveRequest request;
    std::string why;
    if (!check_capabilities(a.info(), view.info(), &why, problem->vtbl)) {
      out.status = Status::unsupported_problem;
      out.message = why;
      return out;
    }
    if (!parse_request(*options, view.info(), &request, &why) ||
        !check_jacobian_request(a.info(), view.info(), problem->vtbl, request, &why) ||
        !check_extra_options(a.info(), request.extra, &why)) {
      out.message = why;
      return out;
    }
    if (!check_sensitivity_request(a.info(), view.info(), request, &why) ||
        !check_adjoint_request(a.info(), view.info(), request, &why)) {
      out.status = Status::unsupported_problem;
      out.message = why;
      return out;
    }
    out.t_reached = request.t0;
    if (!tolerances_attainable(request, &why)) {
      out.status = Status::tolerances_too_small;
      out.message = why;
      return out;
    }
    const dk_event_sink* events = DK_HAS_FIELD(options, dk_solve_options, events) ? options->events : nullptr;
    const dk_sens_sink* sens = DK_HAS_FIELD(options, dk_solve_options, sens) ? options->sens : nullptr;
    OutputSink output(sink, events, sens);
    if (request.keep_dense && (a.info().flags & DK_SOLVER_KEEP_DENSE)) output.keep_dense_in(&a.dense());
    SolveOutcome result = a.impl().solve(view, request, output);
    stats.nfailed_eval = view.failed_evaluations();
    if (!view.warnings().empty())
      result.message = result.message.empty() ? view.warnings() : result.message + "; " + view.warnings();
    return result;
  }
};

template <class Class>
std::int32_t make_solver(const char* name, const char* description, dk_solver* out, char* err,
                         std::size_t err_size) noexcept {
  return guarded_factory(
      [&] {
        auto* adapter = new SolverAdapter(std::make_unique<Class>(), name, description, Class::describe());
        adapter->table = {sizeof(dk_solver_vtbl), &SolverTrampolines::destroy, &SolverTrampolines::info,
                          &SolverTrampolines::solve, &SolverTrampolines::dense};
        out->self = adapter;
        out->vtbl = &adapter->table;
      },
      err, err_size, "solver");
}

}  // namespace daekit::sdk

#define DAEKIT_EXPORT_SOLVER(Class, NAME, VERSION, DESCRIPTION) \
  DAEKIT_EXPORT_SOLVER_TAGGED(Class, NAME, VERSION, DESCRIPTION, DAEKIT_ABI_TAG)
#define DAEKIT_EXPORT_SOLVER_TAGGED(Class, NAME, VERSION, DESCRIPTION, TAG) \
  DAEKIT_EXPORT_SOLVER_EXPAND(Class, NAME, VERSION, DESCRIPTION, TAG)
#define DAEKIT_EXPORT_SOLVER_EXPAND(Class, NAME, VERSION, DESCRIPTION, TAG)                              \
  static std::int32_t daekit_entry_impl_##NAME(const dk_host*, dk_solver* out, char* err,                \
                                               std::size_t err_size) noexcept {                         \
    return ::daekit::sdk::make_solver<Class>(#NAME, DESCRIPTION, out, err, err_size);                   \
  }                                                                                                      \
  DAEKIT_DETAIL_MANIFEST(NAME, DK_KIND_SOLVER, VERSION, DESCRIPTION, TAG)
