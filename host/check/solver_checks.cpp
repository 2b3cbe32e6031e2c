#include <algorithm>
#include <cmath>
#include <daekit/solve_request.hpp>
#include <daekit/status.hpp>
#include <sstream>

#include <daekit/api/run_setup.hpp>
#include "checks.hpp"

namespace daekit::host::check {
namespace {

}  // namespace

Report check_solver(const loader::Plugin& plugin, const loader::Registry& registry) {
  Report report;
  report.subject = "solver '" + plugin.manifest.name + "' (" + plugin.file.string() + ")";
  report.add("manifest and ABI", true, "plugin ABI 1." + std::to_string(plugin.manifest.abi_minor) + ", version " +
                                           plugin.manifest.version);
  std::unique_ptr<loader::SolverInstance> solver;
  try {
    solver = std::make_unique<loader::SolverInstance>(plugin);
    report.add("created", true);
  } catch (const std::exception& e) {
    report.add("created", false, e.what());
    return report;
  }
  const dk_solver_info& s = solver->info();
  report.add("describes itself", s.name && plugin.manifest.name == s.name && s.max_mass_kind <= DK_MASS_STATE_DEPENDENT,
             "order " + std::to_string(s.order) + ", DAE index up to " + std::to_string(s.max_dae_index) + ", " +
                 std::to_string(s.noptions) + " options");

  // Standard problems, where installed and within the solver's capabilities, at two
  // tolerances. A method of order p with error-per-step control reaches about
  // p/(p+1) log10(1/rtol) digits: judged against the declared order at rtol 1e-6 (with
  // 1.5 digits to spare for error constants), so a correct first-order method passes and a
  // method that does not converge at its declared order fails. The gain per decade between
  // the two tolerances is reported, not judged: methods that are more accurate than asked
  // at loose tolerances (radauiia, ida on smooth solutions) gain less, and rightly pass.
  const int order = std::max(1, static_cast<int>(s.order));
  const double expected_rate = static_cast<double>(order) / (order + 1);
  const double required_digits = expected_rate * 6.0 - 1.5;
  int ran = 0;
  for (const char* name : {"rober", "hires", "vdpol", "prothero_robinson", "rober_dae", "rober_residual", "fekete"}) {
    const loader::Plugin* pp = registry.find(name);
    if (!pp || pp->manifest.kind != DK_KIND_PROBLEM) {
      report.skip(std::string("solves ") + name, "not installed");
      continue;
    }
    loader::ProblemInstance problem(*pp, {});
    std::string why;
    if (!check_capabilities(s, problem.info(), &why)) {
      report.skip(std::string("solves ") + name, why);
      continue;
    }
    std::ostringstream detail;
    bool ok = true;
    double digits[2] = {0, 0};
    bool scored = true;
    for (int k = 0; k < 2 && ok; ++k) {
      const double rtol = k == 0 ? 1e-4 : 1e-6;
      RunSettings settings;
      settings.rtol = rtol;
      PreparedRun run(problem, *solver, settings);
      // Every point checked as `daekit run` checks it: the problem's size, finite values.
      Trajectory points;
      points.n = problem.info().n;
      dk_output_sink sink = collect_into(points);
      dk_result result{};
      result.struct_size = sizeof result;
      solver->solve(problem, run.options(), sink, result);
      const Status status = static_cast<Status>(result.status);
      const dk_stats& st = result.stats;
      const std::string impossible = impossible_result(result, points, run.options(), problem.info());
      ok = is_success(status) && impossible.empty();
      if (!impossible.empty())
        detail << "an impossible result: it " << impossible << " (rtol " << fmt(rtol) << ")";
      else if (!ok)
        detail << status_name(status) << " at rtol " << fmt(rtol) << ": " << result.message;
      const bool sane = st.accepted + st.rejected <= st.steps && st.nfev > 0 && st.steps > 0;
      if (ok && !sane) {
        ok = false;
        detail << "inconsistent statistics at rtol " << fmt(rtol) << " (steps " << st.steps << ", accepted "
               << st.accepted << ", rejected " << st.rejected << ", nfev " << st.nfev << ")";
      }
      if (!ok) break;
      detail << (k ? "; " : "") << "rtol " << fmt(rtol) << ": " << st.steps << " steps, " << st.nfev << " f evaluations";
      if (auto a = final_accuracy(problem, run, points.t.back(), points.y.data() + (points.t.size() - 1) * points.n)) {
        digits[k] = a->mescd;
        detail << ", mescd " << fmt(a->mescd);
      } else {
        scored = false;
      }
    }
    if (ok && scored) {
      const double rate = (digits[1] - digits[0]) / 2.0;
      detail << "; " << fmt(rate) << " digits gained per decade (order " << order << ": ~" << fmt(expected_rate) << ")";
      if (digits[1] < required_digits) {
        ok = false;
        detail << ": fewer digits at rtol 1e-6 than order " << order << " allows (at least " << fmt(required_digits)
               << ")";
      }
    }
    report.add(std::string("solves ") + name + " at rtol 1e-4 and 1e-6", ok, detail.str());
    ++ran;
  }
  if (ran == 0) report.add("standard problems", false, "none of the standard problems is installed or supported");

  // Bad input must be refused, not run: a negative tolerance.
  if (const loader::Plugin* pp = registry.find("rober")) {
    loader::ProblemInstance problem(*pp, {});
    RunSettings settings;
    PreparedRun run(problem, *solver, settings);
    dk_solve_options bad = run.options();
    const double negative = -1e-6;
    bad.rtol = &negative;
    bad.nrtol = 1;
    // A real sink: a solver that runs anyway and emits must not call through a null pointer.
    Trajectory emitted;
    emitted.n = problem.info().n;
    dk_output_sink sink = collect_into(emitted);
    dk_result result{};
    result.struct_size = sizeof result;
    const std::string skip;
    std::string why;
    if (check_capabilities(s, problem.info(), &why)) {
      solver->solve(problem, bad, sink, result);
      report.add("refuses a negative tolerance", result.status == DK_STATUS_INVALID_INPUT && emitted.t.empty(),
                 std::string(status_name(static_cast<Status>(result.status))) + ": " + result.message +
                     (emitted.t.empty() ? "" : " (and emitted " + std::to_string(emitted.t.size()) + " points)"));
    }
  }
  return report;
}

}  // namespace daekit::host::check
