// `daekit check` on a problem plugin: every function the problem provides is compared
// with what can be computed from its right-hand side alone (differences), and every
// value it hands out must be finite. A FAIL line says what was compared, the worst
// entry (row, column, both values) and the tolerance used.
#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <sstream>

#include "checks.hpp"

namespace daekit::host::check {
namespace {

// Relative mismatch allowed between a provided derivative and central differences,
// measured against the largest entry of the difference matrix (at least 1).
constexpr double derivative_tolerance = 1e-6;
constexpr double eps = std::numeric_limits<double>::epsilon();


class ProblemProbe {
 public:
  ProblemProbe(const dk_problem& p, const dk_problem_info& info) : p_(p), info_(info), n_(static_cast<Eigen::Index>(info.n)) {}

  std::string name(Eigen::Index i) const {
    std::string s = std::to_string(i + 1);
    if (info_.component_names && info_.component_names[i]) s += std::string(" (") + info_.component_names[i] + ")";
    return s;
  }

  // f(t, y); false when the model fails or returns a non-finite value.
  bool rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& f) const {
    f.resize(n_);
    return p_.vtbl->rhs && p_.vtbl->rhs(p_.self, t, y.data(), f.data()) == DK_EVAL_OK && f.allFinite();
  }
  bool residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, Eigen::VectorXd& r) const {
    r.resize(n_);
    return p_.vtbl->residual && p_.vtbl->residual(p_.self, t, y.data(), yp.data(), r.data()) == DK_EVAL_OK &&
           r.allFinite();
  }

  // The derivative of g (a function of one component's perturbation) by central
  // differences at d and d/2 combined by Richardson's extrapolation (error O(d^4): a
  // strongly nonlinear model, as the wheelset's creep law, otherwise makes the reference
  // itself wrong in the 5th digit); one-sided where one side cannot be evaluated (a
  // model's domain ends at y, e.g. a concentration at zero). Empty optional message: success.
  template <class Eval>
  // `noise`: how far round-off in f alone may move each entry of the column (a row whose
  // f is 1e9 leaves a quotient over 2e-6 uncertain by 0.1 whatever the derivative).
  // The increment: checks.hpp's difference_increment.
  bool difference_column(Eigen::Index c, double base, Eval&& g, Eigen::VectorXd& column, std::string* why,
                         Eigen::VectorXd* noise = nullptr, double floor = component_floor) const {
    const double d = difference_increment(base, floor);
    Eigen::VectorXd plus, minus, half_plus, half_minus;
    const bool up = g(+d, plus), down = g(-d, minus);
    if (noise) noise->setZero(n_);
    if (up && down) {
      column = (plus - minus) / (2 * d);
      if (g(+0.5 * d, half_plus) && g(-0.5 * d, half_minus)) {
        column = (4.0 * (half_plus - half_minus) / d - column) / 3.0;
        // Richardson's combination weighs the half steps' round-off by 8/3 over d.
        if (noise) *noise = (8.0 / 3.0) * 4.0 * eps * plus.cwiseAbs().cwiseMax(minus.cwiseAbs()) / d;
      } else if (noise) {
        *noise = 4.0 * eps * plus.cwiseAbs().cwiseMax(minus.cwiseAbs()) / (2 * d);
      }
    } else if (up || down) {
      Eigen::VectorXd center;
      if (!g(0.0, center)) {
        *why = "the model cannot be evaluated at the point itself";
        return false;
      }
      column = up ? (plus - center) / d : (center - minus) / d;
    } else {
      *why = "the model cannot be evaluated on either side of component " + name(c);
      return false;
    }
    return true;
  }

  // df/dy by differences of f.
  bool jacobian_by_differences(double t, const Eigen::VectorXd& y, Eigen::MatrixXd& jf, std::string* why,
                               Eigen::MatrixXd* noise = nullptr) const {
    jf.resize(n_, n_);
    if (noise) noise->resize(n_, n_);
    Eigen::VectorXd column, column_noise;
    for (Eigen::Index c = 0; c < n_; ++c) {
      auto g = [&](double d, Eigen::VectorXd& out) {
        Eigen::VectorXd z = y;
        z[c] += d;
        return rhs(t, z, out);
      };
      if (!difference_column(c, y[c], g, column, why, noise ? &column_noise : nullptr)) return false;
      jf.col(c) = column;
      if (noise) noise->col(c) = column_noise;
    }
    return true;
  }

