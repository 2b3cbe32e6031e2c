#include "daekit/numerics/sensitivity_equations.hpp"

#include "daekit/numerics/finite_difference.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

#include "daekit/numerics/time_text.hpp"

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
    products_ = !exact_sparse_ && !exact_dense_ && problem.has_jacobian_sens();
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
    if (problem_.index_of(i) >= 3)
      return solver + " computes sensitivities of ODEs and DAEs of index 1 and 2 (Hessenberg); component " +
             problem_.component(i) + " has index " + std::to_string(problem_.index_of(i));
  return "";
}

bool SensitivityEquations::consistent_initial(double t0, const Eigen::VectorXd& y0, Eigen::MatrixXd& s0,
                                              std::string* why) {
  s0 = initial();
  return make_consistent(t0, y0, s0, why);
}

// The algebraic equations (M's zero rows), M and df/dy at (t, y); J_aa factorised.
bool SensitivityEquations::algebraic_system(double t, const Eigen::VectorXd& y, Algebraic& out, std::string* why) {
  const Eigen::Index n = problem_.size();
  for (Eigen::Index i = 0; i < n; ++i) (problem_.is_algebraic(i) ? out.algebraic : out.differential).push_back(i);
  if (out.algebraic.empty()) return true;
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(n), column(n);
  out.m.resize(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    unit[c] = 1.0;
    mass_.apply(unit, column);
    out.m.col(c) = column;
    unit[c] = 0.0;
  }
  for (Eigen::Index i = 0; i < n; ++i)
    if (out.m.row(i).isZero(0.0)) out.rows.push_back(i);
  // df/dy at (t, y), column by column as the products give it (exact or differenced).
  out.j.resize(n, n);
  for (Eigen::Index c = 0; c < n; ++c) {
    unit[c] = 1.0;
    if (jacobian_product(t, y, y, unit, column) != Eval::ok) return *why = problem_.last_message(), false;
    out.j.col(c) = column;
    unit[c] = 0.0;
  }
  out.lu.compute(out.j(out.rows, out.algebraic));
  out.regular = out.rows.size() == out.algebraic.size() && out.lu.isInvertible();
  return true;
}

