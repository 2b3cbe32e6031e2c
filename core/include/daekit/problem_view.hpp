// A solver's view of a problem it received through the C boundary: counts every
// evaluation in the run's statistics and turns non-finite model output into a
// recoverable failure with a message that names the component and the time.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "daekit/abi.h"
#include "daekit/eigen_abi.hpp"
#include "daekit/status.hpp"

namespace daekit {

using Stats = dk_stats;

class ProblemView {
 public:
  using ConstRef = Eigen::Ref<const Eigen::VectorXd>;
  using Ref = Eigen::Ref<Eigen::VectorXd>;

  ProblemView(const dk_problem& problem, Stats& stats);

  std::size_t n() const { return info_->n; }
  Eigen::Index size() const { return static_cast<Eigen::Index>(info_->n); }
  const dk_problem_info& info() const { return *info_; }
  Stats& stats() { return stats_; }

  MassKind mass_kind() const { return static_cast<MassKind>(info_->mass_kind); }
  bool residual_only() const { return info_->form == DK_FORM_RESIDUAL_ONLY; }
  bool autonomous() const { return info_->flags & DK_PROBLEM_AUTONOMOUS; }
  bool has_analytic_jacobian() const { return p_.vtbl->jacobian != nullptr; }
  bool has_analytic_dfdt() const { return p_.vtbl->dfdt != nullptr; }
  bool has_sparse_jacobian() const { return p_.vtbl->jacobian_sparse != nullptr; }
  bool is_algebraic(Eigen::Index i) const { return info_->differential[i] == 0; }
  int index_of(Eigen::Index i) const { return info_->index[i]; }

  // f(t, y); `for_jacobian` marks evaluations made for finite differences.
  Eval rhs(double t, ConstRef y, Ref f, bool for_jacobian = false);
  Eval jacobian(double t, ConstRef y, Eigen::MatrixXd& dfdy);           // analytic, dense
  Eval jacobian_sparse(double t, ConstRef y, Eigen::SparseMatrix<double>& dfdy);  // analytic, in pattern
  Eval dfdt(double t, ConstRef y, Ref df);                              // analytic
  Eval mass(double t, ConstRef y, Eigen::MatrixXd& m);
  // How M is stored (ABI 1.2; dense for a problem built against an older minor), and M in
  // that storage: n diagonal values, or the values of mass_pattern() in pattern order.
  dk_mass_storage mass_storage() const {
    return has_1_2_info() ? static_cast<dk_mass_storage>(info_->mass_storage) : DK_MASS_STORAGE_DENSE;
  }
  Eval mass_diagonal(double t, ConstRef y, Ref d);
  Eval mass_sparse(double t, ConstRef y, double* values);
  Eval residual(double t, ConstRef y, ConstRef yp, Ref r, bool for_jacobian = false);
  // dF/dy + cj dF/dy', analytic (residual-form problems that provide it).
  Eval residual_jacobian(double t, ConstRef y, ConstRef yp, double cj, Eigen::MatrixXd& j);
  bool has_residual_jacobian() const { return p_.vtbl->residual_jacobian != nullptr; }

  // --- ABI 1.2: absent (0, NULL, false) for a problem built against an older minor. ---
  // Event functions g_i(t, y[, y']) and what a crossing means.
  std::size_t nroots() const { return has_1_2_info() ? info_->nroots : 0; }
  int root_direction(std::size_t i) const {
    return info_->root_direction ? info_->root_direction[i] : DK_ROOT_BOTH;
  }
  bool root_terminal(std::size_t i) const { return info_->root_terminal && info_->root_terminal[i] != 0; }
  std::string root_name(std::size_t i) const;  // "2 (floor)" or "2", 1-based
  // ABI 1.3: tau_i, the shortest time between sign changes of g_i the problem promises (0: none).
  double root_time_scale(std::size_t i) const {
    return DK_HAS_FIELD(info_, dk_problem_info, root_time_scale) && info_->root_time_scale ? info_->root_time_scale[i]
                                                                                             : 0.0;
  }
  bool has_time_events() const {
    return has_1_2_table() && (info_->flags & DK_PROBLEM_TIME_EVENTS) && p_.vtbl->next_time_event;
  }
  // The problem wants step_completed after every accepted step (FMI's completedIntegratorStep).
  bool wants_step_notification() const {
    return has_1_2_table() && (info_->flags & DK_PROBLEM_STEP_NOTIFICATION) && p_.vtbl->step_completed;
  }
  // Whether the problem reacts to events (it may change y or its own mode); without it,
  // events are only reported and the integration goes on as if nothing happened.
  bool has_on_event() const { return has_1_2_table() && p_.vtbl->on_event; }
  // Per component DK_CONSTRAINT_* codes, or NULL when the problem declares none.
  const std::int8_t* constraints() const { return has_1_2_info() ? info_->constraints : nullptr; }

