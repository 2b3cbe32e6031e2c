#include "daekit/problem_view.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace daekit {

ProblemView::ProblemView(const dk_problem& problem, Stats& stats) : p_(problem), stats_(stats) {
  if (!p_.vtbl || !p_.vtbl->info) throw std::invalid_argument("problem handle without a function table");
  info_ = p_.vtbl->info(p_.self);
  if (!info_ || info_->n == 0) throw std::invalid_argument("problem reports no size");
}

std::string ProblemView::component(Eigen::Index i) const {
  std::string s = std::to_string(i + 1);
  if (info_->component_names && info_->component_names[i]) s += std::string(" (") + info_->component_names[i] + ")";
  return s;
}

std::string ProblemView::root_name(std::size_t i) const {
  std::string s = std::to_string(i + 1);
  if (has_1_2_info() && info_->root_names && info_->root_names[i]) s += std::string(" (") + info_->root_names[i] + ")";
  return s;
}

std::string ProblemView::entry(Eigen::Index k, Layout layout) const {
  if (layout == Layout::vector) return "component " + component(k);
  if (layout == Layout::roots) return "root function " + root_name(static_cast<std::size_t>(k));
  if (layout == Layout::flat) return "entry " + std::to_string(k + 1);
  if (layout == Layout::parameters)
    return "row " + component(k % size()) + ", parameter '" + parameter_name(static_cast<std::size_t>(k / size())) + "'";
  if (layout == Layout::parameter_pattern) {
    const dk_sparsity& pat = info_->dfdp_pattern;
    std::size_t col = 0;
    while (col + 1 < np() && pat.col_ptr[col + 1] <= k) ++col;
    return "row " + component(pat.row_idx[k]) + ", parameter '" + parameter_name(col) + "'";
  }
  Eigen::Index row = 0, col = 0;
  if (layout == Layout::dense_matrix) {
    row = k % size();
    col = k / size();
  } else {
    const auto& pat = layout == Layout::sparse_mass ? info_->mass_pattern : info_->jac_pattern;
    while (col + 1 < size() && pat.col_ptr[col + 1] <= k) ++col;
    row = pat.row_idx[k];
  }
  return "row " + component(row) + ", column " + component(col);
}

std::string ProblemView::failure_summary() const {
  if (failed_ == 0) return "";
  return "the model failed " + std::to_string(failed_) + (failed_ == 1 ? " evaluation" : " evaluations") +
         "; the last: " + message_;
}

Eval ProblemView::finish(dk_eval code, const char* what, double t, const double* out, Eigen::Index count,
                         Layout layout) {
  const Eval e = classify(code, what, t, out, count, layout);
  if (e == Eval::recoverable || e == Eval::fatal) ++failed_;
  return e;
}

Eval ProblemView::classify(dk_eval code, const char* what, double t, const double* out, Eigen::Index count,
                           Layout layout) {
  if (code == DK_EVAL_OK) {
    // Eigen's vectorised test on every evaluation; the entry is looked for only when
    // there is one to report.
    if (Eigen::Map<const Eigen::VectorXd>(out, count).allFinite()) return Eval::ok;
    for (Eigen::Index i = 0; i < count; ++i) {
      if (!std::isfinite(out[i])) {
        std::ostringstream m;
        m << "the model's " << what << " returned a non-finite value (" << out[i] << ") in "
          << entry(i, layout) << " at t=" << t;
        message_ = m.str();
        return Eval::recoverable;
      }
    }
    return Eval::ok;
  }
  if (code == DK_EVAL_RECOVERABLE) {
    message_ = std::string("the model's ") + what + " could not be evaluated here (recoverable)";
    return Eval::recoverable;
  }
  if (code == DK_EVAL_NOT_PROVIDED) {
    message_ = std::string("the model does not provide ") + what;
    return Eval::not_provided;
  }
  if (escaped_) {
    escaped_ = false;
    message_ = std::string("the model's ") + what + " let an exception escape the plugin boundary";
    return Eval::fatal;
  }
  char buf[512] = {0};
  if (p_.vtbl->last_error) guarded([&] { return static_cast<dk_eval>(p_.vtbl->last_error(p_.self, buf, sizeof buf)); });
  message_ = std::string("the model's ") + what + " failed: " + (buf[0] ? buf : "no message");
  return Eval::fatal;
}

