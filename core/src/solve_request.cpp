#include "daekit/solve_request.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "daekit/status.hpp"

namespace daekit {
namespace {

bool fail(std::string* why, const std::string& text) {
  if (why) *why = text;
  return false;
}

bool expand_tolerance(const char* name, std::size_t count, const double* values, std::size_t n, PerComponent* out,
                      std::string* why) {
  if (count != 1 && count != n) {
    std::ostringstream m;
    m << name << " must have 1 or " << n << " entries, got " << count;
    return fail(why, m.str());
  }
  if (!values) return fail(why, std::string(name) + " is missing");
  for (std::size_t i = 0; i < count; ++i) {
    const double v = values[i];
    if (!std::isfinite(v) || v < 0.0) {
      std::ostringstream m;
      m << name << " must be finite and >= 0, got " << v;
      if (count > 1) m << " in component " << i + 1;
      return fail(why, m.str());
    }
  }
  const auto size = static_cast<Eigen::Index>(n);
  *out = count == 1 ? PerComponent(size, values[0])
                    : PerComponent(Eigen::Map<const Eigen::VectorXd>(values, size));
  return true;
}

bool parse_bool(const std::string& s, bool* out) {
  if (s == "1" || s == "true" || s == "yes" || s == "on") return *out = true, true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return *out = false, true;
  return false;
}

bool parse_real(const std::string& s, double* out) {
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0' && errno == 0;
}

bool parse_int(const std::string& s, long* out) {
  char* end = nullptr;
  errno = 0;
  *out = std::strtol(s.c_str(), &end, 10);
  return end != s.c_str() && *end == '\0' && errno == 0;
}

// The whole matrix a solver reads: df/dy (dense or in its pattern), or for a problem in
// residual form dF/dy + c dF/dy'.
bool gives_whole_jacobian(const dk_problem_info& problem) {
  if (problem.flags & (DK_PROBLEM_ANALYTIC_JACOBIAN | DK_PROBLEM_SPARSE_JACOBIAN)) return true;
  return problem.form == DK_FORM_RESIDUAL_ONLY && (problem.flags & DK_PROBLEM_ANALYTIC_RESIDUAL_JACOBIAN);
}

// Exactly one alternative of "a|b|c"; a substring such as "b|c" or "" is none of them.
bool is_one_of_choices(const std::string& alternatives, const std::string& value) {
  std::size_t begin = 0;
  while (begin <= alternatives.size()) {
    std::size_t end = alternatives.find('|', begin);
    if (end == std::string::npos) end = alternatives.size();
    if (alternatives.compare(begin, end - begin, value) == 0 && !value.empty()) return true;
    begin = end + 1;
  }
  return false;
}

// Steps no longer than the problem's root time scales allow (ABI 1.3): the samples of
// every function that declares tau_i lie closer than tau_i / 2, so no two of its
// crossings fall between neighbouring samples (docs/events.md).
bool bound_steps_by_root_time_scales(const dk_problem_info& problem, SolveRequest* r, std::string* why) {
  if (!DK_HAS_FIELD(&problem, dk_problem_info, root_time_scale) || !problem.root_time_scale) return true;
  const double pieces = r->event_samples + 1.0;
  for (std::size_t i = 0; i < problem.nroots; ++i) {
    const double tau = problem.root_time_scale[i];
    if (!(tau > 0.0) || 0.5 * tau * pieces >= r->hmax) continue;
    const double bound = 0.5 * tau * pieces;
    if (r->hmin > bound) {
      std::ostringstream m;
      m << "hmin (" << r->hmin << ") is larger than the longest step (" << bound << ") that root function "
        << i + 1 << "'s time scale " << tau << " allows with " << r->event_samples << " event samples";
      return fail(why, m.str());
    }
    r->hmax = bound;
  }
  return true;
}

// Which columns of dy/dq a solve wants (ABI 1.3): parameters by index, initial values as -1 - i.
// The functional of an adjoint solve: present members consistent, data times finite, in
// the span and in the direction of integration.
bool parse_adjoint(const dk_solve_options& in, const dk_problem_info& problem, SolveRequest* r, std::string* why) {
  if (!DK_HAS_FIELD(&in, dk_solve_options, functional_value) || !in.adjoint) return true;
  const dk_functional& g = *in.adjoint;
  if (!DK_HAS_FIELD(&g, dk_functional, data_term))
    return fail(why, "the adjoint's functional is of an unknown size " + std::to_string(g.struct_size));
  if (!in.gradient) return fail(why, "an adjoint asked for without a place for its gradient");
  if (g.ndata > 0 && (!g.data_t || !g.data_term)) return fail(why, "the functional's data terms lack their times or function");
  const double dir = r->direction();
  for (std::size_t k = 0; k < g.ndata; ++k) {
    const double t = g.data_t[k];
    if (!std::isfinite(t) || dir * (t - r->t0) < 0 || dir * (t - r->tend) > 0)
      return fail(why, "data time " + std::to_string(k + 1) + " of the functional lies outside the span");
    if (k > 0 && dir * (t - g.data_t[k - 1]) < 0)
      return fail(why, "the functional's data times are not in the direction of integration");
  }
  if (!g.terminal && !g.running && g.ndata == 0) return fail(why, "the adjoint's functional has no term");
  (void)problem;
  r->adjoint = in.adjoint;
  r->gradient = in.gradient;
  r->gradient_y0 = in.gradient_y0;
  r->functional_value = in.functional_value;
  return true;
}

bool parse_sensitivities(const dk_solve_options& in, const dk_problem_info& problem, SolveRequest* r,
                         std::string* why) {
  if (!DK_HAS_FIELD(&in, dk_solve_options, sens) || in.nsens == 0) return true;
  if (!in.sens_index) return fail(why, "sensitivities asked for without their indices");
  const std::size_t np = DK_HAS_FIELD(&problem, dk_problem_info, dfdp_pattern) ? problem.np : 0;
  const auto n = static_cast<std::int64_t>(problem.n);
  for (std::size_t k = 0; k < in.nsens; ++k) {
    const std::int32_t q = in.sens_index[k];
    if (q >= 0 && static_cast<std::size_t>(q) >= np) {
      std::ostringstream m;
      m << "sensitivity " << k + 1 << " is with respect to parameter " << q + 1 << ", but problem '" << problem.name
        << "' has " << np << " real parameter" << (np == 1 ? "" : "s");
      return fail(why, m.str());
    }
    if (q < 0 && -1 - static_cast<std::int64_t>(q) >= n) {
      std::ostringstream m;
      m << "sensitivity " << k + 1 << " is with respect to initial value " << -static_cast<std::int64_t>(q)
        << ", but the problem has " << n << " components";
      return fail(why, m.str());
    }
    for (std::size_t j = 0; j < k; ++j)
      if (in.sens_index[j] == q) return fail(why, "sensitivity " + std::to_string(k + 1) + " repeats an earlier one");
    r->sens_index.push_back(q);
  }
  if (in.sens_error_control > DK_SENS_ERROR_CONTROL_OFF)
    return fail(why, "sens_error_control = " + std::to_string(in.sens_error_control) + " is unknown");
  r->sens_error_control = in.sens_error_control == DK_SENS_ERROR_CONTROL_ON;
  if (DK_HAS_FIELD(&in, dk_solve_options, sens_initial) && in.sens_initial) {
    r->sens_initial.assign(in.sens_initial, in.sens_initial + problem.n * in.nsens);
    for (double v : r->sens_initial)
      if (!std::isfinite(v)) return fail(why, "the initial sensitivities (sens_initial) hold a non-finite value");
  }
  return true;
}

}  // namespace

double SolveRequest::in_tolerances(const Eigen::VectorXd& change, const Eigen::VectorXd& y) const {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    largest = std::max(largest, std::abs(change[i]) / (atol[i] + rtol[i] * std::abs(y[i])));
  return largest;
}

double SolveRequest::extra_real(const std::string& key, double fallback) const {
  auto it = extra.find(key);
  double v = fallback;
  return it != extra.end() && parse_real(it->second, &v) ? v : fallback;
}
long SolveRequest::extra_int(const std::string& key, long fallback) const {
  auto it = extra.find(key);
  long v = fallback;
  return it != extra.end() && parse_int(it->second, &v) ? v : fallback;
}
bool SolveRequest::extra_bool(const std::string& key, bool fallback) const {
  auto it = extra.find(key);
  bool v = fallback;
  return it != extra.end() && parse_bool(it->second, &v) ? v : fallback;
}
std::string SolveRequest::extra_text(const std::string& key, const std::string& fallback) const {
  auto it = extra.find(key);
  return it != extra.end() ? it->second : fallback;
}

bool parse_request(const dk_solve_options& in, const dk_problem_info& problem, SolveRequest* out,
                   std::string* why) {
  const std::size_t n = dk_rows_held(&problem);  // y0 and the tolerances: the owned rows with local rows
  SolveRequest r;
  if (in.struct_size < DK_MIN_SIZE_SOLVE_OPTIONS)
    return fail(why, "solve options from an older ABI minor are too small");
  if (!std::isfinite(in.t0) || !std::isfinite(in.tend)) return fail(why, "t0 and tend must be finite");
  if (in.t0 == in.tend) return fail(why, "the time span is empty (t0 == tend)");
  r.t0 = in.t0;
  r.tend = in.tend;
  if (!in.y0) return fail(why, "no initial values given");
  r.y0 = Eigen::Map<const Eigen::VectorXd>(in.y0, static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(in.y0[i])) {
      std::ostringstream m;
      m << "initial value of component " << i + 1;
      if (problem.component_names) m << " (" << problem.component_names[i] << ")";
      m << " is not finite: " << in.y0[i];
      return fail(why, m.str());
    }
  }
  if (in.yp0) {
    bool all_finite = true;
    for (std::size_t i = 0; i < n; ++i) all_finite = all_finite && std::isfinite(in.yp0[i]);
    if (all_finite) r.yp0 = Eigen::Map<const Eigen::VectorXd>(in.yp0, static_cast<Eigen::Index>(n));
  }
  if (!expand_tolerance("rtol", in.nrtol, in.rtol, n, &r.rtol, why)) return false;
  if (!expand_tolerance("atol", in.natol, in.atol, n, &r.atol, why)) return false;
  for (Eigen::Index i = 0; i < r.rtol.size(); ++i)
    if (r.rtol[i] >= 1.0) {
      // A relative tolerance of 100 % or more accepts any answer (rtol 1e3 "succeeded" with error 1e246).
      std::ostringstream m;
      m << "rtol must be below 1, got " << r.rtol[i];
      if (in.nrtol > 1) m << " in component " << i + 1;
      return fail(why, m.str());
    }
  for (Eigen::Index i = 0; i < r.rtol.size(); ++i)
    if (r.rtol[i] == 0.0 && r.atol[i] == 0.0) {
      std::ostringstream m;
      m << "rtol and atol are both zero for component " << i + 1;
      return fail(why, m.str());
    }
  const double span = std::abs(r.tend - r.t0);
  for (auto [name, v] : {std::pair<const char*, double>{"h0", in.h0}, {"hmin", in.hmin}, {"hmax", in.hmax}}) {
    if (!std::isfinite(v) || v < 0.0) return fail(why, std::string(name) + " must be finite and >= 0");
  }
  r.h0 = in.h0;
  r.hmin = in.hmin;
  r.hmax = in.hmax > 0.0 ? in.hmax : span;
  if (r.hmin > r.hmax) {
    std::ostringstream m;
    if (in.hmax > 0.0)
      m << "hmin (" << r.hmin << ") is larger than hmax (" << r.hmax << ")";
    else
      m << "hmin (" << r.hmin << ") is larger than the time span (" << span << ")";
    return fail(why, m.str());
  }
  if (in.max_steps <= 0) return fail(why, "max_steps must be positive");
  r.max_steps = in.max_steps;
  if (in.output_mode > DK_OUTPUT_SAVEAT) return fail(why, "unknown output mode");
  r.output = static_cast<OutputMode>(in.output_mode);
  const double lo = std::min(r.t0, r.tend), hi = std::max(r.t0, r.tend);
  if (r.output == OutputMode::saveat) {
    if (in.nsaveat == 0 || !in.saveat) return fail(why, "saveat output asks for times but none were given");
    r.saveat.assign(in.saveat, in.saveat + in.nsaveat);
    for (double t : r.saveat)
      if (!std::isfinite(t) || t < lo || t > hi) {
        std::ostringstream m;
        m << "output time " << t << " lies outside [" << lo << ", " << hi << "]";
        return fail(why, m.str());
      }
    std::sort(r.saveat.begin(), r.saveat.end());
    if (r.direction() < 0) std::reverse(r.saveat.begin(), r.saveat.end());
  }
  if (in.jacobian > DK_JACOBIAN_FINITE_DIFFERENCE) return fail(why, "unknown Jacobian source");
  r.jacobian = static_cast<JacobianSource>(in.jacobian);
  // A distributed problem's may be its owned rows' alone, which only some solvers read:
  // check_jacobian_request decides with the solver and the problem's table.
  const bool distributed = dk_distribution_of(&problem) != nullptr;
  if (r.jacobian == JacobianSource::analytic && !distributed && !gives_whole_jacobian(problem))
    return fail(why, "an analytic Jacobian was requested but the problem does not provide one");
  if (in.init > DK_INIT_TRUST) return fail(why, "unknown initialisation policy");
  r.init = static_cast<InitPolicy>(in.init);
  r.index_scaling = in.index_scaling != 0;
  r.suppress_algebraic = in.suppress_algebraic != 0;
  for (std::size_t i = 0; i < in.ntstops; ++i) {
    double t = in.tstops[i];
    if (!std::isfinite(t)) return fail(why, "tstop values must be finite");
    if (t > lo && t < hi) r.tstops.push_back(t);
  }
  std::sort(r.tstops.begin(), r.tstops.end());
  if (r.direction() < 0) std::reverse(r.tstops.begin(), r.tstops.end());
  for (std::size_t i = 0; i < in.nextra; ++i) {
    if (!in.extra[i].key || !in.extra[i].value) return fail(why, "plugin option without key or value");
    r.extra[in.extra[i].key] = in.extra[i].value;
  }
  if (DK_HAS_FIELD(&in, dk_solve_options, events)) {
    if (in.max_events < 0) return fail(why, "max_events must not be negative");
    if (in.max_events > 0) r.max_events = in.max_events;
    r.keep_dense = in.keep_dense != 0;
  }
  if (DK_HAS_FIELD(&in, dk_solve_options, derivative_check)) {
    if (in.event_samples < -1) return fail(why, "event_samples must be -1 (none), 0 (the default) or positive");
    if (in.event_samples > max_event_samples)
      return fail(why, "event_samples = " + std::to_string(in.event_samples) + " is more than " +
                           std::to_string(max_event_samples));
    r.event_samples = in.event_samples == 0 ? DK_DEFAULT_EVENT_SAMPLES : in.event_samples < 0 ? 0 : in.event_samples;
    if (in.derivative_check > DK_DERIVATIVE_CHECK_OFF)
      return fail(why, "derivative_check = " + std::to_string(in.derivative_check) + " is unknown");
    r.check_derivatives = in.derivative_check != DK_DERIVATIVE_CHECK_OFF;
  }
  if (!parse_sensitivities(in, problem, &r, why)) return false;
  if (!parse_adjoint(in, problem, &r, why)) return false;
  if (!bound_steps_by_root_time_scales(problem, &r, why)) return false;
  *out = std::move(r);
  return true;
}