  // g has nroots() entries; yp (n values) may be NULL when the solver keeps no y'.
  Eval roots(double t, ConstRef y, const double* yp, Ref g);
  // The first time event after t (+inf when none).
  Eval next_time_event(double t, double* t_next);
  // The problem's reaction to an event: may change y and yp; sets *action (DK_EVENT_*).
  Eval on_event(const dk_event& event, Ref y, Eigen::VectorXd& yp, std::uint32_t* action);
  // After an accepted step ending at (t, y): sets *action to DK_EVENT_CONTINUE, _STOP or _HANDLE.
  Eval step_completed(double t, ConstRef y, std::uint32_t* action);

  // --- ABI 1.3: real parameters, for sensitivities. ---
  std::size_t np() const { return DK_HAS_FIELD(info_, dk_problem_info, dfdp_pattern) ? info_->np : 0; }
  std::string parameter_name(std::size_t i) const { return info_->p_names[i]; }
  // Whether the problem gives the derivative of its equations with respect to p: df/dp for
  // the mass-matrix form (M must not depend on p), dF/dp for the residual form. The SDK
  // always gives one (exact, or central differences in p); a raw C problem may not.
  bool has_parameter_derivative() const;
  // The columns `columns` of dF/dp at (t, y, y') as a dense n x columns.size() matrix (an
  // entry < 0: a zero column, for an initial value), F = M y' - f for the mass-matrix form
  // (so -df/dp); yp is not read for that form. Where df/dp has a pattern only the asked
  // columns are spread: a model with many parameters and few asked for costs its nonzeros
  // plus n per column, never n x np.
  Eval residual_dfdp(double t, ConstRef y, ConstRef yp, const std::vector<std::int32_t>& columns,
                     Eigen::MatrixXd& out);
  // The same of df/dp, for a mass-matrix problem.
  Eval dfdp(double t, ConstRef y, const std::vector<std::int32_t>& columns, Eigen::MatrixXd& out);
  // (df/dp)^T v (np values) at (t, y), from the pattern's values where df/dp has one: no
  // n x np array, for adjoints with many parameters.
  Eval dfdp_transpose_times(double t, ConstRef y, ConstRef v, Ref out);

  // (df/dy) S in one call (ABI 1.3 jacobian_sens): s and out n x ns, column-major.
  bool has_jacobian_sens() const { return has_1_3_table() && p_.vtbl->jacobian_sens != nullptr && !residual_only(); }
  Eval jacobian_sens(double t, ConstRef y, const double* s, Eigen::Index ns, double* out);

  // --- ABI 1.3: what Krylov solvers ask of a problem (all optional). ---
  // (df/dy) v from the problem (jacobian_vector, flagged DK_PROBLEM_DIRECTIONAL_DERIVATIVE).
  bool has_jacobian_vector() const {
    return (info_->flags & DK_PROBLEM_DIRECTIONAL_DERIVATIVE) && has_1_2_table() && p_.vtbl->jacobian_vector &&
           !residual_only();
  }
  Eval jacobian_vector(double t, ConstRef y, ConstRef v, Ref out);
  // (dF/dy + cj dF/dy') v (residual_jacobian_vector).
  bool has_residual_jacobian_vector() const { return has_krylov_table() && p_.vtbl->residual_jacobian_vector; }
  Eval residual_jacobian_vector(double t, ConstRef y, ConstRef yp, double cj, ConstRef v, Ref out);
  // The problem's preconditioner for M - gamma J (prec_setup, prec_solve).
  bool has_preconditioner() const {
    return (info_->flags & DK_PROBLEM_PRECONDITIONER) && has_krylov_table() && p_.vtbl->prec_setup &&
           p_.vtbl->prec_solve;
  }
  // `jacobian_current`: in, whether the Jacobian data must be re-evaluated; out, whether it was.
  Eval preconditioner_setup(double t, ConstRef y, double gamma, bool& jacobian_current);
  Eval preconditioner_solve(double t, ConstRef y, ConstRef r, Ref z, double gamma, double delta);

  // --- ABI 1.3: the derivatives sensitivities need at events. ---
  bool has_root_derivatives() const { return nroots() > 0 && has_1_3_table() && p_.vtbl->roots_dgdp != nullptr; }
  // dg/dy (nroots x n) and dg/dp (nroots x np), dense.
  Eval root_derivatives(double t, ConstRef y, Eigen::MatrixXd& dgdy, Eigen::MatrixXd& dgdp);
  bool has_reset_derivatives() const { return has_1_3_table() && p_.vtbl->event_derivatives != nullptr; }
  // dR/dy (n x n) and dR/dp (n x np) of the reset on_event just applied, at the left limit.
  Eval reset_derivatives(const dk_event& event, ConstRef y_minus, Eigen::MatrixXd& dRdy, Eigen::MatrixXd& dRdp);