Eval ProblemView::rhs(double t, ConstRef y, Ref f, bool for_jacobian) {
  ++stats_.nfev;
  if (for_jacobian) ++stats_.nfev_jac;
  if (!p_.vtbl->rhs) return finish(DK_EVAL_NOT_PROVIDED, "right-hand side", t, nullptr, 0);
  return finish(guarded([&] { return p_.vtbl->rhs(p_.self, t, y.data(), f.data()); }), "right-hand side", t, f.data(), size());
}

// A local vector's entries are not components (a rank sees a block of rows and its ghosts):
// failures name positions in it.
Eval ProblemView::rhs_local(double t, const double* y_local, double* f, bool for_jacobian) {
  ++stats_.nfev;
  if (for_jacobian) ++stats_.nfev_jac;
  const auto owned = static_cast<Eigen::Index>(distribution()->n_local);
  return finish(guarded([&] { return p_.vtbl->rhs_local(p_.self, t, y_local, f); }), "local right-hand side", t, f,
                owned, Layout::flat);
}

Eval ProblemView::jacobian_local(double t, const double* y_local, double* values) {
  if (!has_jacobian_local()) return finish(DK_EVAL_NOT_PROVIDED, "local Jacobian", t, nullptr, 0);
  const auto nnz = static_cast<Eigen::Index>(distribution()->jac_nnz);
  return finish(guarded([&] { return p_.vtbl->jacobian_local(p_.self, t, y_local, values); }), "local Jacobian", t,
                values, nnz, Layout::flat);
}

Eval ProblemView::mass_diagonal_local(double* d) {
  ++stats_.nmass;
  const auto owned = static_cast<Eigen::Index>(distribution()->n_local);
  if (!p_.vtbl->mass_diagonal_local) {  // M = I
    Eigen::Map<Eigen::VectorXd>(d, owned).setOnes();
    return Eval::ok;
  }
  return finish(guarded([&] { return p_.vtbl->mass_diagonal_local(p_.self, d); }), "local mass diagonal", info_->t0, d,
                owned, Layout::flat);
}

Eval ProblemView::jacobian(double t, ConstRef y, Eigen::MatrixXd& dfdy) {
  if (!p_.vtbl->jacobian) return finish(DK_EVAL_NOT_PROVIDED, "Jacobian", t, nullptr, 0);
  dfdy.resize(size(), size());
  dk_eval code = guarded([&] { return p_.vtbl->jacobian(p_.self, t, y.data(), dfdy.data(), n()); });
  return finish(code, "Jacobian", t, dfdy.data(), dfdy.size(), Layout::dense_matrix);
}

Eval ProblemView::jacobian_sparse(double t, ConstRef y, Eigen::SparseMatrix<double>& dfdy) {
  if (!p_.vtbl->jacobian_sparse) return finish(DK_EVAL_NOT_PROVIDED, "sparse Jacobian", t, nullptr, 0);
  // dfdy must have been built from sparsity_pattern(): its value array is in pattern order.
  dk_eval code = guarded([&] { return p_.vtbl->jacobian_sparse(p_.self, t, y.data(), dfdy.valuePtr()); });
  return finish(code, "sparse Jacobian", t, dfdy.valuePtr(), dfdy.nonZeros(), Layout::sparse_matrix);
}

Eval ProblemView::dfdt(double t, ConstRef y, Ref df) {
  if (!p_.vtbl->dfdt) return finish(DK_EVAL_NOT_PROVIDED, "df/dt", t, nullptr, 0);
  return finish(guarded([&] { return p_.vtbl->dfdt(p_.self, t, y.data(), df.data()); }), "df/dt", t, df.data(), size());
}

bool ProblemView::has_parameter_derivative() const {
  if (np() == 0) return false;
  if (!has_1_3_table()) return false;
  return residual_only() ? p_.vtbl->residual_dfdp != nullptr : p_.vtbl->dfdp != nullptr;
}