bool tolerances_attainable(const SolveRequest& request, std::string* why) {
  // Below ~10 unit roundoff no step size meets the tolerance: every error estimate is
  // round-off (RADAU5 and SUNDIALS refuse the same way).
  const double floor = 10.0 * std::numeric_limits<double>::epsilon();
  for (Eigen::Index i = 0; i < request.rtol.size(); ++i) {
    const double scale = std::max(1.0, std::abs(request.y0[i]));
    if (request.rtol[i] < floor && request.atol[i] < floor * scale) {
      std::ostringstream m;
      m << "rtol " << request.rtol[i] << " and atol " << request.atol[i] << " for component " << i + 1
        << " lie below 10 unit roundoff (" << floor << "): no step can meet them";
      return fail(why, m.str());
    }
  }
  return true;
}

bool check_extra_options(const dk_solver_info& solver, const std::map<std::string, std::string>& extra,
                         std::string* why) {
  for (const auto& [key, value] : extra) {
    const dk_option_desc* desc = nullptr;
    for (std::size_t i = 0; i < solver.noptions; ++i)
      if (key == solver.options[i].key) desc = &solver.options[i];
    if (!desc) {
      std::string valid;
      for (std::size_t i = 0; i < solver.noptions; ++i) valid += (i ? ", " : "") + std::string(solver.options[i].key);
      return fail(why, "solver '" + std::string(solver.name) + "' has no option '" + key + "'" +
                           (valid.empty() ? std::string(" (it takes none)") : " (valid: " + valid + ")"));
    }
    const std::string type = desc->type;
    bool ok = true;
    if (type == "int") {
      long v;
      ok = parse_int(value, &v);
    } else if (type == "real") {
      double v;
      ok = parse_real(value, &v);
    } else if (type == "bool") {
      bool v;
      ok = parse_bool(value, &v);
    } else if (type.rfind("choice:", 0) == 0) {
      ok = is_one_of_choices(type.substr(7), value);
    }
    if (!ok)
      return fail(why, "option '" + key + "' of solver '" + solver.name + "' expects " + type + ", got '" + value + "'");
  }
  return true;
}

