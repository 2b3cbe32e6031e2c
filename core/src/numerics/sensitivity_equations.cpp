#include "daekit/numerics/sensitivity_equations.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {

SensitivityEquations::SensitivityEquations(ProblemView& problem, const SolveRequest& request)
    : problem_(problem), request_(request), index_(request.sens_index) {
  const dk_problem_info& info = problem.info();
  for (auto q : index_) {
    any_parameter_ = any_parameter_ || q >= 0;
    double scale = 1.0;
    if (q >= 0) {
      const double declared = info.p_scale ? info.p_scale[q] : 0.0, nominal = std::abs(info.p_nominal[q]);
      scale = declared > 0.0 ? declared : nominal > 0.0 ? nominal : 1.0;
    }
    scales_.push_back(scale);
  }
  // A problem in residual form differentiates its residual by directions; one with f
  // and a Jacobian of its own multiplies by it (exact, one evaluation per point).
  if (!problem.residual_only()) {
    exact_sparse_ = problem.has_sparse_jacobian();
    exact_dense_ = !exact_sparse_ && problem.has_analytic_jacobian();
    if (exact_sparse_)
      for (auto& kept : kept_) kept.sparse = problem.sparsity_pattern();
    mass_residual_ = problem.mass_kind() <= MassKind::constant && mass_.setup(problem, request.t0, request.y0) == Eval::ok;
  }
  const Eigen::Index n = problem.size();
  plus_.resize(n);
  minus_.resize(n);
  y_moved_.resize(n);
  yp_moved_.resize(n);
}

std::string SensitivityEquations::refused_for_ode_family(const std::string& solver) const {
  if (any_parameter_ && !problem_.has_parameter_derivative())
    return "problem gives no df/dp, which sensitivities with respect to parameters need";
  if (problem_.residual_only() || problem_.mass_kind() > MassKind::constant)
    return solver + " computes sensitivities of problems M y' = f with a constant M; this one is a residual or has "
                    "a varying M (ida computes them for index-1 DAEs in any form)";
  for (Eigen::Index i = 0; i < problem_.size(); ++i)
    if (problem_.is_algebraic(i) && problem_.index_of(i) >= 2)
      return solver + " computes sensitivities of ODEs and index-1 DAEs; component " + problem_.component(i) +
             " has index " + std::to_string(problem_.index_of(i));
  return "";
}

bool SensitivityEquations::consistent_initial(double t0, const Eigen::VectorXd& y0, Eigen::MatrixXd& s0,
                                              std::string* why) {
  s0 = initial();
  return make_consistent(t0, y0, s0, why);
}

bool SensitivityEquations::algebraic_system(double t, const Eigen::VectorXd& y, Algebraic& out, std::string* why) {
  const Eigen::Index n = problem_.size();
  for (Eigen::Index i = 0; i < n; ++i) (problem_.is_algebraic(i) ? out.algebraic : out.differential).push_back(i);
  if (out.algebraic.empty()) return true;
  // The algebraic equations: the zero rows of M.
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(n), column(n);
  std::vector<bool> zero_row(static_cast<std::size_t>(n), true);
  for (Eigen::Index c = 0; c < n; ++c) {
    unit[c] = 1.0;
    mass_.apply(unit, column);
    for (Eigen::Index i = 0; i < n; ++i)
      if (column[i] != 0.0) zero_row[static_cast<std::size_t>(i)] = false;
    unit[c] = 0.0;
  }
  for (Eigen::Index i = 0; i < n; ++i)
    if (zero_row[static_cast<std::size_t>(i)]) out.rows.push_back(i);
  // df/dy at (t, y), column by column as the products give it (exact or differenced).
  out.j.resize(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    unit[c] = 1.0;
    if (jacobian_product(t, y, y, unit, column) != Eval::ok) return *why = problem_.last_message(), false;
    out.j.col(c) = column;
    unit[c] = 0.0;
  }
  const auto a = static_cast<Eigen::Index>(out.rows.size());
  Eigen::MatrixXd jaa(a, static_cast<Eigen::Index>(out.algebraic.size()));
  for (Eigen::Index r = 0; r < a; ++r)
    for (std::size_t c = 0; c < out.algebraic.size(); ++c)
      jaa(r, static_cast<Eigen::Index>(c)) = out.j(out.rows[static_cast<std::size_t>(r)], out.algebraic[c]);
  out.lu.compute(jaa);
  if (jaa.rows() != jaa.cols() || !out.lu.isInvertible()) {
    *why = "the algebraic equations do not determine the algebraic components' sensitivities (df/dy on them is "
           "singular: index 2 or more)";
    return false;
  }
  return true;
}