  // The worst entry of a - b, relative to the largest |b| (at least 1) and beyond the
  // differences' own round-off (`noise`, entry by entry, when given); columns are
  // components, or with parameter_columns the real parameters (df/dp).
  std::string compare(const char* what, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, bool* ok,
                      bool parameter_columns = false, const Eigen::MatrixXd* noise = nullptr) const {
    auto column = [&](Eigen::Index c) {
      return parameter_columns ? std::to_string(c + 1) + " (" + info_.p_names[c] + ")" : name(c);
    };
    std::ostringstream m;
    if (!a.allFinite()) {
      Eigen::Index r = 0, c = 0;
      for (Eigen::Index j = 0; j < a.cols(); ++j)
        for (Eigen::Index i = 0; i < a.rows(); ++i)
          if (!std::isfinite(a(i, j))) r = i, c = j, j = a.cols(), i = a.rows();
      m << what << " has a non-finite entry at row " << name(r) << ", column " << column(c) << ": " << a(r, c);
      *ok = false;
      return m.str();
    }
    Eigen::Index r = 0, c = 0;
    const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
    Eigen::MatrixXd excess = (a - b).cwiseAbs();
    if (noise) excess -= *noise;
    excess.maxCoeff(&r, &c);
    *ok = excess(r, c) <= derivative_tolerance * scale;
    if (*ok) (a - b).cwiseAbs().maxCoeff(&r, &c);  // agreeing: show the largest difference
    const double diff = std::abs(a(r, c) - b(r, c));
    m << what << " against central differences: worst at row " << name(r) << ", column " << column(c) << ": "
      << a(r, c) << " against " << b(r, c) << " (difference " << fmt(diff) << ", allowed " << fmt(derivative_tolerance)
      << " x " << fmt(scale);
    if (noise && (*noise)(r, c) > 0.0) m << " + round-off " << fmt((*noise)(r, c));
    m << ")";
    return m.str();
  }

  const dk_problem& p_;
  const dk_problem_info& info_;
  Eigen::Index n_;
};

// States to compare derivatives at: y0 and two deterministic perturbations of it.
std::vector<std::pair<std::string, Eigen::VectorXd>> probe_states(const Eigen::VectorXd& y0) {
  std::vector<std::pair<std::string, Eigen::VectorXd>> states{{"y0", y0}};
  for (int k = 1; k <= 2; ++k) {
    Eigen::VectorXd y = y0;
    for (Eigen::Index i = 0; i < y.size(); ++i)
      y[i] += 0.01 * k * std::sin(1.0 + k * static_cast<double>(i)) * (1.0 + std::abs(y0[i]));
    states.emplace_back("a perturbed state (" + std::to_string(k) + ")", y);
  }
  return states;
}

void check_dense_jacobian(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y,
                          const std::string& where) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_;
  Eigen::MatrixXd ja = Eigen::MatrixXd::Zero(n, n), jf, noise;
  std::string why;
  const std::string name = "analytic Jacobian agrees with finite differences at " + where;
  if (p.vtbl->jacobian(p.self, t, y.data(), ja.data(), static_cast<std::size_t>(n)) != DK_EVAL_OK)
    return report.add(name, false, "the Jacobian could not be evaluated");
  if (!probe.jacobian_by_differences(t, y, jf, &why, &noise)) return report.add(name, false, "differences: " + why);
  bool ok = false;
  const std::string detail = probe.compare("df/dy", ja, jf, &ok, false, &noise);
  report.add(name, ok, detail);
}

