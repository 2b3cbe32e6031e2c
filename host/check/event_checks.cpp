// `daekit check` on a problem's events (ABI 1.2): root functions finite where the run
// starts, time events answered, and every reaction (on_event) either keeps a DAE's
// algebraic equations satisfied or asks for re-initialisation.
#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

#include <daekit/api/discovery.hpp>

#include "checks.hpp"

namespace daekit::host::check {

namespace {


// The largest residual of the algebraic equations (rows of a zero M row: the components
// flagged algebraic for the semi-explicit DAEs the SDK describes) at (t, y).
double algebraic_residual(const dk_problem& p, const dk_problem_info& info, double t, const Eigen::VectorXd& y) {
  Eigen::VectorXd f(y.size());
  if (!p.vtbl->rhs || p.vtbl->rhs(p.self, t, y.data(), f.data()) != DK_EVAL_OK || !f.allFinite())
    return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  for (std::size_t i = 0; i < info.n; ++i)
    if (!info.differential[i]) worst = std::max(worst, std::abs(f[static_cast<Eigen::Index>(i)]));
  return worst;
}

std::string root_label(const dk_problem_info& info, std::size_t i) {
  const std::string name = api::root_name(info, i);
  return std::to_string(i) + (name.empty() ? "" : " (" + name + ")");
}

// How many root functions get a simulated event each: enough to catch a wrong reaction.
constexpr std::size_t max_reactions_checked = 8;

}  // namespace

void check_events(Report& report, const loader::Plugin& plugin, const std::map<std::string, std::string>& params,
                  const loader::ProblemInstance& problem, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0) {
  const dk_problem_info& info = problem.info();
  const dk_problem& p = problem.handle();
  if (!DK_HAS_FIELD(&info, dk_problem_info, constraints)) return;  // a 1.0/1.1 problem: no events
  const bool table_1_2 = DK_HAS_FIELD(p.vtbl, dk_problem_vtbl, step_completed);
  const bool time_events = info.flags & DK_PROBLEM_TIME_EVENTS;
  if (info.nroots == 0 && !time_events) return;

  if (info.nroots > 0) {
    if (!table_1_2 || !p.vtbl->roots) {
      report.add("root functions", false,
                 "the problem declares " + std::to_string(info.nroots) + " root functions but provides no roots()");
    } else {
      Eigen::VectorXd g = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(info.nroots),
                                                    std::numeric_limits<double>::quiet_NaN());
      const bool evaluated = p.vtbl->roots(p.self, info.t0, y0.data(), yp0.data(), g.data()) == DK_EVAL_OK;
      std::string detail;
      for (Eigen::Index i = 0; evaluated && i < g.size() && detail.empty(); ++i)
        if (!std::isfinite(g[i])) detail = "root function " + root_label(info, static_cast<std::size_t>(i)) + " is " + fmt(g[i]);
      report.add("root functions are finite at the initial values", evaluated && detail.empty(),
                 evaluated ? detail : "roots() failed at t0");
    }
  }
  if (time_events) {
    double next = std::numeric_limits<double>::quiet_NaN();
    const bool answered = table_1_2 && p.vtbl->next_time_event &&
                          p.vtbl->next_time_event(p.self, info.t0, &next) == DK_EVAL_OK && !std::isnan(next);
    report.add("next_time_event answers at t0", answered,
               answered ? "the first time event at t = " + fmt(next) : "next_time_event is missing, failed or returned NaN");
  }

  // A reaction at y0 for each root function, on a fresh instance (a reaction may switch
  // the problem's mode). Where the DAE has algebraic components, a reaction that does not
  // ask for re-initialisation must leave them satisfied as they were.
  if (!table_1_2 || !p.vtbl->on_event || info.nroots == 0) return;
  bool algebraic = false;
  for (std::size_t i = 0; i < info.n; ++i) algebraic = algebraic || !info.differential[i];
  const bool mass_form = info.form == DK_FORM_MASS_MATRIX;
  for (std::size_t i = 0; i < info.nroots && i < max_reactions_checked; ++i) {
    const std::string name = "on_event for root " + root_label(info, i);
    std::unique_ptr<loader::ProblemInstance> fresh;
    std::vector<double> y_start, yp_start;
    try {
      fresh = std::make_unique<loader::ProblemInstance>(plugin, params);
      fresh->initial_values(y_start, yp_start);
    } catch (const std::exception& e) {
      report.add(name, false, e.what());
      continue;
    }
    const dk_problem& q = fresh->handle();
    Eigen::VectorXd y = Eigen::Map<Eigen::VectorXd>(y_start.data(), static_cast<Eigen::Index>(info.n));
    Eigen::VectorXd yp = yp0;
    const double before = algebraic && mass_form ? algebraic_residual(q, info, info.t0, y) : 0.0;
    const std::int32_t fired = static_cast<std::int32_t>(i);
    const std::int8_t direction = info.root_direction && info.root_direction[i] != 0 ? info.root_direction[i] : -1;
    dk_event event{sizeof(dk_event), info.t0, DK_EVENT_ROOT, 1, &fired, &direction};
    std::uint32_t action = DK_EVENT_CONTINUE;
    if (q.vtbl->on_event(q.self, &event, y.data(), yp.data(), &action) != DK_EVAL_OK) {
      report.add(name, false, "on_event failed at the initial values");
      continue;
    }
    if (!y.allFinite() || action > DK_EVENT_REINIT) {
      report.add(name, false, !y.allFinite() ? "it left a non-finite state" : "it returned the unknown action " + std::to_string(action));
      continue;
    }
    if (!algebraic || !mass_form || action == DK_EVENT_REINIT) {
      report.add(name + " gives a usable state", true,
                 action == DK_EVENT_REINIT ? "asks for re-initialisation" : "");
      continue;
    }
    const double after = algebraic_residual(q, info, info.t0, y);
    const double allowed = std::max(1e-8, 10.0 * before);
    report.add(name + " keeps the algebraic equations satisfied", after <= allowed,
               after <= allowed ? ""
                                : "after it the algebraic equations are violated by " + fmt(after) + " (before: " +
                                      fmt(before) + ", allowed " + fmt(allowed) +
                                      "); a reaction that changes the DAE's mode must return DK_EVENT_REINIT");
  }
}

}  // namespace daekit::host::check