bool SensitivityEquations::make_consistent(double t, const Eigen::VectorXd& y, Eigen::MatrixXd& s, std::string* why) {
  Algebraic sys;
  if (!algebraic_system(t, y, sys, why)) return false;
  if (sys.algebraic.empty()) return true;
  if (parameter_columns(t, y, dfdq_) != Eval::ok) return *why = problem_.last_message(), false;
  if (!sys.regular) return hidden_constraints(t, y, sys, s, why);
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

// Index 2 in Hessenberg form: an algebraic equation that does not involve the algebraic
// components, 0 = g(t, y_d, p), says nothing about s_a; its derivative along the
// solution does. For s that derivative of c = g_y s + g_q (the sensitivity's own
// constraint) is  dc/dt|_s + g_y s'_d,  s'_d = M_dd^-1 (J_d s + f_q,d),  linear in s_a
// through J_da. dc/dt|_s, the change of (J s + f_q) on those rows along (1, y') at fixed
// s, is one central difference. The equations that involve s_a keep their index-1 form.
bool SensitivityEquations::hidden_constraints(double t, const Eigen::VectorXd& y, const Algebraic& sys,
                                              Eigen::MatrixXd& s, std::string* why) {
  const auto& a = sys.algebraic;
  const auto& d = sys.differential;
  std::vector<Eigen::Index> direct, hidden;  // rows that involve s_a, rows that do not
  for (Eigen::Index r : sys.rows) (sys.j(r, a).isZero(0.0) ? hidden : direct).push_back(r);
  if (direct.size() + hidden.size() != a.size() || hidden.empty() || !sys.m(Eigen::all, a).isZero(0.0)) {
    *why = "the algebraic equations do not determine the algebraic components' sensitivities (neither index 1 nor "
           "Hessenberg index 2)";
    return false;
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> mdd(sys.m(d, d));
  Eigen::VectorXd f(problem_.size());
  if (problem_.rhs(t, y, f) != Eval::ok) return *why = problem_.last_message(), false;
  Eigen::VectorXd slope = Eigen::VectorXd::Zero(problem_.size());
  slope(d) = mdd.solve(f(d));
  // The constraints' sensitivities must already hold: an index-2 DAE's y0 moves on its manifold.
  Eigen::MatrixXd sd_only = s;
  sd_only(a, Eigen::all).setZero();
  const Eigen::MatrixXd ds = sys.j * sd_only + dfdq_;
  for (Eigen::Index r : hidden)
    for (Eigen::Index k = 0; k < columns(); ++k) {
      const double size = (sys.j.row(r).cwiseAbs() * sd_only.col(k).cwiseAbs()).sum() + std::abs(dfdq_(r, k));
      if (std::abs(ds(r, k)) > 1e-6 * size) {
        *why = "the sensitivity to " + sensitivity_name(problem_.info(), index_[static_cast<std::size_t>(k)]) + " " + at_time(t) + " violates the constraint of equation " +
               std::to_string(r + 1) + " (index 2): y0 can move only along the constraints, so dy0/dq must keep "
               "g_y dy0/dq + g_q = 0";
        return false;
      }
    }
  const double delta = std::min(increment(y, slope) > 0.0 ? increment(y, slope) : 1.0,
                                std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), 1.0));
  y_moved_ = y + delta * slope;
  Eval e = rhs(t + delta, y_moved_, y_moved_, sd_only, up_, 1);
  y_moved_ = y - delta * slope;
  if (e == Eval::ok) e = rhs(t - delta, y_moved_, y_moved_, sd_only, down_, 2);
  if (e != Eval::ok) return *why = problem_.last_message(), false;
  const Eigen::MatrixXd along = (up_ - down_) / (2.0 * delta);
  // The square system for s_a: direct rows J_ra s_a = -(J_rd s_d + f_q,r); hidden rows
  // J_rd M_dd^-1 J_da s_a = -(dc/dt + J_rd M_dd^-1 (J_dd s_d + f_q,d)).
  const auto na = static_cast<Eigen::Index>(a.size());
  Eigen::MatrixXd system(na, na), rhs_all(na, columns());
  const Eigen::MatrixXd through = mdd.solve(sys.j(d, a));
  const Eigen::MatrixXd known = mdd.solve(ds(d, Eigen::all));
  Eigen::Index row = 0;
  for (Eigen::Index r : direct) {
    system.row(row) = sys.j(r, a);
    rhs_all.row(row++) = -ds.row(r);
  }
  for (Eigen::Index r : hidden) {
    system.row(row) = sys.j(r, d) * through;
    rhs_all.row(row++) = -(along.row(r) + sys.j(r, d) * known);
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(system);
  if (!mdd.isInvertible() || !lu.isInvertible()) {
    *why = "the constraints' derivatives do not determine the algebraic components' sensitivities (index above 2)";
    return false;
  }
  s(a, Eigen::all) = lu.solve(rhs_all);
  return true;
}

bool SensitivityEquations::algebraic_slopes(double t, const Eigen::VectorXd& y, Eigen::VectorXd& yp,
                                            std::string* why) {
  Algebraic sys;
  if (!algebraic_system(t, y, sys, why)) return false;
  if (sys.algebraic.empty()) return true;
  if (!sys.regular) {
    *why = "the algebraic components' slopes need df/dy on them regular (index 1); this DAE has index 2 or more";
    return false;
  }
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

double SensitivityEquations::scale(Eigen::Index i, double v) const {
  return noise_scale(v, request_.rtol[i], request_.atol[i]);
}

double SensitivityEquations::increment(ProblemView::ConstRef y, ProblemView::ConstRef s) const {
  return directional_increment(y, s, request_.rtol, request_.atol);
}

Eval SensitivityEquations::jacobian_product(double t, ProblemView::ConstRef y, ProblemView::ConstRef f,
                                            ProblemView::ConstRef s, ProblemView::Ref out, int slot) {
  if (exact_dense_ || exact_sparse_) {
    KeptJacobian& kept = kept_[slot];
    if (kept.y.size() != y.size() || kept.t != t || kept.y != y) {
      // A slot's pattern on its first use: a method uses 1 to 8 of them.
      if (exact_sparse_ && kept.sparse.nonZeros() == 0) kept.sparse = problem_.sparsity_pattern();
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
  if (products_) {
    const Eval e = problem_.jacobian_sens(t, y, s.data(), 1, out.data());
    if (e != Eval::not_provided) return e;
    products_ = false;  // an entry that declines (an in-process class without them): differences
  }
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
  if (!any_parameter_) {
    out.setZero(problem_.size(), columns());
    return Eval::ok;
  }
  return problem_.dfdp(t, y, index_, out);
}

Eval SensitivityEquations::rhs(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, const Eigen::MatrixXd& s,
                               Eigen::MatrixXd& out, int slot) {
  Eval e = parameter_columns(t, y, dfdq_);
  out.resize(problem_.size(), columns());
  if (products_ && e == Eval::ok) {  // every column in one call
    e = problem_.jacobian_sens(t, y, s.data(), columns(), out.data());
    if (e == Eval::ok) out += dfdq_;
    if (e != Eval::not_provided) return e;
    products_ = false;  // an entry that declines (an in-process class without them): differences
    e = Eval::ok;
  }
  for (Eigen::Index k = 0; k < columns() && e == Eval::ok; ++k) {
    e = jacobian_product(t, y, f, s.col(k), out.col(k), slot);
    out.col(k) += dfdq_.col(k);
  }
  return e;
}

void SensitivityEquations::column_weights(const ErrorNorm& norm, Eigen::Index k, ProblemView::ConstRef s_k,
                                          Eigen::VectorXd& magnitude, Eigen::VectorXd& out) const {
  const double pbar = scales_[static_cast<std::size_t>(k)];
  magnitude = pbar * s_k;
  norm.weights(magnitude, out);
  out *= pbar;
}

Eval SensitivityEquations::rhs_column(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, Eigen::Index k,
                                      ProblemView::ConstRef s, ProblemView::Ref out) {
  Eval e = jacobian_product(t, y, f, s, out);
  const std::int32_t q = index_[static_cast<std::size_t>(k)];
  if (e != Eval::ok || q < 0) return e;
  single_column_[0] = q;
  e = problem_.dfdp(t, y, single_column_, dfdp_);
  if (e == Eval::ok) out += dfdp_.col(0);
  return e;
}

Eval SensitivityEquations::second_derivative(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s,
                                             ProblemView::ConstRef v, Eigen::MatrixXd& out) {
  out.setZero(problem_.size(), columns());
  const double delta = increment(y, v);
  if (delta == 0.0) return Eval::ok;
  if (exact_dense_ || exact_sparse_ || products_) {
    // (J S + f_q) at y +- delta v, each with its own kept Jacobian (or exact products).
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
  if (!any_parameter_) {
    out.setZero(problem_.size(), columns());
    return Eval::ok;
  }
  return problem_.residual_dfdp(t, y, yp, index_, out);
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
