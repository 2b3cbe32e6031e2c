// What a solver author writes against: a class derived from daekit::Solver.
// DAEKIT_EXPORT_SOLVER (sdk/export_solver.hpp) wraps it into the C table of
// abi.h; the wrapper has already checked the request, the capabilities and
// the plugin options before solve() is called.
#pragma once

#include <string>
#include <vector>

#include "daekit/numerics/driver.hpp"
#include "daekit/output_sink.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

struct OptionDesc {
  std::string key;
  std::string type;  // "int", "real", "bool", "choice:a|b", "string"
  std::string default_value;
  std::string help;
};

// The options every solver on the core's IterationMatrix takes (read there): which sparse
// LU, its fill-reducing ordering (numerics/sparse_lu.hpp), and coloured differences.
inline std::vector<OptionDesc> iteration_matrix_options() {
  return {{"sparse_lu", "choice:auto|supernodal|klu|umfpack", "auto",
           "sparse LU: Eigen's supernodal, KLU, or UMFPACK (auto: UMFPACK from n = 20000, else supernodal for "
           "real and KLU for stencil-like complex matrices)"},
          {"sparse_ordering", "choice:auto|colamd|metis", "auto",
           "fill-reducing ordering of the sparse LUs: the LU's own minimum degree (COLAMD/AMD) or METIS nested "
           "dissection (auto: METIS for KLU from n = 5000 and UMFPACK from n = 200000)"},
          {"fd_colouring", "bool", "true",
           "difference Jacobians in the problem's pattern take one evaluation per column colour (false: one per "
           "column)"}};
}

struct Capabilities {
  MassKind max_mass = MassKind::identity;
  bool residual_form = false;
  int max_dae_index = 0;  // 0: ODEs only
  bool dense_output = false;
  bool sparse = false;
  bool banded = false;
  int order = 0;
  // ABI 1.2
  bool events = false;       // root functions, time events and on_event
  bool constraints = false;  // sign constraints on components
  // Every accepted step's dense output kept for y(t) after the solve (keep_dense); the
  // shared driver does it for steppers with dense_degree() (numerics/dense_history.hpp).
  bool keep_dense = false;
  // Diagonal and sparse mass storage read as such (the core's MassMatrix does), never as a
  // dense n x n copy.
  bool mass_storage = false;
  // step_completed after every accepted step of a problem that asks for it (FMI's
  // completedIntegratorStep); the shared driver and SUNDIALS loop do it.
  bool step_notification = false;
  // ABI 1.3: root functions sampled inside every step and steps bounded by their time
  // scales (numerics/step_end.hpp does both for the shared driver and SUNDIALS loop).
  bool event_sampling = false;
  // ABI 1.3: forward sensitivities dy/dp and dy/dy0 (SolveRequest::sens_index), emitted
  // beside every output point through OutputSink::emit_sensitivities.
  bool sensitivities = false;
  // ABI 1.3: the gradient of a functional by adjoints (SolveRequest::adjoint), written to
  // SolveRequest::gradient (and gradient_y0, functional_value where given).
  bool adjoint = false;
  // ABI 1.3: a problem spread over MPI ranks (dk_problem_info::distribution), solved on all
  // of them at once through its local entries.
  bool distributed = false;
};

struct SolverDescription {
  Capabilities capabilities;
  std::vector<OptionDesc> options;
};

class Solver {
 public:
  virtual ~Solver() = default;
  // Statistics go into problem.stats(); the wrapper adds the wall time.
  virtual SolveOutcome solve(ProblemView& problem, const SolveRequest& request, OutputSink& sink) = 0;
};

}  // namespace daekit