// The problem's (df/dy) S (ABI 1.3 jacobian_sens) for three fixed, dense directions
// against the same products of df/dy by differences (noise scaled through |S|).
void check_jacobian_sens(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y,
                         const std::string& where) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_, ns = 3;
  Eigen::MatrixXd s(n, ns), js = Eigen::MatrixXd::Zero(n, ns), jf, noise;
  for (Eigen::Index k = 0; k < ns; ++k)
    for (Eigen::Index i = 0; i < n; ++i) s(i, k) = std::sin(1.0 + static_cast<double>(i) + 7.0 * static_cast<double>(k));
  const std::string name = "(df/dy) S (jacobian_sens) agrees with differences at " + where;
  if (p.vtbl->jacobian_sens(p.self, t, y.data(), static_cast<std::size_t>(ns), s.data(), js.data()) != DK_EVAL_OK)
    return report.add(name, false, "(df/dy) S could not be evaluated");
  std::string why;
  if (!probe.jacobian_by_differences(t, y, jf, &why, &noise)) return report.add(name, false, "differences: " + why);
  const Eigen::MatrixXd product_noise = noise * s.cwiseAbs();
  bool ok = false;
  const std::string detail = probe.compare("(df/dy) S", js, jf * s, &ok, false, &product_noise);
  report.add(name, ok, detail);
}

// J v (jacobian_vector, the Krylov solvers' product) for one fixed dense direction against
// df/dy by differences times it.
void check_jacobian_vector(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y,
                           const std::string& where) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_;
  Eigen::VectorXd v(n), jv = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = std::cos(0.5 + 3.0 * static_cast<double>(i));
  const std::string name = "J v (jacobian_vector) agrees with differences at " + where;
  if (p.vtbl->jacobian_vector(p.self, t, y.data(), v.data(), jv.data()) != DK_EVAL_OK)
    return report.add(name, false, "J v could not be evaluated");
  Eigen::MatrixXd jf, noise;
  std::string why;
  if (!probe.jacobian_by_differences(t, y, jf, &why, &noise)) return report.add(name, false, "differences: " + why);
  const Eigen::MatrixXd product_noise = noise * v.cwiseAbs();
  bool ok = false;
  const std::string detail = probe.compare("J v", jv, jf * v, &ok, false, &product_noise);
  report.add(name, ok, detail);
}

// M at (t, y) as an n x n array from the storage the problem declares (ABI 1.2): its
// diagonal, its sparse entries, or the dense entry.
bool stored_mass(const dk_problem& p, const dk_problem_info& info, double t, const Eigen::VectorXd& y, Eigen::MatrixXd& m) {
  const Eigen::Index n = static_cast<Eigen::Index>(info.n);
  const bool has_storage = DK_HAS_FIELD(&info, dk_problem_info, constraints) &&
                           DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, step_completed);
  if (has_storage && info.mass_storage == DK_MASS_STORAGE_DIAGONAL) {
    Eigen::VectorXd d = Eigen::VectorXd::Zero(n);
    if (!p.vtbl->mass_diagonal || p.vtbl->mass_diagonal(p.self, t, y.data(), d.data()) != DK_EVAL_OK) return false;
    m.diagonal() = d;
    return true;
  }
  if (has_storage && info.mass_storage == DK_MASS_STORAGE_SPARSE) {
    const dk_sparsity& pat = info.mass_pattern;
    std::vector<double> values(pat.nnz, 0.0);
    if (!p.vtbl->mass_sparse || p.vtbl->mass_sparse(p.self, t, y.data(), values.data()) != DK_EVAL_OK) return false;
    for (Eigen::Index j = 0; j < n; ++j)
      for (int32_t k = pat.col_ptr[j]; k < pat.col_ptr[j + 1]; ++k) m(pat.row_idx[k], j) += values[static_cast<std::size_t>(k)];
    return true;
  }
  return p.vtbl->mass && p.vtbl->mass(p.self, t, y.data(), m.data(), info.n) == DK_EVAL_OK;
}