std::string sensitivity_name(const dk_problem_info& problem, std::int32_t q) {
  if (q >= 0) return problem.p_names[q];
  const auto i = static_cast<std::size_t>(-1 - q);
  std::string name = "y0:";
  if (problem.component_names) {
    name += problem.component_names[i];
  } else {  // (one append at a time: gcc 12 warns falsely on "y" + std::string)
    name += 'y';
    name += std::to_string(i + 1);
  }
  return name;
}

bool check_sensitivity_request(const dk_solver_info& solver, const dk_problem_info& problem,
                               const SolveRequest& request, std::string* why) {
  if (!request.wants_sensitivities()) return true;
  if (!(solver.flags & DK_SOLVER_SENSITIVITIES))
    return fail(why, "solver '" + std::string(solver.name) +
                         "' does not compute sensitivities; use a solver whose `daekit info` says `sensitivities: yes`");
  // The jump of s at an event (numerics/sensitivity_jump.hpp) is applied to problems
  // M y' = f (ODEs and index-1 DAEs); to residual-form ones and roots that read y', not yet.
  const bool events = DK_HAS_FIELD(&problem, dk_problem_info, constraints) &&
                      (problem.nroots > 0 || (problem.flags & (DK_PROBLEM_TIME_EVENTS | DK_PROBLEM_STEP_NOTIFICATION)));
  if (!events) return true;
  const std::string name = "problem '" + std::string(problem.name) + "'";
  if (problem.form == DK_FORM_RESIDUAL_ONLY)
    return fail(why, name + " is in residual form and has events: sensitivities through such events are not "
                            "computed yet");
  if (problem.nroots > 0 && (problem.flags & DK_PROBLEM_ROOTS_USE_YP))
    return fail(why, name + " has root functions that read y': sensitivities through their events are not "
                            "computed yet");
  return true;
}

