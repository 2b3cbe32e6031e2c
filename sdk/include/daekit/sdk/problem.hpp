// What a problem author writes against: a C++ class derived from daekit::Problem.
// DAEKIT_EXPORT_PROBLEM (sdk/export_problem.hpp) turns it into the C table of
// abi.h, so nothing of this class ever crosses the plugin boundary.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <utility>
#include <algorithm>
#include <string>
#include <vector>

#include "daekit/abi.h"
#include "daekit/sdk/params.hpp"
#include "daekit/status.hpp"

namespace daekit {

using Vector = Eigen::Map<Eigen::VectorXd>;
using ConstVector = Eigen::Map<const Eigen::VectorXd>;
using MatrixView = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using ConstMatrixView = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

// "y1", "lambda12": a stem and a 1-based number, for component names.
inline std::string numbered(std::string stem, std::size_t number) {
  stem += std::to_string(number);
  return stem;
}

enum class Form : std::uint32_t { mass_matrix = DK_FORM_MASS_MATRIX, residual_only = DK_FORM_RESIDUAL_ONLY };

// How M crosses the ABI (ABI 1.2). `automatic`: the diagonal form when the class keeps the
// default mass() (M = diag(differential flags)), else dense, as before 1.2. A problem with
// a non-diagonal sparse M declares `sparse`, its pattern, and overrides mass_sparse().
enum class MassStorage : std::uint32_t { automatic, dense, diagonal, sparse };

// Everything the host and the solvers may know about a problem before solving it.
struct ProblemInfo {
  std::string name;   // command-line name
  std::string title;  // one line
  std::size_t n = 0;
  double t0 = 0.0, tend = 1.0;
  Form form = Form::mass_matrix;
  MassKind mass = MassKind::identity;
  bool analytic_jacobian = false;
  bool analytic_dfdt = false;
  bool autonomous = false;
  bool consistent_y0 = false;  // initial values consistent by construction
  bool has_yp0 = false;        // initial_values() fills y'(t0)
  bool analytic_residual_jacobian = false;
  int jac_lower = -1, jac_upper = -1;

  // Per component; empty means "all 1" (index) / "derive from the mass matrix" (differential).
  std::vector<std::uint8_t> index;
  std::vector<std::uint8_t> differential;
  std::vector<std::string> component_names;
  // Instead of component_names, for large grids: the name of component i (0-based), asked
  // once per component when the problem is created. The adapter keeps the names packed in
  // one buffer: about 2 doubles per unknown at 10^6 unknowns, against 5 for n strings and
  // their pointers (docs/benchmarks/scaling.md). info().component_names stays empty.
  std::function<std::string(std::size_t)> component_name;

  double rtol_hint = 0.0;          // suggested rtol, 0 if none
  std::vector<double> atol_scale;  // suggested atol_i = atol_scale[i] * rtol; empty = 1
  std::vector<double> tstops;      // breakpoints
  // ABI 1.3: the spacing of output points when the caller chooses none (0: the end alone).
  double output_interval = 0.0;

  // Reference solution at reference_t (usually tend) and its provenance.
  std::vector<double> reference;   // empty = none
  double reference_t = 0.0;
  // Per component DK_SCORED_NO / _RELATIVE / _ABSOLUTE (abi.h); empty = all relative.
  std::vector<std::uint8_t> scored;
  std::string reference_source;
  // The problem knows its exact solution at any t (reference_at()): scores at any --tend.
  bool reference_at_any_time = false;

  // Sparse Jacobian pattern (CSC, 0-based); empty = dense.
  std::vector<std::int32_t> jac_col_ptr, jac_row_idx;
  // The pattern is all the problem knows (decided at run time, e.g. by a loaded model):
  // jacobian_sparse() is not offered and solvers difference in the pattern, as for a class
  // that does not override it.
  bool jacobian_pattern_only = false;

  // How M is stored (ABI 1.2), and its CSC pattern with MassStorage::sparse.
  MassStorage mass_storage = MassStorage::automatic;
  std::vector<std::int32_t> mass_col_ptr, mass_row_idx;