// df/dp or dF/dp through `call(values)`, which writes n x np values dense or the pattern's
// values (CSC, n x np); the columns asked for are copied or spread from them.
template <class Call>
Eval ProblemView::parameter_derivative(const char* what, double t, const std::vector<std::int32_t>& columns,
                                       Eigen::MatrixXd& out, Call call) {
  out.setZero(size(), static_cast<Eigen::Index>(columns.size()));
  const dk_sparsity& pattern = info_->dfdp_pattern;
  if (pattern.nnz == 0) {
    dense_dfdp_.setZero(size(), static_cast<Eigen::Index>(np()));
    const Eval e = finish(guarded([&] { return call(dense_dfdp_.data()); }), what, t, dense_dfdp_.data(),
                          dense_dfdp_.size(), Layout::parameters);
    if (e != Eval::ok) return e;
    for (std::size_t k = 0; k < columns.size(); ++k)
      if (columns[k] >= 0) out.col(static_cast<Eigen::Index>(k)) = dense_dfdp_.col(columns[k]);
    return Eval::ok;
  }
  pattern_values_.resize(pattern.nnz);
  const Eval e = finish(guarded([&] { return call(pattern_values_.data()); }), what, t, pattern_values_.data(),
                        static_cast<Eigen::Index>(pattern.nnz), Layout::parameter_pattern);
  if (e != Eval::ok) return e;
  for (std::size_t k = 0; k < columns.size(); ++k) {
    if (columns[k] < 0) continue;
    for (auto v = pattern.col_ptr[columns[k]]; v < pattern.col_ptr[columns[k] + 1]; ++v)
      out(pattern.row_idx[v], static_cast<Eigen::Index>(k)) = pattern_values_[static_cast<std::size_t>(v)];
  }
  return Eval::ok;
}

Eval ProblemView::dfdp(double t, ConstRef y, const std::vector<std::int32_t>& columns, Eigen::MatrixXd& out) {
  if (!has_1_3_table() || !p_.vtbl->dfdp || np() == 0) {
    out.setZero(size(), static_cast<Eigen::Index>(columns.size()));
    return finish(DK_EVAL_NOT_PROVIDED, "df/dp", t, nullptr, 0);
  }
  return parameter_derivative("df/dp", t, columns, out,
                              [&](double* values) { return p_.vtbl->dfdp(p_.self, t, y.data(), values); });
}

Eval ProblemView::dfdp_transpose_times(double t, ConstRef y, ConstRef v, Ref out) {
  const dk_sparsity& pattern = info_->dfdp_pattern;
  if (pattern.nnz == 0 || !has_1_3_table() || !p_.vtbl->dfdp) {
    // No column copied: the model's dense n x np values (dense_dfdp_) are the product's.
    Eigen::MatrixXd none;
    const Eval e = dfdp(t, y, {}, none);
    if (e == Eval::ok) out.noalias() = dense_dfdp_.transpose() * v;
    return e;
  }
  pattern_values_.resize(pattern.nnz);
  const dk_eval code = guarded([&] { return p_.vtbl->dfdp(p_.self, t, y.data(), pattern_values_.data()); });
  const Eval e = finish(code, "df/dp", t, pattern_values_.data(), static_cast<Eigen::Index>(pattern.nnz),
                        Layout::parameter_pattern);
  if (e != Eval::ok) return e;
  for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(np()); ++j) {
    double sum = 0;
    for (auto k = pattern.col_ptr[j]; k < pattern.col_ptr[j + 1]; ++k) sum += pattern_values_[k] * v[pattern.row_idx[k]];
    out[j] = sum;
  }
  return Eval::ok;
}

Eval ProblemView::residual_dfdp(double t, ConstRef y, ConstRef yp, const std::vector<std::int32_t>& columns,
                                Eigen::MatrixXd& out) {
  if (!residual_only()) {
    const Eval e = dfdp(t, y, columns, out);
    out = -out;
    return e;
  }
  if (!has_1_3_table() || !p_.vtbl->residual_dfdp || np() == 0) {
    out.setZero(size(), static_cast<Eigen::Index>(columns.size()));
    return finish(DK_EVAL_NOT_PROVIDED, "dF/dp", t, nullptr, 0);
  }
  return parameter_derivative("dF/dp", t, columns, out, [&](double* values) {
    return p_.vtbl->residual_dfdp(p_.self, t, y.data(), yp.data(), values);
  });
}

Eval ProblemView::mass(double t, ConstRef y, Eigen::MatrixXd& m) {
  ++stats_.nmass;
  m.setZero(size(), size());
  if (!p_.vtbl->mass) {
    if (mass_kind() != MassKind::identity) return finish(DK_EVAL_NOT_PROVIDED, "mass matrix", t, nullptr, 0);
    m.setIdentity();
    return Eval::ok;
  }
  return finish(guarded([&] { return p_.vtbl->mass(p_.self, t, y.data(), m.data(), n()); }), "mass matrix", t, m.data(), m.size(),
                Layout::dense_matrix);
}