bool SensitivityEquations::make_consistent(double t, const Eigen::VectorXd& y, Eigen::MatrixXd& s, std::string* why) {
  Algebraic sys;
  if (!algebraic_system(t, y, sys, why)) return false;
  if (sys.algebraic.empty()) return true;
  if (parameter_columns(t, y, dfdq_) != Eval::ok) return *why = problem_.last_message(), false;
  Eigen::VectorXd rhs(static_cast<Eigen::Index>(sys.rows.size()));
  for (Eigen::Index k = 0; k < columns(); ++k) {
    for (std::size_t r = 0; r < sys.rows.size(); ++r) {
      double sum = dfdq_(sys.rows[r], k);
      for (Eigen::Index d : sys.differential) sum += sys.j(sys.rows[r], d) * s(d, k);
      rhs[static_cast<Eigen::Index>(r)] = -sum;
    }
    const Eigen::VectorXd x = sys.lu.solve(rhs);
    for (std::size_t c = 0; c < sys.algebraic.size(); ++c) s(sys.algebraic[c], k) = x[static_cast<Eigen::Index>(c)];
  }
  return true;
}

bool SensitivityEquations::algebraic_slopes(double t, const Eigen::VectorXd& y, Eigen::VectorXd& yp,
                                            std::string* why) {
  Algebraic sys;
  if (!algebraic_system(t, y, sys, why)) return false;
  if (sys.algebraic.empty()) return true;
  // f's explicit t-dependence: the problem's df/dt, else a central difference.
  Eigen::VectorXd ft = Eigen::VectorXd::Zero(problem_.size());
  if (problem_.has_analytic_dfdt()) {
    if (problem_.dfdt(t, y, ft) != Eval::ok) return *why = problem_.last_message(), false;
  } else if (!problem_.autonomous()) {
    const double delta = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), 1.0);
    if (problem_.rhs(t + delta, y, plus_) != Eval::ok || problem_.rhs(t - delta, y, minus_) != Eval::ok)
      return *why = problem_.last_message(), false;
    ft = (plus_ - minus_) / (2.0 * delta);
  }
  Eigen::VectorXd rhs(static_cast<Eigen::Index>(sys.rows.size()));
  for (std::size_t r = 0; r < sys.rows.size(); ++r) {
    double sum = ft[sys.rows[r]];
    for (Eigen::Index d : sys.differential) sum += sys.j(sys.rows[r], d) * yp[d];
    rhs[static_cast<Eigen::Index>(r)] = -sum;
  }
  const Eigen::VectorXd x = sys.lu.solve(rhs);
  for (std::size_t c = 0; c < sys.algebraic.size(); ++c) yp[sys.algebraic[c]] = x[static_cast<Eigen::Index>(c)];
  return true;
}

Eigen::MatrixXd SensitivityEquations::initial() const {
  if (!request_.sens_initial.empty())
    return Eigen::Map<const Eigen::MatrixXd>(request_.sens_initial.data(), problem_.size(), columns());
  Eigen::MatrixXd s = Eigen::MatrixXd::Zero(problem_.size(), columns());
  for (Eigen::Index k = 0; k < columns(); ++k)
    if (index_[static_cast<std::size_t>(k)] < 0) s(-1 - index_[static_cast<std::size_t>(k)], k) = 1.0;
  return s;
}

// A component's scale for increments: its size, or the size below which the tolerances
// treat it as noise (atol / rtol), whichever is larger.
double SensitivityEquations::scale(Eigen::Index i, double v) const {
  const double noise = request_.rtol[i] > 0.0 ? request_.atol[i] / request_.rtol[i] : request_.atol[i];
  return std::abs(v) + noise + 1e-300;
}

// The largest step along s that moves no component by more than eps^(1/3) of its scale.
double SensitivityEquations::increment(ProblemView::ConstRef y, ProblemView::ConstRef s) const {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) largest = std::max(largest, std::abs(s[i]) / scale(i, y[i]));
  return largest > 0.0 ? std::cbrt(std::numeric_limits<double>::epsilon()) / largest : 0.0;
}