bool check_jacobian_request(const dk_solver_info& solver, const dk_problem_info& problem,
                            const dk_problem_vtbl* table, const SolveRequest& request, std::string* why) {
  if (request.jacobian != JacobianSource::analytic) return true;
  const bool distributed = dk_distribution_of(&problem) != nullptr;
  if (distributed && (solver.flags & DK_SOLVER_DISTRIBUTED)) {
    if (table && table->jacobian_local) return true;
    return fail(why, "an analytic Jacobian was requested but the problem gives no jacobian_local, which solver '" +
                         std::string(solver.name) + "' reads for a distributed problem");
  }
  if (gives_whole_jacobian(problem)) return true;
  if (distributed && table && table->jacobian_local)
    return fail(why, "an analytic Jacobian was requested but the problem gives only its ranks' rows "
                     "(jacobian_local), which solver '" + std::string(solver.name) +
                         "' does not read; a solver whose `daekit info` says `distributed: yes` does");
  return fail(why, "an analytic Jacobian was requested but the problem does not provide one");
}

bool check_adjoint_request(const dk_solver_info& solver, const dk_problem_info& problem, const SolveRequest& request,
                           std::string* why) {
  if (!request.wants_adjoint()) return true;
  if (!(solver.flags & DK_SOLVER_ADJOINT))
    return fail(why, "solver '" + std::string(solver.name) +
                         "' does not compute adjoint gradients; use a solver whose `daekit info` says `adjoint: yes`");
  if (request.wants_sensitivities()) return fail(why, "ask for forward sensitivities or an adjoint gradient, not both");
  (void)problem;
  return true;
}