Eval ProblemView::mass_diagonal(double t, ConstRef y, Ref d) {
  ++stats_.nmass;
  if (!has_1_2_table() || !p_.vtbl->mass_diagonal) return finish(DK_EVAL_NOT_PROVIDED, "mass matrix (diagonal)", t, nullptr, 0);
  return finish(guarded([&] { return p_.vtbl->mass_diagonal(p_.self, t, y.data(), d.data()); }), "mass matrix", t, d.data(),
                size());
}

Eval ProblemView::mass_sparse(double t, ConstRef y, double* values) {
  ++stats_.nmass;
  if (!has_1_2_table() || !p_.vtbl->mass_sparse) return finish(DK_EVAL_NOT_PROVIDED, "mass matrix (sparse)", t, nullptr, 0);
  return finish(guarded([&] { return p_.vtbl->mass_sparse(p_.self, t, y.data(), values); }), "mass matrix", t, values,
                static_cast<Eigen::Index>(info_->mass_pattern.nnz), Layout::sparse_mass);
}

Eval ProblemView::residual(double t, ConstRef y, ConstRef yp, Ref r, bool for_jacobian) {
  // The ABI's rule for the mass-matrix form: F = M y' - f. The SDK supplies it; a problem
  // written against the bare C header may not, and still runs with residual-form solvers.
  if (!p_.vtbl->residual && !residual_only()) return residual_from_rhs(t, y, yp, r, for_jacobian);
  ++stats_.nfev;
  if (for_jacobian) ++stats_.nfev_jac;
  if (!p_.vtbl->residual) return finish(DK_EVAL_NOT_PROVIDED, "residual", t, nullptr, 0);
  return finish(guarded([&] { return p_.vtbl->residual(p_.self, t, y.data(), yp.data(), r.data()); }), "residual", t, r.data(), size());
}

Eval ProblemView::residual_from_rhs(double t, ConstRef y, ConstRef yp, Ref r, bool for_jacobian) {
  if (const Eval e = rhs(t, y, r, for_jacobian); e != Eval::ok) return e;
  if (mass_kind() == MassKind::identity) {
    r = yp - r;
    return Eval::ok;
  }
  // Only for bare-ABI DAEs without their own residual: M in the problem's own storage.
  switch (mass_storage()) {
    case DK_MASS_STORAGE_DIAGONAL: {
      Eigen::VectorXd d(size());
      if (const Eval e = mass_diagonal(t, y, d); e != Eval::ok) return e;
      r = d.cwiseProduct(yp) - r;
      return Eval::ok;
    }
    case DK_MASS_STORAGE_SPARSE: {
      std::vector<Eigen::Index> positions;
      Eigen::SparseMatrix<double> m = mass_pattern(positions);
      std::vector<double> values(positions.size());
      if (const Eval e = mass_sparse(t, y, values.data()); e != Eval::ok) return e;
      for (std::size_t k = 0; k < positions.size(); ++k) m.valuePtr()[positions[k]] += values[k];
      r = m * yp - r;
      return Eval::ok;
    }
    default: {
      Eigen::MatrixXd m;
      if (const Eval e = mass(t, y, m); e != Eval::ok) return e;
      r = m * yp - r;
      return Eval::ok;
    }
  }
}

Eval ProblemView::residual_jacobian(double t, ConstRef y, ConstRef yp, double cj, Eigen::MatrixXd& j) {
  if (!p_.vtbl->residual_jacobian) return finish(DK_EVAL_NOT_PROVIDED, "residual Jacobian", t, nullptr, 0);
  j.resize(size(), size());
  dk_eval code = guarded([&] { return p_.vtbl->residual_jacobian(p_.self, t, y.data(), yp.data(), cj, j.data(), n()); });
  return finish(code, "residual Jacobian", t, j.data(), j.size(), Layout::dense_matrix);
}

Eval ProblemView::roots(double t, ConstRef y, const double* yp, Ref g) {
  ++stats_.nroot_evals;
  if (!has_1_2_table() || !p_.vtbl->roots) return finish(DK_EVAL_NOT_PROVIDED, "root functions", t, nullptr, 0);
  return finish(guarded([&] { return p_.vtbl->roots(p_.self, t, y.data(), yp, g.data()); }), "root functions", t,
                g.data(), g.size(), Layout::roots);
}