Eval SensitivityEquations::jacobian_product(double t, ProblemView::ConstRef y, ProblemView::ConstRef f,
                                            ProblemView::ConstRef s, ProblemView::Ref out, int slot) {
  if (exact_dense_ || exact_sparse_) {
    KeptJacobian& kept = kept_[slot];
    if (kept.y.size() != y.size() || kept.t != t || kept.y != y) {
      const Eval e = exact_sparse_ ? problem_.jacobian_sparse(t, y, kept.sparse) : problem_.jacobian(t, y, kept.dense);
      if (e != Eval::ok) {
        kept.y.resize(0);
        return e;
      }
      ++problem_.stats().njac;
      kept.t = t;
      kept.y = y;
    }
    if (exact_sparse_)
      out.noalias() = kept.sparse * s;
    else
      out.noalias() = kept.dense * s;
    return Eval::ok;
  }
  (void)f;
  const double delta = increment(y, s);
  if (delta == 0.0) {
    out.setZero();
    return Eval::ok;
  }
  y_moved_ = y + delta * s;
  Eval e = problem_.rhs(t, y_moved_, plus_);
  y_moved_ = y - delta * s;
  if (e == Eval::ok) e = problem_.rhs(t, y_moved_, minus_);
  problem_.stats().nfev_sens += 2;
  if (e == Eval::ok) out = (plus_ - minus_) / (2.0 * delta);
  return e;
}

Eval SensitivityEquations::parameter_columns(double t, ProblemView::ConstRef y, Eigen::MatrixXd& out) {
  out.setZero(problem_.size(), columns());
  if (!any_parameter_) return Eval::ok;
  const Eval e = problem_.dfdp(t, y, dfdp_);
  if (e != Eval::ok) return e;
  for (Eigen::Index k = 0; k < columns(); ++k)
    if (index_[static_cast<std::size_t>(k)] >= 0) out.col(k) = dfdp_.col(index_[static_cast<std::size_t>(k)]);
  return Eval::ok;
}

Eval SensitivityEquations::rhs(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, const Eigen::MatrixXd& s,
                               Eigen::MatrixXd& out, int slot) {
  Eval e = parameter_columns(t, y, dfdq_);
  out.resize(problem_.size(), columns());
  for (Eigen::Index k = 0; k < columns() && e == Eval::ok; ++k) {
    e = jacobian_product(t, y, f, s.col(k), out.col(k), slot);
    out.col(k) += dfdq_.col(k);
  }
  return e;
}

Eval SensitivityEquations::rhs_column(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, Eigen::Index k,
                                      ProblemView::ConstRef s, ProblemView::Ref out) {
  Eval e = jacobian_product(t, y, f, s, out);
  const std::int32_t q = index_[static_cast<std::size_t>(k)];
  if (e != Eval::ok || q < 0) return e;
  e = problem_.dfdp(t, y, dfdp_);
  if (e == Eval::ok) out += dfdp_.col(q);
  return e;
}

Eval SensitivityEquations::second_derivative(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s,
                                             ProblemView::ConstRef v, Eigen::MatrixXd& out) {
  out.setZero(problem_.size(), columns());
  const double delta = increment(y, v);
  if (delta == 0.0) return Eval::ok;
  if (exact_dense_ || exact_sparse_) {
    // (J S + f_q) at y +- delta v, each with its own kept Jacobian.
    y_moved_ = y + delta * v;
    Eval e = rhs(t, y_moved_, y_moved_, s, up_, 1);
    y_moved_ = y - delta * v;
    if (e == Eval::ok) e = rhs(t, y_moved_, y_moved_, s, down_, 2);
    if (e == Eval::ok) out = (up_ - down_) / (2.0 * delta);
    return e;
  }
  Eval e = Eval::ok;
  if (any_parameter_) {
    y_moved_ = y + delta * v;
    e = parameter_columns(t, y_moved_, up_);
    y_moved_ = y - delta * v;
    if (e == Eval::ok) e = parameter_columns(t, y_moved_, down_);
    if (e == Eval::ok) out = (up_ - down_) / (2.0 * delta);
  }
  // f''[s_k, v]: increments of eps^(1/4) of each direction's scale balance truncation
  // against the round-off the four evaluations divide by a b.
  const double quarter = std::pow(std::numeric_limits<double>::epsilon(), 0.25);
  const double b = delta / std::cbrt(std::numeric_limits<double>::epsilon()) * quarter;
  Eigen::VectorXd& f = plus_;
  for (Eigen::Index k = 0; k < columns() && e == Eval::ok; ++k) {
    const double a = increment(y, s.col(k)) / std::cbrt(std::numeric_limits<double>::epsilon()) * quarter;
    if (a == 0.0) continue;
    // f(y + a s + b v) - f(y + a s - b v) - f(y - a s + b v) + f(y - a s - b v)
    static constexpr double along_s[4] = {1.0, 1.0, -1.0, -1.0}, along_v[4] = {1.0, -1.0, 1.0, -1.0};
    minus_.setZero();
    for (int corner = 0; corner < 4 && e == Eval::ok; ++corner) {
      y_moved_ = y + along_s[corner] * a * s.col(k) + along_v[corner] * b * v;
      e = problem_.rhs(t, y_moved_, f);
      minus_ += (along_s[corner] * along_v[corner]) * f;
    }
    problem_.stats().nfev_sens += 4;
    if (e == Eval::ok) out.col(k) += minus_ / (4.0 * a * b);
  }
  return e;
}