// The problem's preconditioner (prec_setup, prec_solve) for M - gamma J at t0 (M the
// identity, or the problem's constant M): finite, and one application must reduce the
// residual of the system it approximates (||A z - r|| < ||r||, else it is no preconditioner
// of that matrix: a sign or a gamma mixed up).
void check_preconditioner(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_;
  const std::string name = "the preconditioner approximates (M - gamma J)^-1";
  Eigen::MatrixXd m = Eigen::MatrixXd::Identity(n, n);
  if (probe.info_.mass_kind != DK_MASS_IDENTITY) {
    m.setZero();
    if (!stored_mass(p, probe.info_, t, y, m)) return report.add(name, false, "M could not be evaluated");
  }
  Eigen::MatrixXd jf, noise;
  std::string why;
  if (!probe.jacobian_by_differences(t, y, jf, &why, &noise)) return report.add(name, false, "differences: " + why);
  const double gamma = 1.0 / std::max(1.0, jf.cwiseAbs().rowwise().sum().maxCoeff());  // gamma |J| ~ 1
  std::int32_t current = 1;
  if (p.vtbl->prec_setup(p.self, t, y.data(), gamma, &current) != DK_EVAL_OK)
    return report.add(name, false, "prec_setup failed");
  Eigen::VectorXd r(n), z = Eigen::VectorXd::Zero(n);
  for (Eigen::Index i = 0; i < n; ++i) r[i] = std::sin(2.0 + 5.0 * static_cast<double>(i));
  if (p.vtbl->prec_solve(p.self, t, y.data(), r.data(), z.data(), gamma, 1e-3) != DK_EVAL_OK || !z.allFinite())
    return report.add(name, false, "prec_solve failed or returned non-finite values");
  const Eigen::VectorXd residual = m * z - gamma * (jf * z) - r;
  const double ratio = residual.norm() / r.norm();
  report.add(name, ratio < 1.0, "one application leaves " + std::to_string(ratio) + " of the residual (gamma " +
                                    std::to_string(gamma) + ")");
}


// The sparse Jacobian's values scattered into its pattern, against differences;
// and the pattern itself: no entry outside it may be non-zero in the differences.
void check_sparse_jacobian(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y,
                           const std::string& where) {
  const dk_problem& p = probe.p_;
  const dk_problem_info& info = probe.info_;
  const Eigen::Index n = probe.n_;
  const auto& pat = info.jac_pattern;
  if (!pat.col_ptr || !pat.row_idx || pat.col_ptr[0] != 0 || static_cast<std::size_t>(pat.col_ptr[n]) != pat.nnz)
    return report.add("sparsity pattern", false, "col_ptr must start at 0 and end at nnz");
  Eigen::MatrixXd in_pattern = Eigen::MatrixXd::Zero(n, n), ja = Eigen::MatrixXd::Zero(n, n), jf;
  for (Eigen::Index c = 0; c < n; ++c)
    for (int32_t k = pat.col_ptr[c]; k < pat.col_ptr[c + 1]; ++k) {
      if (pat.row_idx[k] < 0 || pat.row_idx[k] >= n)
        return report.add("sparsity pattern", false, "row index out of range in column " + probe.name(c));
      in_pattern(pat.row_idx[k], c) = 1.0;
    }
  std::string why;
  if (!probe.jacobian_by_differences(t, y, jf, &why))
    return report.add("sparse Jacobian at " + where, false, "differences: " + why);
  // Pattern coverage.
  Eigen::Index worst_r = -1, worst_c = -1;
  double worst = 0.0;
  const double scale = std::max(1.0, jf.cwiseAbs().maxCoeff());
  for (Eigen::Index c = 0; c < n; ++c)
    for (Eigen::Index r = 0; r < n; ++r)
      if (in_pattern(r, c) == 0.0 && std::abs(jf(r, c)) > worst) worst = std::abs(jf(r, c)), worst_r = r, worst_c = c;
  const bool covered = worst <= derivative_tolerance * scale;
  report.add("sparsity pattern covers df/dy at " + where, covered,
             covered ? "no difference entry outside the pattern exceeds " + fmt(derivative_tolerance * scale)
                     : "df/dy at row " + probe.name(worst_r) + ", column " + probe.name(worst_c) + " is " +
                           fmt(jf(worst_r, worst_c)) + " by differences, outside the pattern (allowed " +
                           fmt(derivative_tolerance * scale) + ")");
  if (!p.vtbl->jacobian_sparse) return;
  std::vector<double> values(pat.nnz, 0.0);
  if (p.vtbl->jacobian_sparse(p.self, t, y.data(), values.data()) != DK_EVAL_OK)
    return report.add("sparse Jacobian at " + where, false, "the sparse Jacobian could not be evaluated");
  for (Eigen::Index c = 0; c < n; ++c)
    for (int32_t k = pat.col_ptr[c]; k < pat.col_ptr[c + 1]; ++k) ja(pat.row_idx[k], c) += values[k];
  bool ok = false;
  const std::string detail = probe.compare("sparse df/dy", ja, jf, &ok);
  report.add("sparse Jacobian values at " + where, ok, detail);
}