  // --- ABI 1.2 ----------------------------------------------------------------------
  // Event functions g_i(t, y) (roots()); an event is a sign change of one of them.
  struct Root {
    std::string name;
    int direction = DK_ROOT_BOTH;  // DK_ROOT_RISING: - to +, DK_ROOT_FALLING: + to -
    bool terminal = false;         // the integration ends at this event
    // ABI 1.3: the shortest time between two sign changes of g this problem can have
    // (half the period of sin(2 pi t / T)); solvers then sample g at least twice as
    // densely. 0: nothing promised (the solver's interior sampling alone, docs/events.md).
    double time_scale = 0.0;
  };
  std::vector<Root> roots;
  bool time_events = false;  // next_time_event() names times of events
  bool step_notification = false;  // step_completed() after every accepted step
  // Per component DK_CONSTRAINT_* (y >= 0 is DK_CONSTRAINT_NON_NEGATIVE); empty = none.
  std::vector<std::int8_t> constraints;
  // Variables besides y that outputs() computes at a point (`daekit run --output-vars`):
  // names distinct from each other and from component_names.
  std::vector<std::string> outputs;

  // --- ABI 1.3 --------------------------------------------------------------------------
  // Real parameters p (rate constants, physical constants): the model reads p(i); the host
  // sets them with `--param NAME=VALUE` or between solves (set_parameters), and
  // sensitivities are taken with respect to them. Names distinct, none a string
  // parameter's (parameters()); nominal finite; scale > 0, or 0 for none.
  struct Parameter {
    std::string name;
    double nominal = 0.0;
    double scale = 0.0;  // a typical magnitude, for difference increments (0: from the value)
  };
  std::vector<Parameter> parameters;
  // The n x np CSC pattern of df/dp (0-based); empty = dense.
  std::vector<std::int32_t> dfdp_col_ptr, dfdp_row_idx;