Eval SensitivityEquations::time_derivative(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s, double delta,
                                           Eigen::MatrixXd& out) {
  Eval e = rhs(t + delta, y, y, s, up_, 1);
  if (e == Eval::ok) e = rhs(t - delta, y, y, s, down_, 2);
  if (e == Eval::ok) out = (up_ - down_) / (2.0 * delta);
  return e;
}

Eval SensitivityEquations::residual_parameter_columns(double t, ProblemView::ConstRef y, ProblemView::ConstRef yp,
                                                      Eigen::MatrixXd& out) {
  out.setZero(problem_.size(), columns());
  if (!any_parameter_) return Eval::ok;
  const Eval e = problem_.residual_dfdp(t, y, yp, dfdp_);
  if (e != Eval::ok) return e;
  for (Eigen::Index k = 0; k < columns(); ++k)
    if (index_[static_cast<std::size_t>(k)] >= 0) out.col(k) = dfdp_.col(index_[static_cast<std::size_t>(k)]);
  return Eval::ok;
}

Eval SensitivityEquations::residual(double t, ProblemView::ConstRef y, ProblemView::ConstRef yp,
                                    ProblemView::ConstRef r, const Eigen::MatrixXd& s, const Eigen::MatrixXd& sp,
                                    Eigen::MatrixXd& out) {
  (void)r;
  Eval e = residual_parameter_columns(t, y, yp, dfdq_);
  out.resize(problem_.size(), columns());
  if (mass_residual_) {
    if (e == Eval::ok) e = mass_residual(t, y, s, sp, out);
    if (e == Eval::ok) out += dfdq_;
    return e;
  }
  // dF/dy s and dF/dy' s' each by its own central difference: one shared increment would
  // be set by the larger of s and s' and leave the other's quotient to round-off.
  for (Eigen::Index k = 0; k < columns() && e == Eval::ok; ++k) {
    out.col(k) = dfdq_.col(k);
    for (const bool in_yp : {false, true}) {
      const auto direction = in_yp ? sp.col(k) : s.col(k);
      const double delta = increment(in_yp ? yp : y, direction);
      if (delta == 0.0) continue;
      y_moved_ = y, yp_moved_ = yp;
      (in_yp ? yp_moved_ : y_moved_) += delta * direction;
      e = problem_.residual(t, y_moved_, yp_moved_, plus_);
      (in_yp ? yp_moved_ : y_moved_) -= 2.0 * delta * direction;
      if (e == Eval::ok) e = problem_.residual(t, y_moved_, yp_moved_, minus_);
      problem_.stats().nfev_sens += 2;
      if (e != Eval::ok) break;
      out.col(k) += (plus_ - minus_) / (2.0 * delta);
    }
  }
  return e;
}

// M s' - J s, column by column: M as it is, J s exact or by differences of f.
Eval SensitivityEquations::mass_residual(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s,
                                          const Eigen::MatrixXd& sp, Eigen::MatrixXd& out) {
  Eigen::VectorXd column(problem_.size()), ms(problem_.size());
  for (Eigen::Index k = 0; k < columns(); ++k) {
    const Eval e = jacobian_product(t, y, y, s.col(k), column);
    if (e != Eval::ok) return e;
    mass_.apply(sp.col(k), ms);
    out.col(k) = ms - column;
  }
  return Eval::ok;
}

}  // namespace daekit