void check_dfdt(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_;
  Eigen::VectorXd fa(n), column;
  if (p.vtbl->dfdt(p.self, t, y.data(), fa.data()) != DK_EVAL_OK)
    return report.add("analytic df/dt", false, "df/dt could not be evaluated");
  std::string why;
  auto g = [&](double d, Eigen::VectorXd& out) { return probe.rhs(t + d, y, out); };
  if (!probe.difference_column(0, t, g, column, &why)) return report.add("analytic df/dt", false, why);
  bool ok = false;
  std::string detail = probe.compare("df/dt", fa, column, &ok);
  report.add("analytic df/dt agrees with differences in t", ok, detail);
}

// df/dp or dF/dp (ABI 1.3) at the nominal parameters against central differences in each
// parameter: derivative(out) gives the problem's (dense or in the pattern), function(v) the
// function it differentiates (f, or F at a fixed y').
template <class Derivative, class Function>
void check_parameter_derivative(Report& report, const ProblemProbe& probe, const dk_problem_info& info,
                                const std::string& what, Derivative derivative, Function function,
                                const std::string& where) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_, np = static_cast<Eigen::Index>(info.np);
  std::vector<double> values(info.p_nominal, info.p_nominal + info.np);
  if (p.vtbl->set_p(p.self, values.data()) != DK_EVAL_OK)
    return report.add(what, false, "the nominal parameters could not be set");
  Eigen::MatrixXd da = Eigen::MatrixXd::Zero(n, np), df(n, np);
  const std::size_t entries = info.dfdp_pattern.nnz > 0 ? info.dfdp_pattern.nnz : static_cast<std::size_t>(n * np);
  std::vector<double> out(entries, 0.0);
  if (!derivative(out.data())) return report.add(what, false, what + " could not be evaluated");
  if (info.dfdp_pattern.nnz == 0) {
    da = Eigen::Map<Eigen::MatrixXd>(out.data(), n, np);
  } else {
    for (Eigen::Index j = 0; j < np; ++j)
      for (auto k = info.dfdp_pattern.col_ptr[j]; k < info.dfdp_pattern.col_ptr[j + 1]; ++k)
        da(info.dfdp_pattern.row_idx[k], j) = out[static_cast<std::size_t>(k)];
  }
  Eigen::VectorXd column, column_noise;
  Eigen::MatrixXd noise(n, np);
  std::string why;
  for (Eigen::Index j = 0; j < np; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    auto g = [&](double d, Eigen::VectorXd& f) {
      std::vector<double> moved = values;
      moved[jj] += d;
      const bool ok = p.vtbl->set_p(p.self, moved.data()) == DK_EVAL_OK && function(f);
      p.vtbl->set_p(p.self, values.data());
      return ok;
    };
    const double base = std::max(std::abs(values[jj]), info.p_scale ? info.p_scale[jj] : 0.0);
    if (!probe.difference_column(j, base, g, column, &why, &column_noise, parameter_floor))
      return report.add(what, false, "differences: " + why);
    df.col(j) = column;
    noise.col(j) = column_noise;
  }
  bool ok = false;
  const std::string detail = probe.compare(what.c_str(), da, df, &ok, /*parameter_columns=*/true, &noise);
  report.add(what + " agrees with differences in the parameters at " + where, ok, detail);
}

void check_dfdp(Report& report, const ProblemProbe& probe, const dk_problem_info& info, double t,
                const Eigen::VectorXd& y, const std::string& where) {
  const dk_problem& p = probe.p_;
  check_parameter_derivative(
      report, probe, info, "df/dp", [&](double* out) { return p.vtbl->dfdp(p.self, t, y.data(), out) == DK_EVAL_OK; },
      [&](Eigen::VectorXd& f) { return probe.rhs(t, y, f); }, where);
}

void check_residual_dfdp(Report& report, const ProblemProbe& probe, const dk_problem_info& info, double t,
                         const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const std::string& where) {
  const dk_problem& p = probe.p_;
  check_parameter_derivative(
      report, probe, info, "dF/dp",
      [&](double* out) { return p.vtbl->residual_dfdp(p.self, t, y.data(), yp.data(), out) == DK_EVAL_OK; },
      [&](Eigen::VectorXd& r) { return probe.residual(t, y, yp, r); }, where);
}

