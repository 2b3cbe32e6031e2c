#include <Eigen/Dense>
#include <cmath>
#include <sstream>

#include "checks.hpp"

namespace daekit::host::check {
namespace {

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

// f(t0, y) through the C table; false when the model fails or returns non-finite values.
bool rhs(const dk_problem& p, double t, const Eigen::VectorXd& y, Eigen::VectorXd& f) {
  f.resize(y.size());
  return p.vtbl->rhs && p.vtbl->rhs(p.self, t, y.data(), f.data()) == DK_EVAL_OK && f.allFinite();
}

// Largest difference between the analytic Jacobian and central differences, relative to the largest entry.
double jacobian_mismatch(const dk_problem& p, double t, const Eigen::VectorXd& y, std::string* where) {
  const Eigen::Index n = y.size();
  Eigen::MatrixXd ja(n, n), jf(n, n);
  if (p.vtbl->jacobian(p.self, t, y.data(), ja.data(), static_cast<std::size_t>(n)) != DK_EVAL_OK) {
    *where = "the Jacobian could not be evaluated";
    return INFINITY;
  }
  Eigen::VectorXd fa, fb;
  for (Eigen::Index c = 0; c < n; ++c) {
    const double d = 1e-6 * std::max(1.0, std::abs(y[c]));
    Eigen::VectorXd a = y, b = y;
    a[c] += d;
    b[c] -= d;
    if (!rhs(p, t, a, fa) || !rhs(p, t, b, fb)) {
      *where = "f failed near y";
      return INFINITY;
    }
    jf.col(c) = (fa - fb) / (2 * d);
  }
  Eigen::Index r, c;
  const double diff = (ja - jf).cwiseAbs().maxCoeff(&r, &c);
  std::ostringstream m;
  m << "largest difference at (" << r + 1 << ", " << c + 1 << "): analytic " << ja(r, c) << ", differences "
    << jf(r, c);
  *where = m.str();
  return diff / std::max(1.0, jf.cwiseAbs().maxCoeff());
}

}  // namespace

bool Report::passed() const {
  for (const auto& i : items)
    if (!i.passed) return false;
  return !items.empty();
}

Report check_problem(const loader::Plugin& plugin) {
  Report report;
  report.subject = "problem '" + plugin.manifest.name + "' (" + plugin.file.string() + ")";
  report.add("manifest and ABI", true, "plugin ABI 1." + std::to_string(plugin.manifest.abi_minor) + ", version " +
                                           plugin.manifest.version);
  std::unique_ptr<loader::ProblemInstance> problem;
  try {
    problem = std::make_unique<loader::ProblemInstance>(plugin, std::map<std::string, std::string>{});
    report.add("created with default parameters", true);
  } catch (const std::exception& e) {
    report.add("created with default parameters", false, e.what());
    return report;
  }
  const dk_problem_info& info = problem->info();
  const dk_problem& p = problem->handle();
  const auto n = static_cast<Eigen::Index>(info.n);

  bool flags_ok = info.t0 != info.tend && std::isfinite(info.t0) && std::isfinite(info.tend);
  std::string why = flags_ok ? "" : "the span is empty or not finite";
  for (std::size_t i = 0; i < info.n && flags_ok; ++i)
    if (info.index[i] < 1 || info.index[i] > 3) flags_ok = false, why = "component " + std::to_string(i + 1) + " has index " + std::to_string(info.index[i]);
  report.add("size, span and per-component flags", flags_ok,
             flags_ok ? "n = " + std::to_string(info.n) + ", t in [" + fmt(info.t0) + ", " + fmt(info.tend) + "]" : why);

  std::vector<double> y0v, yp0v;
  try {
    problem->initial_values(y0v, yp0v);
  } catch (const std::exception& e) {
    report.add("initial values", false, e.what());
    return report;
  }
  Eigen::VectorXd y0 = Eigen::Map<Eigen::VectorXd>(y0v.data(), n);
  report.add("initial values are finite", y0.allFinite());

  if (info.form == DK_FORM_RESIDUAL_ONLY) {
    Eigen::VectorXd yp0 = Eigen::Map<Eigen::VectorXd>(yp0v.data(), n), r(n);
    const bool ok = p.vtbl->residual && p.vtbl->residual(p.self, info.t0, y0.data(), yp0.data(), r.data()) == DK_EVAL_OK;
    report.add("residual at the initial values", ok && r.allFinite(),
               ok ? "|F(t0, y0, y'0)| = " + fmt(r.cwiseAbs().maxCoeff()) : "the residual could not be evaluated");
    return report;
  }
  Eigen::VectorXd f0;
  report.add("right-hand side at the initial values", rhs(p, info.t0, y0, f0),
             "f(t0, y0) must be finite");
  if (!f0.allFinite() || f0.size() != n) return report;

  // Mass matrix: finite, and its zero columns are the components flagged algebraic.
  if (info.mass_kind != DK_MASS_IDENTITY) {
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
    const bool ok = p.vtbl->mass && p.vtbl->mass(p.self, info.t0, y0.data(), m.data(), info.n) == DK_EVAL_OK &&
                    m.allFinite();
    std::string detail;
    bool consistent = ok;
    for (Eigen::Index j = 0; j < n && ok; ++j) {
      const bool zero = m.col(j).cwiseAbs().maxCoeff() == 0.0;
      if (zero == (info.differential[j] != 0)) {
        consistent = false;
        detail = "component " + std::to_string(j + 1) + " is flagged " +
                 (info.differential[j] ? "differential" : "algebraic") + " but its column of M is " +
                 (zero ? "zero" : "not zero");
        break;
      }
    }
    report.add("mass matrix matches the differential flags", consistent, ok ? detail : "M could not be evaluated");
    // Consistency: the rows of M that are zero hold algebraic equations, which y0 must satisfy.
    if (ok && (info.flags & DK_PROBLEM_CONSISTENT_Y0)) {
      double worst = 0.0;
      Eigen::Index row = -1;
      for (Eigen::Index i = 0; i < n; ++i)
        if (m.row(i).cwiseAbs().maxCoeff() == 0.0 && std::abs(f0[i]) > worst) worst = std::abs(f0[i]), row = i;
      report.add("initial values satisfy the algebraic equations (the problem says they do)", worst <= 1e-10,
                 row < 0 ? "" : "largest residual " + fmt(worst) + " in equation " + std::to_string(row + 1));
    }
  }

  if (p.vtbl->jacobian) {
    Eigen::VectorXd perturbed = y0;
    for (Eigen::Index i = 0; i < n; ++i) perturbed[i] += 0.01 * std::sin(1.0 + static_cast<double>(i)) * (1.0 + std::abs(y0[i]));
    for (const auto* which : {"the initial values", "a perturbed state"}) {
      const Eigen::VectorXd& y = std::string(which) == "the initial values" ? y0 : perturbed;
      std::string where;
      const double mismatch = jacobian_mismatch(p, info.t0, y, &where);
      report.add(std::string("analytic Jacobian agrees with finite differences at ") + which, mismatch <= 1e-6,
                 "relative mismatch " + fmt(mismatch) + "; " + where);
    }
  } else {
    report.add("analytic Jacobian", true, "not provided: solvers will use finite differences");
  }

  if (info.has_reference) {
    std::vector<double> ref;
    const bool ok = problem->reference(ref) && ref.size() == info.n;
    bool finite = ok;
    for (double v : ref) finite = finite && std::isfinite(v);
    report.add("reference solution", finite, "at t = " + fmt(info.reference_t) + ": " + info.reference_source);
  }
  return report;
}

void print(std::ostream& out, const Report& report) {
  out << report.subject << "\n";
  for (const auto& i : report.items)
    out << "  [" << (i.passed ? "pass" : "FAIL") << "] " << i.name << (i.detail.empty() ? "" : ": " + i.detail)
        << "\n";
  out << "  => " << (report.passed() ? "passed" : "FAILED") << "\n";
}

}  // namespace daekit::host::check
