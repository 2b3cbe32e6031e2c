// `daekit check` on the derivatives sensitivities need at events (ABI 1.3): dg/dy and
// dg/dp (roots_dgdp) against central differences of the root functions, and the reset's
// dR/dy and dR/dp (event_derivatives) against central differences of on_event itself,
// each evaluation on a fresh instance (a reaction switches the problem's mode, so it can
// be repeated only on a problem that has not reacted yet).
#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

#include "checks.hpp"

namespace daekit::host::check {

namespace {

constexpr double tolerance = 1e-6;  // relative to the largest entry of the differences (at least 1)
constexpr std::size_t max_components = 200;  // a reset differenced on 2 (n + np) fresh instances
constexpr std::size_t max_reactions = 8;

// f(v) at the moved value of one variable; false when it cannot be evaluated.
using Moved = std::function<bool(double delta, Eigen::VectorXd& out)>;

// Central differences of `moved` in one variable whose value is `value` (checks.hpp's increment).
bool difference(double value, const Moved& moved, Eigen::VectorXd& column, double floor = component_floor) {
  const double d = difference_increment(value, floor);
  Eigen::VectorXd plus, minus;
  if (!moved(d, plus) || !moved(-d, minus)) return false;
  column = (plus - minus) / (2.0 * d);
  return true;
}

// "" when a agrees with b, else the worst entry and both values.
std::string disagreement(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const std::string& rows,
                         const std::string& columns) {
  if (a.size() == 0) return "";
  if (!a.allFinite()) return "a non-finite entry";
  Eigen::Index r = 0, c = 0;
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  const double worst = (a - b).cwiseAbs().maxCoeff(&r, &c);
  if (worst <= tolerance * scale) return "";
  return "worst at " + rows + " " + std::to_string(r + 1) + ", " + columns + " " + std::to_string(c + 1) + ": " +
         fmt(a(r, c)) + " against " + fmt(b(r, c)) + " (allowed " + fmt(tolerance) + " x " + fmt(scale) + ")";
}

void check_root_derivatives(Report& report, const loader::ProblemInstance& problem, const Eigen::VectorXd& y0) {
  const dk_problem_info& info = problem.info();
  const dk_problem& p = problem.handle();
  const auto m = static_cast<Eigen::Index>(info.nroots), n = static_cast<Eigen::Index>(info.n);
  const auto np = static_cast<Eigen::Index>(info.np);
  std::vector<double> nominal(info.p_nominal, info.p_nominal + info.np);
  if (np > 0 && p.vtbl->set_p(p.self, nominal.data()) != DK_EVAL_OK)
    return report.add("dg/dy, dg/dp", false, "the nominal parameters could not be set");
  Eigen::MatrixXd gy = Eigen::MatrixXd::Zero(m, n), gp = Eigen::MatrixXd::Zero(m, np);
  if (p.vtbl->roots_dgdp(p.self, info.t0, y0.data(), gy.data(), gp.data()) != DK_EVAL_OK)
    return report.add("dg/dy, dg/dp", false, "roots_dgdp failed at the initial values");
  const auto roots_at = [&](const Eigen::VectorXd& y, Eigen::VectorXd& g) {
    g.resize(m);
    return p.vtbl->roots(p.self, info.t0, y.data(), nullptr, g.data()) == DK_EVAL_OK && g.allFinite();
  };
  Eigen::MatrixXd dy(m, n), dp(m, np);
  Eigen::VectorXd column;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Moved moved = [&](double d, Eigen::VectorXd& g) {
      Eigen::VectorXd y = y0;
      y[j] += d;
      return roots_at(y, g);
    };
    if (!difference(y0[j], moved, column)) return report.add("dg/dy", false, "the root functions failed near y0");
    dy.col(j) = column;
  }
  for (Eigen::Index j = 0; j < np; ++j) {
    const Moved moved = [&](double d, Eigen::VectorXd& g) {
      std::vector<double> q = nominal;
      q[static_cast<std::size_t>(j)] += d;
      const bool ok = p.vtbl->set_p(p.self, q.data()) == DK_EVAL_OK && roots_at(y0, g);
      p.vtbl->set_p(p.self, nominal.data());
      return ok;
    };
    if (!difference(nominal[static_cast<std::size_t>(j)], moved, column, parameter_floor))
      return report.add("dg/dp", false, "the root functions failed near the nominal parameters");
    dp.col(j) = column;
  }
  const std::string wrong_y = disagreement(gy, dy, "root", "component");
  report.add("dg/dy agrees with differences at y0", wrong_y.empty(), wrong_y);
  if (np == 0) return;
  const std::string wrong_p = disagreement(gp, dp, "root", "parameter");
  report.add("dg/dp agrees with differences in the parameters", wrong_p.empty(), wrong_p);
}

// On a fresh instance at parameters q: y+ = R(y) after root i fired at t0.
bool reset_of(const loader::Plugin& plugin, const std::map<std::string, std::string>& params, const dk_event& event,
              const std::vector<double>& q, const Eigen::VectorXd& y, Eigen::VectorXd& y_plus) {
  try {
    const loader::ProblemInstance fresh(plugin, params);
    const dk_problem& h = fresh.handle();
    if (!q.empty() && h.vtbl->set_p(h.self, q.data()) != DK_EVAL_OK) return false;
    y_plus = y;
    Eigen::VectorXd yp = Eigen::VectorXd::Zero(y.size());
    std::uint32_t action = DK_EVENT_CONTINUE;
    return h.vtbl->on_event(h.self, &event, y_plus.data(), yp.data(), &action) == DK_EVAL_OK && y_plus.allFinite();
  } catch (const std::exception&) {
    return false;
  }
}

void check_reset_derivatives(Report& report, const loader::Plugin& plugin,
                             const std::map<std::string, std::string>& params, const dk_problem_info& info,
                             const Eigen::VectorXd& y0) {
  const auto n = static_cast<Eigen::Index>(info.n), np = static_cast<Eigen::Index>(info.np);
  const std::vector<double> nominal(info.p_nominal, info.p_nominal + info.np);
  for (std::size_t i = 0; i < info.nroots && i < max_reactions; ++i) {
    const std::string name = "event_derivatives for root " + std::to_string(i);
    const auto fired = static_cast<std::int32_t>(i);
    const std::int8_t direction = info.root_direction && info.root_direction[i] != 0 ? info.root_direction[i] : -1;
    const dk_event event{sizeof(dk_event), info.t0, DK_EVENT_ROOT, 1, &fired, &direction};
    Eigen::MatrixXd ry = Eigen::MatrixXd::Zero(n, n), rp = Eigen::MatrixXd::Zero(n, np);
    Eigen::VectorXd y_plus;
    bool given = false;
    try {
      const loader::ProblemInstance fresh(plugin, params);
      const dk_problem& h = fresh.handle();
      std::uint32_t action = DK_EVENT_CONTINUE;
      Eigen::VectorXd y = y0, yp = Eigen::VectorXd::Zero(n);
      given = (np == 0 || h.vtbl->set_p(h.self, nominal.data()) == DK_EVAL_OK) &&
              h.vtbl->on_event(h.self, &event, y.data(), yp.data(), &action) == DK_EVAL_OK &&
              h.vtbl->event_derivatives(h.self, &event, y0.data(), ry.data(), rp.data()) == DK_EVAL_OK;
    } catch (const std::exception& e) {
      report.add(name, false, e.what());
      continue;
    }
    if (!given) {
      report.add(name, false, "on_event or event_derivatives failed at the initial values");
      continue;
    }
    Eigen::MatrixXd dy(n, n), dp(n, np);
    Eigen::VectorXd column;
    bool evaluated = true;
    for (Eigen::Index j = 0; j < n && evaluated; ++j) {
      const Moved moved = [&](double d, Eigen::VectorXd& out) {
        Eigen::VectorXd y = y0;
        y[j] += d;
        return reset_of(plugin, params, event, nominal, y, out);
      };
      evaluated = difference(y0[j], moved, column);
      if (evaluated) dy.col(j) = column;
    }
    for (Eigen::Index j = 0; j < np && evaluated; ++j) {
      const Moved moved = [&](double d, Eigen::VectorXd& out) {
        std::vector<double> q = nominal;
        q[static_cast<std::size_t>(j)] += d;
        return reset_of(plugin, params, event, q, y0, out);
      };
      evaluated = difference(nominal[static_cast<std::size_t>(j)], moved, column, parameter_floor);
      if (evaluated) dp.col(j) = column;
    }
    if (!evaluated) {
      report.add(name, false, "on_event could not be repeated near the initial values on fresh instances");
      continue;
    }
    std::string wrong = disagreement(ry, dy, "row", "component");
    if (wrong.empty()) wrong = disagreement(rp, dp, "row", "parameter");
    report.add(name + " agrees with differences of on_event", wrong.empty(), wrong);
  }
}

}  // namespace

void check_event_derivatives(Report& report, const loader::Plugin& plugin,
                             const std::map<std::string, std::string>& params, const loader::ProblemInstance& problem,
                             const Eigen::VectorXd& y0) {
  const dk_problem_info& info = problem.info();
  const dk_problem& p = problem.handle();
  if (!DK_HAS_FIELD(&info, dk_problem_info, dfdp_pattern) || !DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, event_derivatives))
    return;  // built against an older minor: no such entries
  if (info.nroots == 0 || !p.vtbl->roots) return;
  if (p.vtbl->roots_dgdp && !(info.flags & DK_PROBLEM_ROOTS_USE_YP)) check_root_derivatives(report, problem, y0);
  if (!p.vtbl->event_derivatives || !p.vtbl->on_event) return;
  if (info.n + info.np > max_components)
    return report.skip("event_derivatives", "more than " + std::to_string(max_components) +
                                                " components and parameters: not differenced on fresh instances");
  check_reset_derivatives(report, plugin, params, info, y0);
}

}  // namespace daekit::host::check