void check_residual_jacobian(Report& report, const ProblemProbe& probe, double t, const Eigen::VectorXd& y,
                             const Eigen::VectorXd& yp) {
  const dk_problem& p = probe.p_;
  const Eigen::Index n = probe.n_;
  const double cj = 10.0;  // any value: both parts are checked through their sum
  Eigen::MatrixXd ja = Eigen::MatrixXd::Zero(n, n), jf(n, n);
  if (p.vtbl->residual_jacobian(p.self, t, y.data(), yp.data(), cj, ja.data(), static_cast<std::size_t>(n)) !=
      DK_EVAL_OK)
    return report.add("residual Jacobian", false, "dF/dy + cj dF/dy' could not be evaluated");
  Eigen::VectorXd column;
  std::string why;
  for (Eigen::Index c = 0; c < n; ++c) {
    // d/de F(t, y + e u_c, y' + cj e u_c) = dF/dy_c + cj dF/dy'_c.
    auto g = [&](double d, Eigen::VectorXd& out) {
      Eigen::VectorXd z = y, zp = yp;
      z[c] += d;
      zp[c] += cj * d;
      return probe.residual(t, z, zp, out);
    };
    if (!probe.difference_column(c, std::max(std::abs(y[c]), std::abs(yp[c]) / cj), g, column, &why))
      return report.add("residual Jacobian", false, "differences: " + why);
    jf.col(c) = column;
  }
  bool ok = false;
  const std::string detail = probe.compare("dF/dy + 10 dF/dy'", ja, jf, &ok);
  report.add("residual Jacobian agrees with differences at y0", ok, detail);
}

}  // namespace

bool Report::passed() const {
  for (const auto& i : items)
    if (!i.passed) return false;
  return !items.empty();
}

namespace {

// Mass matrix: finite, and its zero columns are the components flagged algebraic; read
// in the storage the problem declares, which must agree with the dense entry when both exist.
void check_mass_matrix(Report& report, const ProblemProbe& probe, const dk_problem& p, const dk_problem_info& info,
                       const Eigen::VectorXd& y0, const Eigen::VectorXd& f0) {
  const auto n = static_cast<Eigen::Index>(info.n);
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
  const bool evaluated = stored_mass(p, info, info.t0, y0, m);
  const std::uint32_t storage = DK_HAS_FIELD(&info, dk_problem_info, constraints) ? info.mass_storage : static_cast<std::uint32_t>(DK_MASS_STORAGE_DENSE);
  if (evaluated && storage != DK_MASS_STORAGE_DENSE && p.vtbl->mass) {
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
    const bool dense_ok = p.vtbl->mass(p.self, info.t0, y0.data(), dense.data(), info.n) == DK_EVAL_OK;
    const double gap = dense_ok ? (dense - m).cwiseAbs().maxCoeff() : 0.0;
    report.add("mass matrix: the stored form and the dense entry agree", dense_ok && gap == 0.0,
               dense_ok ? (gap == 0.0 ? "" : "they differ by up to " + fmt(gap)) : "the dense entry failed");
  }
  const bool ok = evaluated && m.allFinite();
  std::string detail = evaluated ? (ok ? "" : "M has non-finite entries") : "M could not be evaluated";
  bool consistent = ok;
  for (Eigen::Index j = 0; j < n && ok; ++j) {
    const bool zero = m.col(j).cwiseAbs().maxCoeff() == 0.0;
    if (zero == (info.differential[j] != 0)) {
      consistent = false;
      detail = "component " + probe.name(j) + " is flagged " + (info.differential[j] ? "differential" : "algebraic") +
               " but its column of M is " + (zero ? "zero" : "not zero");
      break;
    }
  }
  report.add("mass matrix matches the differential flags", consistent, detail);
  // Consistency: the rows of M that are zero hold algebraic equations, which y0 must satisfy.
  if (ok && (info.flags & DK_PROBLEM_CONSISTENT_Y0)) {
    double worst = 0.0;
    Eigen::Index row = -1;
    for (Eigen::Index i = 0; i < n; ++i)
      if (m.row(i).cwiseAbs().maxCoeff() == 0.0 && std::abs(f0[i]) > worst) worst = std::abs(f0[i]), row = i;
    report.add("initial values satisfy the algebraic equations (the problem says they do)", worst <= 1e-10,
               row < 0 ? "" : "largest residual " + fmt(worst) + " in equation " + probe.name(row) + " (allowed 1e-10)");
  }
}

// The stored reference: as many finite entries as components.
void check_reference(Report& report, const loader::ProblemInstance& problem) {
  const dk_problem_info& info = problem.info();
  if (!problem.has_stored_reference()) return;
  std::vector<double> ref;
  const bool got = problem.reference(ref);
  const bool sized = got && ref.size() == info.n;
  bool finite = sized;
  for (double v : ref) finite = finite && std::isfinite(v);
  report.add("reference solution", finite,
             !got ? "the reference could not be read"
             : !sized ? "it has " + std::to_string(ref.size()) + " entries for n = " + std::to_string(info.n)
             : !finite ? "it has non-finite entries"
                       : "at t = " + fmt(info.reference_t) + ": " + info.reference_source);
}

}  // namespace