Eval ProblemView::next_time_event(double t, double* t_next) {
  *t_next = std::numeric_limits<double>::infinity();
  if (!has_time_events()) return Eval::ok;
  const dk_eval code = guarded([&] { return p_.vtbl->next_time_event(p_.self, t, t_next); });
  if (code == DK_EVAL_OK && std::isnan(*t_next)) {
    message_ = "the model's next_time_event returned NaN at t=" + std::to_string(t);
    ++failed_;
    return Eval::fatal;
  }
  return finish(code, "next_time_event", t, nullptr, 0);
}

Eval ProblemView::on_event(const dk_event& event, Ref y, Eigen::VectorXd& yp, std::uint32_t* action) {
  *action = DK_EVENT_CONTINUE;
  if (!has_1_2_table() || !p_.vtbl->on_event) return Eval::ok;  // no reaction: the event is reported only
  double* yp_data = yp.size() == size() ? yp.data() : nullptr;
  const dk_eval code = guarded([&] { return p_.vtbl->on_event(p_.self, &event, y.data(), yp_data, action); });
  // The reset state must be usable: a non-finite value is the model's fault, not a step's.
  Eval e = finish(code, "on_event", event.t, y.data(), size());
  if (e == Eval::recoverable) e = Eval::fatal;
  if (e == Eval::ok && *action > DK_EVENT_REINIT) {
    message_ = "the model's on_event returned the unknown action " + std::to_string(*action);
    return Eval::fatal;
  }
  return e;
}

Eval ProblemView::jacobian_sens(double t, ConstRef y, const double* s, Eigen::Index ns, double* out) {
  if (!has_jacobian_sens()) return finish(DK_EVAL_NOT_PROVIDED, "(df/dy) S", t, nullptr, 0);
  const dk_eval code = guarded([&] { return p_.vtbl->jacobian_sens(p_.self, t, y.data(), static_cast<std::size_t>(ns), s, out); });
  return finish(code, "(df/dy) S", t, out, size() * ns, Layout::flat);
}

Eval ProblemView::jacobian_vector(double t, ConstRef y, ConstRef v, Ref out) {
  ++stats_.njtv;
  if (!has_jacobian_vector()) return finish(DK_EVAL_NOT_PROVIDED, "(df/dy) v", t, nullptr, 0);
  const dk_eval code = guarded([&] { return p_.vtbl->jacobian_vector(p_.self, t, y.data(), v.data(), out.data()); });
  return finish(code, "(df/dy) v", t, out.data(), size());
}

Eval ProblemView::residual_jacobian_vector(double t, ConstRef y, ConstRef yp, double cj, ConstRef v, Ref out) {
  ++stats_.njtv;
  if (!has_residual_jacobian_vector()) return finish(DK_EVAL_NOT_PROVIDED, "(dF/dy + cj dF/dy') v", t, nullptr, 0);
  const dk_eval code = guarded(
      [&] { return p_.vtbl->residual_jacobian_vector(p_.self, t, y.data(), yp.data(), cj, v.data(), out.data()); });
  return finish(code, "(dF/dy + cj dF/dy') v", t, out.data(), size());
}

Eval ProblemView::preconditioner_setup(double t, ConstRef y, double gamma, bool& jacobian_current) {
  ++stats_.nprec_setups;
  if (!has_preconditioner()) return finish(DK_EVAL_NOT_PROVIDED, "prec_setup", t, nullptr, 0);
  std::int32_t current = jacobian_current ? 1 : 0;
  const dk_eval code = guarded([&] { return p_.vtbl->prec_setup(p_.self, t, y.data(), gamma, &current); });
  jacobian_current = current != 0;
  return finish(code, "prec_setup", t, nullptr, 0);
}

Eval ProblemView::preconditioner_solve(double t, ConstRef y, ConstRef r, Ref z, double gamma, double delta) {
  ++stats_.nprec_solves;
  if (!has_preconditioner()) return finish(DK_EVAL_NOT_PROVIDED, "prec_solve", t, nullptr, 0);
  const dk_eval code =
      guarded([&] { return p_.vtbl->prec_solve(p_.self, t, y.data(), r.data(), z.data(), gamma, delta); });
  return finish(code, "prec_solve", t, z.data(), size());
}

