#include "daekit/api/stat_fields.hpp"

#include <cstring>
#include <type_traits>

namespace daekit::api {
namespace {

using S = dk_stats;

const StatField fields[] = {
    {"steps", "attempted steps", "count", &S::steps},
    {"accepted", "accepted steps", "count", &S::accepted},
    {"rejected", "steps rejected by the error test", "count", &S::rejected},
    {"nfev", "right-hand side or residual evaluations, all purposes", "count", &S::nfev},
    {"nfev_jac", "of which for finite-difference Jacobians", "count", &S::nfev_jac},
    {"njac", "Jacobian evaluations (analytic or finite differences)", "count", &S::njac},
    {"nlu", "LU factorisations", "count", &S::nlu},
    {"nsolve", "linear back-solves", "count", &S::nsolve},
    {"nnewton", "Newton iterations", "count", &S::nnewton},
    {"nnewton_fail", "Newton iterations that failed to converge", "count", &S::nnewton_fail},
    {"nsingular", "singular iteration matrices met", "count", &S::nsingular},
    {"nmass", "mass matrix evaluations", "count", &S::nmass},
    {"order_last", "the order of the last step", "order", &S::order_last},
    {"jacobian", "the Jacobian the solver used: analytic, finite differences or none", "name", &S::jacobian_used,
     true, jacobian_name},
    {"h_last", "the size of the last step", "step", &S::h_last},
    {"wall_s", "wall time of the solve", "s", &S::wall_s, true},
    {"njac_reused", "steps that reused an older Jacobian", "count", &S::njac_reused},
    {"linear_algebra", "the LUs the solver used: dense or sparse, or krylov (null: it did not say)", "name",
     &S::linear_algebra, true, linear_algebra_name, 1},
    {"nfailed_eval", "model evaluations that failed (recoverable, fatal or non-finite)", "count", &S::nfailed_eval,
     false, nullptr, 2},
    {"nevents", "events handled (functions firing together at one t are one event)", "count", &S::nevents, false,
     nullptr, 2},
    {"nroot_evals", "evaluations of the root functions", "count", &S::nroot_evals, false, nullptr, 2},
    {"nconstraint_fails", "steps rejected for ending outside a sign constraint", "count", &S::nconstraint_fails,
     false, nullptr, 2},
    {"nroots_fired", "root functions that fired", "count", &S::nroots_fired, false, nullptr, 3},
    {"nderivative_checks", "run-time comparisons of supplied Jacobians with differences", "count",
     &S::nderivative_checks, false, nullptr, 3},
    {"nderivative_mismatches", "of which disagreed (the solver then used differences)", "count",
     &S::nderivative_mismatches, false, nullptr, 3},
    {"nfev_sens", "evaluations made for sensitivities (also in nfev)", "count", &S::nfev_sens, false, nullptr, 3},
    {"nsolve_sens", "back-solves made for sensitivities (also in nsolve)", "count", &S::nsolve_sens, false, nullptr,
     3},
    {"nsens_error_fails", "steps rejected for the sensitivities' error alone", "count", &S::nsens_error_fails, false,
     nullptr, 3},
    {"nlin_iters", "Krylov iterations", "count", &S::nlin_iters, false, nullptr, 3},
    {"nlin_conv_fails", "linear solves that ended before their tolerance", "count", &S::nlin_conv_fails, false,
     nullptr, 3},
    {"njtv", "Jacobian-vector products", "count", &S::njtv, false, nullptr, 3},
    {"nprec_setups", "preconditioner setups", "count", &S::nprec_setups, false, nullptr, 3},
    {"nprec_solves", "preconditioner applications", "count", &S::nprec_solves, false, nullptr, 3},
};

}  // namespace

const char* jacobian_name(std::int32_t kind) {
  if (kind == DK_JACOBIAN_ANALYTIC) return "analytic";
  if (kind == DK_JACOBIAN_FINITE_DIFFERENCE) return "finite differences";
  return "none";
}

const char* linear_algebra_name(std::int32_t kind) {
  if (kind == DK_LINEAR_ALGEBRA_DENSE) return "dense";
  if (kind == DK_LINEAR_ALGEBRA_SPARSE) return "sparse";
  if (kind == DK_LINEAR_ALGEBRA_KRYLOV) return "krylov";
  return nullptr;
}

std::span<const StatField> stat_fields() { return fields; }

StatValue stat_value(const dk_stats& stats, const StatField& field) {
  return std::visit(
      [&](auto member) -> StatValue {
        const auto v = stats.*member;
        if constexpr (std::is_same_v<decltype(v), const double>) {
          return v;
        } else {
          if (field.value_name) return field.value_name(static_cast<std::int32_t>(v));
          return static_cast<std::int64_t>(v);
        }
      },
      field.member);
}

void set_stat(dk_stats& stats, const StatField& field, const StatValue& value) {
  std::visit(
      [&](auto member) {
        using T = std::remove_reference_t<decltype(stats.*member)>;
        if (const auto* i = std::get_if<std::int64_t>(&value)) stats.*member = static_cast<T>(*i);
        if (const auto* d = std::get_if<double>(&value)) stats.*member = static_cast<T>(*d);
        if (const auto* name = std::get_if<const char*>(&value); name && *name && field.value_name)
          for (std::int32_t k = 0; k < 16; ++k)
            if (const char* n = field.value_name(k); n && std::strcmp(n, *name) == 0) stats.*member = static_cast<T>(k);
      },
      field.member);
}

void add_stats(dk_stats& total, const dk_stats& one) {
  for (const StatField& field : fields)
    std::visit(
        [&](auto member) {
          if (field.unit == "count" || field.unit == "s")
            total.*member += one.*member;
          else
            total.*member = one.*member;
        },
        field.member);
}

}  // namespace daekit::api