Report check_problem(const loader::Plugin& plugin, const std::map<std::string, std::string>& params) {
  Report report;
  report.subject = "problem '" + plugin.manifest.name + "' (" + plugin.file.string() + ")";
  report.add("manifest and ABI", true, "plugin ABI 1." + std::to_string(plugin.manifest.abi_minor) + ", version " +
                                           plugin.manifest.version);
  std::unique_ptr<loader::ProblemInstance> problem;
  const std::string created = params.empty() ? "created with default parameters" : "created with the given parameters";
  try {
    problem = std::make_unique<loader::ProblemInstance>(plugin, params);
    report.add(created, true);
  } catch (const std::exception& e) {
    report.add(created, false, e.what());
    return report;
  }
  const dk_problem_info& info = problem->info();
  const dk_problem& p = problem->handle();
  const auto n = static_cast<Eigen::Index>(info.n);
  const ProblemProbe probe(p, info);
  // What users read: warnings, not failures (the problem solves all the same).
  if (!info.title || !*info.title)
    report.warn("the problem has a title", "none: `daekit list`, `info` and the reports show its name alone");
  if (!info.name || plugin.manifest.name != info.name)
    report.warn("its info name is the name it is exported under",
                std::string("info says '") + (info.name ? info.name : "") + "', the plugin exports '" +
                    plugin.manifest.name + "': --problem takes the exported name, the reports print the other");

  // Every field of the description (indices included) was validated when it was created.
  const bool flags_ok = info.t0 != info.tend && std::isfinite(info.t0) && std::isfinite(info.tend);
  const std::string why = flags_ok ? "" : "the span is empty or not finite";
  report.add("size, span and per-component flags", flags_ok,
             flags_ok ? "n = " + std::to_string(info.n) + ", t in [" + fmt(info.t0) + ", " + fmt(info.tend) + "]" : why);

  std::vector<double> y0v, yp0v;
  try {
    problem->initial_values(y0v, yp0v);
  } catch (const std::exception& e) {
    report.add("initial values", false, e.what());
    return report;
  }
  const Eigen::VectorXd y0 = Eigen::Map<Eigen::VectorXd>(y0v.data(), n);
  // Without a y'(t0) of its own the residual is evaluated at y' = 0: that it can be, and
  // its Jacobian, are checked all the same.
  const Eigen::VectorXd yp0 = (info.flags & DK_PROBLEM_HAS_YP0) ? Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(yp0v.data(), n))
                                                                : Eigen::VectorXd::Zero(n);
  auto first_non_finite = [&](const Eigen::VectorXd& v) {
    for (Eigen::Index i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i])) return "component " + probe.name(i) + " is " + fmt(v[i]);
    return std::string();
  };
  const std::string bad_y0 = first_non_finite(y0);
  report.add("initial values are finite", bad_y0.empty(), bad_y0);
  if (!bad_y0.empty()) return report;
  if (info.flags & DK_PROBLEM_HAS_YP0) {
    const std::string bad = first_non_finite(yp0);
    report.add("initial derivatives y'(t0) are finite", bad.empty(), bad);
  }

  check_events(report, plugin, params, *problem, y0, yp0);
  check_event_derivatives(report, plugin, params, *problem, y0);

  if (info.form == DK_FORM_RESIDUAL_ONLY) {
    Eigen::VectorXd r(n);
    const bool ok = probe.residual(info.t0, y0, yp0, r);
    report.add(info.flags & DK_PROBLEM_HAS_YP0 ? "residual at the initial values" : "residual at y0 and y' = 0", ok,
               ok ? "|F(t0, y0, y'0)| = " + fmt(r.cwiseAbs().maxCoeff()) : "the residual could not be evaluated or is not finite");
    if (ok && p.vtbl->residual_jacobian) check_residual_jacobian(report, probe, info.t0, y0, yp0);
    if (ok && DK_HAS_FIELD(&info, dk_problem_info, dfdp_pattern) && info.np > 0 &&
        DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, residual_dfdp) && p.vtbl->residual_dfdp)
      check_residual_dfdp(report, probe, info, info.t0, y0, yp0, "the initial values");
    return report;
  }
  Eigen::VectorXd f0;
  const bool f_ok = probe.rhs(info.t0, y0, f0);
  report.add("right-hand side at the initial values", f_ok, f_ok ? "" : "f(t0, y0) failed or is not finite");
  if (!f_ok) return report;

  if (info.mass_kind != DK_MASS_IDENTITY) check_mass_matrix(report, probe, p, info, y0, f0);

  const auto states = probe_states(y0);
  if (p.vtbl->jacobian) {
    for (const auto& [where, y] : states) check_dense_jacobian(report, probe, info.t0, y, where);
  } else {
    report.add("analytic Jacobian", true, "not provided: solvers will use finite differences");
  }
  if (info.flags & DK_PROBLEM_SPARSE_JACOBIAN)
    for (const auto& [where, y] : states) check_sparse_jacobian(report, probe, info.t0, y, where);
  if (DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, jacobian_sens) && p.vtbl->jacobian_sens)
    for (const auto& [where, y] : states) check_jacobian_sens(report, probe, info.t0, y, where);
  if ((info.flags & DK_PROBLEM_DIRECTIONAL_DERIVATIVE) && DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, jacobian_vector) &&
      p.vtbl->jacobian_vector && info.form != DK_FORM_RESIDUAL_ONLY)
    for (const auto& [where, y] : states) check_jacobian_vector(report, probe, info.t0, y, where);
  if ((info.flags & DK_PROBLEM_PRECONDITIONER) && DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, prec_solve) &&
      p.vtbl->prec_setup && p.vtbl->prec_solve && info.form != DK_FORM_RESIDUAL_ONLY &&
      info.mass_kind <= DK_MASS_CONSTANT)
    check_preconditioner(report, probe, info.t0, y0);
  if (p.vtbl->dfdt && (info.flags & DK_PROBLEM_ANALYTIC_DFDT)) check_dfdt(report, probe, info.t0, y0);
  if (DK_HAS_FIELD(&info, dk_problem_info, dfdp_pattern) && info.np > 0 && DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, dfdp) &&
      p.vtbl->dfdp)
    for (const auto& [where, y] : states) check_dfdp(report, probe, info, info.t0, y, where);
  if (info.flags & DK_PROBLEM_AUTONOMOUS) {
    Eigen::VectorXd f1;
    const double t1 = info.t0 + 0.5 * (info.tend - info.t0);
    const bool ok = probe.rhs(t1, y0, f1) && (f1 - f0).cwiseAbs().maxCoeff() == 0.0;
    report.add("autonomous as declared", ok, ok ? "" : "f(t, y0) changes with t although the problem says it does not");
  }

  check_reference(report, *problem);
  return report;
}

void print(std::ostream& out, const Report& report) {
  out << report.subject << "\n";
  for (const auto& i : report.items)
    out << "  [" << (i.skipped ? "skip" : i.warning ? "warn" : i.passed ? "pass" : "FAIL") << "] " << i.name << (i.detail.empty() ? "" : ": " + i.detail)
        << "\n";
  out << "  => " << (report.passed() ? "passed" : "FAILED") << "\n";
}

}  // namespace daekit::host::check