int max_dae_index(const dk_problem_info& problem) {
  bool any_algebraic = false;
  int highest = 0;
  // With local rows, this rank's: index 1 at most everywhere (the loader's rule), so the
  // ranks may differ only between 0 and 1, which a distributed solver takes alike.
  for (std::size_t i = 0; i < dk_rows_held(&problem); ++i) {
    if (problem.differential && problem.differential[i] == 0) any_algebraic = true;
    if (problem.index) highest = std::max<int>(highest, problem.index[i]);
  }
  if (!any_algebraic && problem.mass_kind == DK_MASS_IDENTITY && problem.form == DK_FORM_MASS_MATRIX) return 0;
  return std::max(highest, 1);
}

bool index_one_dae(const dk_problem_info& problem) {
  if (!problem.differential || max_dae_index(problem) != 1) return false;
  for (std::size_t i = 0; i < dk_rows_held(&problem); ++i)
    if (problem.differential[i] == 0) return true;
  return false;
}

std::size_t constrained_components(const dk_problem_info& problem) {
  if (!DK_HAS_FIELD(&problem, dk_problem_info, constraints) || !problem.constraints) return 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < dk_rows_held(&problem); ++i) count += problem.constraints[i] != 0;
  return count;
}

bool check_capabilities(const dk_solver_info& solver, const dk_problem_info& problem, std::string* why,
                        const dk_problem_vtbl* table) {
  const std::string who = "solver '" + std::string(solver.name) + "' ";
  const std::string what = " problem '" + std::string(problem.name) + "'";
  if (problem.form == DK_FORM_RESIDUAL_ONLY && !solver.residual_form)
    return fail(why, who + "needs the mass-matrix form M y' = f, but" + what +
                         " is given only as a residual F(t, y, y') = 0; use a residual-form solver");
  if (problem.form == DK_FORM_MASS_MATRIX && problem.mass_kind > solver.max_mass_kind)
    return fail(why, who + "supports mass matrices up to '" +
                         std::string(mass_kind_name(static_cast<MassKind>(solver.max_mass_kind))) + "', but" +
                         what + " has a " +
                         std::string(mass_kind_name(static_cast<MassKind>(problem.mass_kind))) + " mass matrix");
  // A problem spread over ranks exists only in pieces here: a solver that does not take
  // the pieces would evaluate rows this rank does not own.
  if (dk_distribution_of(&problem) && problem.distribution->n_local < problem.n && !(solver.flags & DK_SOLVER_DISTRIBUTED))
    return fail(why, who + "solves problems whole in one process, but" + what + " is spread over MPI ranks (" +
                         std::to_string(problem.distribution->n_local) + " of its " + std::to_string(problem.n) +
                         " rows here); use a solver whose `daekit info` says `distributed: yes` (petsc)");
  const int index = max_dae_index(problem);
  if (index > solver.max_dae_index) {
    std::ostringstream m;
    m << who << "handles DAEs up to index " << solver.max_dae_index << " (0 = ODEs only), but" << what
      << " has components of index " << index;
    return fail(why, m.str());
  }
  // ABI 1.2 capabilities: a problem that needs them is refused, never run without them.
  if (DK_HAS_FIELD(&problem, dk_problem_info, constraints)) {
    const bool events = problem.nroots > 0 || (problem.flags & DK_PROBLEM_TIME_EVENTS);
    if (events && !(solver.flags & DK_SOLVER_EVENTS)) {
      std::ostringstream m;
      m << who << "does not handle events, but" << what << " has ";
      if (problem.nroots > 0) m << problem.nroots << " root function" << (problem.nroots == 1 ? "" : "s");
      if (problem.nroots > 0 && (problem.flags & DK_PROBLEM_TIME_EVENTS)) m << " and ";
      if (problem.flags & DK_PROBLEM_TIME_EVENTS) m << "time events";
      m << "; use a solver whose `daekit info` says `events: yes`";
      return fail(why, m.str());
    }
    // Root functions are searched on a step's dense output of y alone (numerics/step_end.hpp),
    // in every family: one that needs y' would be handed NULL.
    if (problem.nroots > 0 && (problem.flags & DK_PROBLEM_ROOTS_USE_YP))
      return fail(why, what.substr(1) + " declares root functions that read y' (DK_PROBLEM_ROOTS_USE_YP), which no "
                       "solver passes (they search roots on the dense output of y): write them in t and y");
    // A model that must hear of every step (an FMU's completedIntegratorStep) would be
    // integrated wrongly by a solver that does not tell it.
    if ((problem.flags & DK_PROBLEM_STEP_NOTIFICATION) && !(solver.flags & DK_SOLVER_STEP_NOTIFICATION)) {
      std::ostringstream m;
      m << who << "does not report its steps to the model, but" << what
        << " needs to hear of every completed step; use a solver whose `daekit info` says `step notification: yes`";
      return fail(why, m.str());
    }
    // Sign constraints are not refused: the true solution satisfies them, so a solver that
    // ignores them solves the same problem (with less protection at loose tolerances).
    const bool dense_entry = !table || table->mass;
    if (problem.mass_storage != DK_MASS_STORAGE_DENSE && !(solver.flags & DK_SOLVER_MASS_STORAGE) && !dense_entry &&
        problem.mass_kind != DK_MASS_IDENTITY)
      return fail(why, who + "takes dense mass matrices only, but" + what + " stores its mass matrix only " +
                           (problem.mass_storage == DK_MASS_STORAGE_DIAGONAL ? "as a diagonal" : "sparse"));
  }
  return true;
}

}  // namespace daekit