  // Rows spread over MPI ranks (ABI 1.3 part E; docs/authoring/distributed.md): with
  // `distributed`, this rank owns the global rows first_row .. first_row + n_local - 1 and
  // reads the other ranks' ghost_rows (ascending); the *_local functions below see a local
  // vector of the owned values followed by the ghosts. jac_row_ptr / jac_col_idx: df/dy's
  // owned rows in CSR over those local columns (empty: no pattern).
  // With local_rows (what a problem of 10^8 rows needs: no rank holds O(n)), the per-row
  // members above hold the owned rows alone: index, differential, atol_scale, scored and
  // reference have n_local entries, initial_values, reference_at and the reference fill
  // the owned rows, and component names, constraints, index 2-3 and the global Jacobian
  // pattern are not declared (the local pattern here serves).
  struct Distribution {
    std::size_t n_local = 0, first_row = 0;
    std::vector<std::int64_t> ghost_rows;
    std::vector<std::int32_t> jac_row_ptr, jac_col_idx;
    bool local_rows = false;
  };
  bool distributed = false;
  Distribution distribution;
};

// The share of `items` (grid lines, cells) that rank `rank` of `size` owns in an even split,
// the first `items % size` ranks one more: {first, count}.
inline std::pair<std::size_t, std::size_t> even_share(std::size_t items, int rank, int size) {
  const auto r = static_cast<std::size_t>(rank), s = static_cast<std::size_t>(size);
  const std::size_t base = items / s, extra = items % s;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

// This rank's even share of `items` whole `what` ("grid lines", "planes"), at least one
// each: more ranks than items is refused (std::invalid_argument, naming `problem`).
inline std::pair<std::size_t, std::size_t> owned_share(std::size_t items, const Params::Ranks& ranks,
                                                       const std::string& problem, const std::string& what) {
  if (static_cast<std::size_t>(ranks.size) > items)
    throw std::invalid_argument(problem + ": " + std::to_string(ranks.size) + " ranks for " + std::to_string(items) +
                                " " + what + ": each rank owns whole " + what + " (raise N)");
  return even_share(items, ranks.rank, ranks.size);
}

// What a problem's on_event sees: when, and which functions fired in which direction.
struct Event {
  double t = 0.0;
  std::uint32_t kind = DK_EVENT_ROOT;  // DK_EVENT_ROOT, DK_EVENT_TIME or DK_EVENT_STEP
  std::vector<std::int32_t> fired;     // indices into ProblemInfo::roots
  std::vector<std::int8_t> directions; // +1 rising, -1 falling, for each fired
  bool fired_root(std::int32_t i) const {
    for (auto f : fired)
      if (f == i) return true;
    return false;
  }
};

// What follows an event.
enum class EventAction : std::uint32_t {
  proceed = DK_EVENT_CONTINUE,  // go on (with y as on_event left it)
  stop = DK_EVENT_STOP,         // end the integration here
  reinit = DK_EVENT_REINIT,     // the DAE changed mode: re-solve the algebraic components
  handle = DK_EVENT_HANDLE,     // step_completed only: an event here (on_event with DK_EVENT_STEP)
};

namespace sdk {
class ProblemAdapter;
}

class Problem {
 public:
  virtual ~Problem() = default;

  const ProblemInfo& info() const { return info_; }
  const std::string& last_error() const { return error_; }

  // y0 and yp0 have n entries; yp0 only matters when info().has_yp0.
  virtual void initial_values(Vector y0, Vector yp0) = 0;

  // --- mass-matrix form:  M(t,y) y' = f(t,y) -------------------------------------------
  virtual Eval rhs(double t, ConstVector y, Vector f) = 0;
  virtual Eval jacobian(double /*t*/, ConstVector /*y*/, MatrixView /*dfdy*/) {
    return Eval::not_provided;
  }
  // Values of df/dy in the order of info().jac_row_idx.
  virtual Eval jacobian_sparse(double /*t*/, ConstVector /*y*/, Vector /*values*/) {
    return Eval::not_provided;
  }
  virtual Eval dfdt(double /*t*/, ConstVector /*y*/, Vector /*df*/) { return Eval::not_provided; }
  // Called with m zeroed. The default is diag(differential flags): the identity for an
  // ODE, the unit block over the differential components of a semi-explicit DAE.
  virtual Eval mass(double /*t*/, ConstVector /*y*/, MatrixView m) {
    if (info_.differential.empty()) {
      m.setIdentity();
    } else {
      for (std::size_t i = 0; i < info_.differential.size(); ++i)
        m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) = info_.differential[i] ? 1.0 : 0.0;
    }
    return Eval::ok;
  }

  // M's diagonal (n values, with MassStorage::diagonal): the default is the differential
  // flags, as the default mass().
  virtual Eval mass_diagonal(double /*t*/, ConstVector /*y*/, Vector d) {
    if (info_.differential.empty()) {
      d.setOnes();
    } else {
      for (std::size_t i = 0; i < info_.differential.size(); ++i)
        d[static_cast<Eigen::Index>(i)] = info_.differential[i] ? 1.0 : 0.0;
    }
    return Eval::ok;
  }
  // M's values in the order of info().mass_row_idx (with MassStorage::sparse).
  virtual Eval mass_sparse(double /*t*/, ConstVector /*y*/, Vector /*values*/) { return Eval::not_provided; }

  // --- residual form:  F(t,y,y') = 0. Defaults to M y' - f. ------------------------------
  virtual Eval residual(double t, ConstVector y, ConstVector yp, Vector r) {
    const auto n = static_cast<Eigen::Index>(info_.n);
    Eval e = rhs(t, y, r);
    if (e != Eval::ok) return e;
    if (info_.mass == MassKind::identity) {
      r = yp - r;
      return Eval::ok;
    }
    switch (stored_as_) {
      case MassStorage::diagonal:
        mass_scratch_.setZero(n, 1);  // as the ABI entry hands it: zeroed
        e = mass_diagonal(t, y, Vector(mass_scratch_.data(), n));
        if (e == Eval::ok) r = mass_scratch_.col(0).cwiseProduct(yp) - r;
        return e;
      case MassStorage::sparse: {
        // M y' from the pattern: no n x n array for a sparse M.
        const auto nnz = static_cast<Eigen::Index>(info_.mass_row_idx.size());
        mass_scratch_.setZero(nnz, 1);
        e = mass_sparse(t, y, Vector(mass_scratch_.data(), nnz));
        if (e != Eval::ok) return e;
        r = -r;
        for (Eigen::Index j = 0; j < n; ++j)
          for (std::int32_t k = info_.mass_col_ptr[static_cast<std::size_t>(j)];
               k < info_.mass_col_ptr[static_cast<std::size_t>(j) + 1]; ++k)
            r[info_.mass_row_idx[static_cast<std::size_t>(k)]] += mass_scratch_(k, 0) * yp[j];
        return Eval::ok;
      }
      default: break;
    }
    mass_scratch_.setZero(n, n);
    MatrixView m(mass_scratch_.data(), n, n, Eigen::OuterStride<>(n));
    e = mass(t, y, m);
    if (e != Eval::ok) return e;
    r = mass_scratch_ * yp - r;
    return Eval::ok;
  }
  // The storage the export chose (never `automatic` once exported).
  MassStorage mass_stored_as() const { return stored_as_; }
  // dF/dy + cj dF/dy'
  virtual Eval residual_jacobian(double, ConstVector, ConstVector, double, MatrixView) {
    return Eval::not_provided;
  }

  // --- real parameters (ABI 1.3) ---------------------------------------------------------
  // The value of parameter i (info().parameters[i]); the nominal one until set.
  double p(std::size_t i) const { return p_[i]; }
  const std::vector<double>& p() const { return p_; }
  // New values for every parameter, used by the evaluations that follow. A problem that
  // derives quantities from p overrides this, calls the base, and derives them again;
  // Eval::fatal (with fail()) refuses values it cannot take.
  virtual Eval set_parameters(std::span<const double> p) {
    p_.assign(p.begin(), p.end());
    return Eval::ok;
  }
  // df/dp at (t, y): n x np, column j the derivative with respect to parameter j; called
  // with dfdp zeroed. Without it the SDK takes central differences in p (sdk/parameter_differences.hpp).
  virtual Eval dfdp(double /*t*/, ConstVector /*y*/, MatrixView /*dfdp*/) { return Eval::not_provided; }
  // With a declared df/dp pattern (ProblemInfo::dfdp_col_ptr): its values in the pattern's
  // order, with no n x np array in between (for many parameters); not provided: dfdp().
  virtual Eval dfdp_sparse(double /*t*/, ConstVector /*y*/, Vector /*values*/) { return Eval::not_provided; }
  // dF/dp at (t, y, y') of a residual-form problem, likewise.
  virtual Eval residual_dfdp(double /*t*/, ConstVector /*y*/, ConstVector /*yp*/, MatrixView /*dfdp*/) {
    return Eval::not_provided;
  }

  // --- events (ABI 1.2) ------------------------------------------------------------------
  // g has info().roots.size() entries.
  virtual Eval roots(double /*t*/, ConstVector /*y*/, Vector /*g*/) { return Eval::not_provided; }
  // May change y (a bounce reverses a velocity); says what follows.
  virtual EventAction on_event(const Event& /*event*/, Vector /*y*/) { return EventAction::proceed; }
  // For sensitivities through events (ABI 1.3). dg/dy (nroots x n) and dg/dp (nroots x
  // np) at (t, y), called zeroed; without it the SDK takes central differences in y and p.
  // (df/dy) S for the ns columns of S (n x ns) into js, in one pass (ABI 1.3
  // jacobian_sens): for a model that differentiates along directions more cheaply than it
  // forms df/dy (a large n, a matrix-free operator). Solvers use it where the problem has
  // no Jacobian of its own, in place of differences of f; exported only from a class that
  // overrides it.
  virtual Eval jacobian_sens(double /*t*/, ConstVector /*y*/, ConstMatrixView /*s*/, MatrixView /*js*/) {
    return Eval::not_provided;
  }
  // --- Krylov linear solvers (ABI 1.3; docs/krylov.md) -------------------------------------
  // Each is exported only from a class that overrides it. (df/dy) v without forming df/dy
  // (matrix-free Newton-Krylov); without it solvers difference f along v, or an
  // AutoDiffProblem runs one pass on duals.
  virtual Eval jacobian_vector(double /*t*/, ConstVector /*y*/, ConstVector /*v*/, Vector /*jv*/) {
    return Eval::not_provided;
  }
  // (dF/dy + cj dF/dy') v, the same for residual-form problems.
  virtual Eval residual_jacobian_vector(double /*t*/, ConstVector /*y*/, ConstVector /*yp*/, double /*cj*/,
                                        ConstVector /*v*/, Vector /*out*/) {
    return Eval::not_provided;
  }
  // A preconditioner for M - gamma J (every family's Newton matrix in that form): setup
  // near (t, y), re-evaluating what it keeps of the Jacobian when `jacobian_current` comes
  // in true (else it may reuse it with the new gamma), and setting it true when it did;
  // solve z ~ (M - gamma J)^-1 r (delta: the accuracy the Krylov method needs, may be
  // ignored). Override both or neither.
  virtual Eval preconditioner_setup(double /*t*/, ConstVector /*y*/, double /*gamma*/, bool& /*jacobian_current*/) {
    return Eval::not_provided;
  }
  virtual Eval preconditioner_solve(double /*t*/, ConstVector /*y*/, ConstVector /*r*/, Vector /*z*/,
                                    double /*gamma*/, double /*delta*/) {
    return Eval::not_provided;
  }
  virtual Eval roots_dgdp(double /*t*/, ConstVector /*y*/, MatrixView /*dgdy*/, MatrixView /*dgdp*/) {
    return Eval::not_provided;
  }
  // The derivatives of the reset on_event has just applied at `event`, y+ = R(y-, p):
  // dR/dy (n x n) and dR/dp (n x np) at the left limit y_minus, called zeroed. A problem
  // whose on_event changes y gives it, or its sensitivities end with an error at the
  // first such event (on_event mutates the problem's mode, so it cannot be differenced).
  virtual Eval event_derivatives(const Event& /*event*/, ConstVector /*y_minus*/, MatrixView /*dRdy*/,
                                 MatrixView /*dRdp*/) {
    return Eval::not_provided;
  }
  // --- distributed problems (ABI 1.3 part E), with info().distributed ----------------------
  // f's owned rows from the local vector (owned values, then ghosts). Required of a
  // distributed problem.
  virtual Eval rhs_local(double /*t*/, ConstVector /*y_local*/, Vector /*f_owned*/) { return Eval::not_provided; }
  // df/dy's owned rows in the order of info().distribution.jac_col_idx; without it solvers
  // difference rhs_local in that pattern.
  virtual Eval jacobian_local(double /*t*/, ConstVector /*y_local*/, Vector /*values*/) { return Eval::not_provided; }
  // The owned rows' diagonal of a constant diagonal M: by default the differential flags.
  virtual Eval mass_diagonal_local(Vector d) {
    // differential holds the owned rows alone with local rows, all n otherwise.
    const std::size_t first = info_.distribution.local_rows ? 0 : info_.distribution.first_row;
    for (Eigen::Index i = 0; i < d.size(); ++i)
      d[i] = info_.differential.empty() || info_.differential[first + static_cast<std::size_t>(i)] ? 1.0 : 0.0;
    return Eval::ok;
  }
  // The exact solution at t (with info().reference_at_any_time).
  virtual Eval reference_at(double /*t*/, Vector /*yref*/) { return Eval::not_provided; }
  // The first time event after t; +infinity when none (with info().time_events).
  virtual double next_time_event(double /*t*/) { return std::numeric_limits<double>::infinity(); }
  // After every accepted step no event cut short (with info().step_notification): proceed,
  // stop, or handle (an event at t: on_event follows with kind DK_EVENT_STEP).
  virtual EventAction step_completed(double /*t*/, ConstVector /*y*/) { return EventAction::proceed; }
  // The outputs `which` (indices into info().outputs) at (t, y) into values[k], a point
  // the solver reports, called as it reports it (so the problem's mode is the point's).
  virtual Eval outputs(double /*t*/, ConstVector /*y*/, std::span<const std::uint32_t> /*which*/, Vector /*values*/) {
    return Eval::not_provided;
  }

 protected:
  // For messages that callbacks return with Eval::fatal.
  Eval fail(std::string message) {
    error_ = std::move(message);
    return Eval::fatal;
  }

  ProblemInfo info_;
  std::string error_;

 private:
  friend class sdk::ProblemAdapter;  // sets stored_as_ when it resolves `automatic`, and p_
  MassStorage stored_as_ = MassStorage::dense;
  std::vector<double> p_;
  Eigen::MatrixXd mass_scratch_;
};

}  // namespace daekit