Eval ProblemView::root_derivatives(double t, ConstRef y, Eigen::MatrixXd& dgdy, Eigen::MatrixXd& dgdp) {
  const auto m = static_cast<Eigen::Index>(nroots()), q = static_cast<Eigen::Index>(np());
  dgdy.setZero(m, size());
  dgdp.setZero(m, q);
  if (!has_root_derivatives()) return finish(DK_EVAL_NOT_PROVIDED, "dg/dy, dg/dp", t, nullptr, 0);
  Eval e = finish(guarded([&] { return p_.vtbl->roots_dgdp(p_.self, t, y.data(), dgdy.data(), dgdp.data()); }),
                  "dg/dy", t, dgdy.data(), dgdy.size(), Layout::flat);
  if (e == Eval::ok) e = finish(DK_EVAL_OK, "dg/dp", t, dgdp.data(), dgdp.size(), Layout::flat);
  return e;
}

Eval ProblemView::reset_derivatives(const dk_event& event, ConstRef y_minus, Eigen::MatrixXd& dRdy,
                                    Eigen::MatrixXd& dRdp) {
  dRdy.setZero(size(), size());
  dRdp.setZero(size(), static_cast<Eigen::Index>(np()));
  if (!has_reset_derivatives()) return finish(DK_EVAL_NOT_PROVIDED, "event_derivatives", event.t, nullptr, 0);
  Eval e = finish(guarded([&] {
                    return p_.vtbl->event_derivatives(p_.self, &event, y_minus.data(), dRdy.data(), dRdp.data());
                  }),
                  "event_derivatives dR/dy", event.t, dRdy.data(), dRdy.size(), Layout::dense_matrix);
  if (e == Eval::ok) e = finish(DK_EVAL_OK, "event_derivatives dR/dp", event.t, dRdp.data(), dRdp.size(), Layout::parameters);
  return e;
}

Eval ProblemView::step_completed(double t, ConstRef y, std::uint32_t* action) {
  *action = DK_EVENT_CONTINUE;
  if (!wants_step_notification()) return Eval::ok;
  const dk_eval code = guarded([&] { return p_.vtbl->step_completed(p_.self, t, y.data(), action); });
  // The step is accepted already: a failure here cannot be retried with a smaller step.
  Eval e = finish(code, "step_completed", t, nullptr, 0);
  if (e == Eval::recoverable) e = Eval::fatal;
  if (e == Eval::ok && *action != DK_EVENT_CONTINUE && *action != DK_EVENT_STOP && *action != DK_EVENT_HANDLE) {
    message_ = "the model's step_completed returned the unknown action " + std::to_string(*action);
    return Eval::fatal;
  }
  return e;
}

namespace {

// A CSC pattern as an Eigen matrix of explicit zeros (rows sorted in each column).
Eigen::SparseMatrix<double> pattern_matrix(const dk_sparsity& pat, Eigen::Index n, const char* what) {
  Eigen::SparseMatrix<double> m(n, n);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(pat.nnz);
  for (Eigen::Index j = 0; j < n; ++j)
    for (int32_t k = pat.col_ptr[j]; k < pat.col_ptr[j + 1]; ++k) entries.emplace_back(pat.row_idx[k], j, 0.0);
  m.setFromTriplets(entries.begin(), entries.end());
  m.makeCompressed();
  if (static_cast<std::size_t>(m.nonZeros()) != pat.nnz)
    throw std::invalid_argument(std::string(what) + " has duplicate or out-of-range entries");
  return m;
}

}  // namespace

Eigen::SparseMatrix<double> ProblemView::sparsity_pattern() const {
  return pattern_matrix(info_->jac_pattern, size(), "the sparsity pattern");
}

Eigen::SparseMatrix<double> ProblemView::mass_pattern(std::vector<Eigen::Index>& value_positions) const {
  const auto& pat = info_->mass_pattern;
  Eigen::SparseMatrix<double> m = pattern_matrix(pat, size(), "the mass matrix's pattern");
  value_positions.resize(pat.nnz);
  for (Eigen::Index j = 0; j < size(); ++j) {
    const int* first = m.innerIndexPtr() + m.outerIndexPtr()[j];
    const int* last = m.innerIndexPtr() + m.outerIndexPtr()[j + 1];
    for (int32_t k = pat.col_ptr[j]; k < pat.col_ptr[j + 1]; ++k)
      value_positions[static_cast<std::size_t>(k)] = std::lower_bound(first, last, pat.row_idx[k]) - m.innerIndexPtr();
  }
  return m;
}

}  // namespace daekit