  // --- ABI 1.3 part E: a problem spread over MPI ranks, seen through its local entries. ---
  // The rows this rank owns, or null for a problem that is whole in this process.
  const dk_distribution* distribution() const {
    return dk_distribution_of(info_);
  }
  // y_local: the owned values, then the ghosts; f, values and d: owned rows.
  Eval rhs_local(double t, const double* y_local, double* f, bool for_jacobian = false);
  bool has_jacobian_local() const { return distribution() && p_.vtbl->jacobian_local; }
  Eval jacobian_local(double t, const double* y_local, double* values);
  Eval mass_diagonal_local(double* d);

  // The pattern as an Eigen matrix with explicit zeros (for analysing once).
  Eigen::SparseMatrix<double> sparsity_pattern() const;
  // The sparse mass matrix's pattern, and for each of its entries in the problem's order
  // the position in that matrix's value array (the problem may list rows unsorted).
  Eigen::SparseMatrix<double> mass_pattern(std::vector<Eigen::Index>& value_positions) const;

  // "3 (name)" or "3": a component as messages name it (1-based).
  std::string component(Eigen::Index i) const;

  // Why the last evaluation failed (model message, or the non-finite component).
  const std::string& last_message() const { return message_; }
  // Evaluations that failed (recoverable or fatal, non-finite values included): a
  // solver that ends for another reason names the model's part in it.
  std::int64_t failed_evaluations() const { return failed_; }
  // "" when no evaluation failed, else "the model failed N evaluations; the last: ...".
  std::string failure_summary() const;
  // What a solver leaves for the report although the run goes on (a supplied Jacobian
  // that disagreed with differences): "warning: ..." lines joined to the result's message.
  void warn(const std::string& text) { warnings_ += (warnings_.empty() ? "warning: " : "; warning: ") + text; }
  const std::string& warnings() const { return warnings_; }

 private:
  // A problem written against the raw C ABI may let a C++ exception escape. It must not
  // unwind through a solver (SUNDIALS' C frames cannot be unwound): it ends here, as a
  // fatal evaluation whose message says so.
  template <class Call>
  dk_eval guarded(Call&& call) noexcept {
    try {
      return call();
    } catch (...) {
      escaped_ = true;
      return DK_EVAL_FATAL;
    }
  }
  // How a result's entries map to components, for messages that name them.
  enum class Layout { vector, dense_matrix, sparse_matrix, sparse_mass, roots, parameters, parameter_pattern, flat };
  bool has_1_2_info() const { return DK_HAS_FIELD(info_, dk_problem_info, constraints); }
  // A table with ABI 1.3's parameter and sensitivity entries (set_p .. event_derivatives,
  // its last): a 1.1 or 1.2 plugin's ends before them, and they are not read there.
  bool has_1_3_table() const { return DK_HAS_FIELD(p_.vtbl, dk_problem_vtbl, event_derivatives); }
  bool has_1_2_table() const { return DK_HAS_FIELD(p_.vtbl, dk_problem_vtbl, step_completed); }
  // A table with part D's Krylov entries (residual_jacobian_vector .. prec_solve).
  bool has_krylov_table() const { return DK_HAS_FIELD(p_.vtbl, dk_problem_vtbl, prec_solve); }
  Eval finish(dk_eval code, const char* what, double t, const double* out, Eigen::Index count,
              Layout layout = Layout::vector);
  // F = M y' - f for a mass-matrix problem that provides no residual of its own.
  Eval residual_from_rhs(double t, ConstRef y, ConstRef yp, Ref r, bool for_jacobian);
  Eval classify(dk_eval code, const char* what, double t, const double* out, Eigen::Index count,
              Layout layout = Layout::vector);
  std::string entry(Eigen::Index k, Layout layout) const;
  template <class Call>
  Eval parameter_derivative(const char* what, double t, const std::vector<std::int32_t>& columns,
                            Eigen::MatrixXd& out, Call call);

  dk_problem p_;
  const dk_problem_info* info_;
  Stats& stats_;
  std::string message_, warnings_;
  bool escaped_ = false;
  std::int64_t failed_ = 0;
  std::vector<double> pattern_values_;  // df/dp in its pattern, before it is spread
  Eigen::MatrixXd dense_dfdp_;          // df/dp without a pattern, n x np as the model writes it
};

}  // namespace daekit
