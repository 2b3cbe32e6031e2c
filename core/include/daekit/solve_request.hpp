// The solver options of abi.h, checked and expanded for use in C++ (tolerances
// per component, plugin options as a map). Both the host (to fail early with a
// clear message) and every solver plugin (never to trust its caller) build it.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daekit/abi.h"
#include "daekit/eigen_abi.hpp"
#include "daekit/per_component.hpp"

namespace daekit {

enum class OutputMode : std::uint32_t { end = DK_OUTPUT_END, every_step = DK_OUTPUT_EVERY_STEP, saveat = DK_OUTPUT_SAVEAT };
enum class JacobianSource : std::uint32_t { automatic = DK_JACOBIAN_AUTO, analytic = DK_JACOBIAN_ANALYTIC, finite_difference = DK_JACOBIAN_FINITE_DIFFERENCE };
enum class InitPolicy : std::uint32_t { check = DK_INIT_CHECK, fix_algebraic = DK_INIT_FIX_ALGEBRAIC, trust = DK_INIT_TRUST };

// More interior samples than this per step are a mistake, not a guarantee.
constexpr int max_event_samples = 100000;

struct SolveRequest {
  double t0 = 0.0, tend = 1.0;
  Eigen::VectorXd y0, yp0;  // yp0 empty when not given
  PerComponent rtol, atol;  // n entries each (one when all are equal)
  double h0 = 0.0, hmin = 0.0, hmax = 0.0;
  std::int64_t max_steps = 100000;
  OutputMode output = OutputMode::end;
  std::vector<double> saveat;  // sorted, inside [t0, tend]
  JacobianSource jacobian = JacobianSource::automatic;
  InitPolicy init = InitPolicy::check;
  bool index_scaling = true;
  bool suppress_algebraic = false;
  std::vector<double> tstops;  // sorted, strictly inside (t0, tend)
  std::map<std::string, std::string> extra;
  // ABI 1.2
  std::int64_t max_events = 1000;  // too_many_events beyond this
  bool keep_dense = false;
  // ABI 1.3
  int event_samples = DK_DEFAULT_EVENT_SAMPLES;  // interior samples of g per accepted step (0: ends only)
  bool check_derivatives = true;  // supplied derivatives compared with differences at run time
  // Forward sensitivities: column k of s = dy/dq_k, q_k = p_i (i >= 0) or y0_(-1-i) (i < 0).
  std::vector<std::int32_t> sens_index;
  bool sens_error_control = false;  // s joins the local error test (off: CVODES' errconS default)
  // s(t0), n x columns column-major, where y0 depends on p; empty: e_i for y0_i, 0 for p.
  std::vector<double> sens_initial;

  // Adjoint (ABI 1.3 part C): G's description, and where its gradient and value go (owned
  // by the caller of the solve). data_order: the data terms in the order of integration.
  const dk_functional* adjoint = nullptr;
  double* gradient = nullptr;
  double* gradient_y0 = nullptr;
  double* functional_value = nullptr;

  bool wants_sensitivities() const { return !sens_index.empty(); }
  bool wants_adjoint() const { return adjoint != nullptr; }

  double direction() const { return tend >= t0 ? 1.0 : -1.0; }
  // A change of y in units of the tolerances there: the largest |change_i| / (atol_i +
  // rtol_i |y_i|).
  double in_tolerances(const Eigen::VectorXd& change, const Eigen::VectorXd& y) const;

  // Typed access to plugin options; the keys were checked against the plugin's list.
  double extra_real(const std::string& key, double fallback) const;
  long extra_int(const std::string& key, long fallback) const;
  bool extra_bool(const std::string& key, bool fallback) const;
  std::string extra_text(const std::string& key, const std::string& fallback) const;
};

// Fills `out` from the C options; on bad input returns false and says why.
bool parse_request(const dk_solve_options& in, const dk_problem_info& problem, SolveRequest* out,
                   std::string* why);
// false (with why) when rtol and atol of a component both lie below 10 unit roundoff:
// the solve ends with tolerances_too_small before it starts.
bool tolerances_attainable(const SolveRequest& request, std::string* why);

// Plugin options: unknown keys and values of the wrong type are refused, naming the valid keys.
bool check_extra_options(const dk_solver_info& solver, const std::map<std::string, std::string>& extra,
                         std::string* why);

// The name of sensitivity column q (sens_index): the parameter's, or "y0:COMPONENT" for
// -1 - i, COMPONENT the component's name or y1, y2, ... where it has none.
std::string sensitivity_name(const dk_problem_info& problem, std::int32_t q);

// A request for sensitivities the solver cannot meet (no DK_SOLVER_SENSITIVITIES, or a
// problem whose events would need the jump of s): refused before the run.
bool check_sensitivity_request(const dk_solver_info& solver, const dk_problem_info& problem,
                               const SolveRequest& request, std::string* why);

// Can this solver take this problem at all? (mass kind, residual form, DAE index, events).
// With the problem's table: a problem that stores M only as a diagonal or sparse (no dense
// `mass` entry) is refused by a solver without DK_SOLVER_MASS_STORAGE; the SDK's problems
// always keep the dense entry, which such a solver reads instead.
bool check_capabilities(const dk_solver_info& solver, const dk_problem_info& problem, std::string* why,
                        const dk_problem_vtbl* table = nullptr);

// `--jacobian analytic` against what the problem gives this solver: the whole matrix
// (dense or in its pattern), or for a distributed problem and a solver with
// DK_SOLVER_DISTRIBUTED the owned rows (the table's jacobian_local), which such a solver
// reads instead. parse_request leaves distributed problems to this check.
bool check_jacobian_request(const dk_solver_info& solver, const dk_problem_info& problem,
                            const dk_problem_vtbl* table, const SolveRequest& request, std::string* why);

// A request for an adjoint gradient the solver cannot meet (no DK_SOLVER_ADJOINT, forward
// sensitivities asked beside it, a problem without real parameters): false with why.
bool check_adjoint_request(const dk_solver_info& solver, const dk_problem_info& problem, const SolveRequest& request,
                           std::string* why);

// The highest DAE index among the components (0 for an ODE with identity mass).
int max_dae_index(const dk_problem_info& problem);
// A DAE of index 1: algebraic components, none of index 2 or 3.
bool index_one_dae(const dk_problem_info& problem);

// How many components carry a sign constraint (0 for a problem from before ABI 1.2).
std::size_t constrained_components(const dk_problem_info& problem);

}  // namespace daekit
