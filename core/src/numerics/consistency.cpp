#include "daekit/numerics/consistency.hpp"

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseQR>
#include <algorithm>
#include <limits>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string_view>
#include <vector>

#include "algebraic_part.hpp"
#include "daekit/numerics/finite_difference.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {
namespace {

std::string equation_name(const ProblemView& problem, const AlgebraicPart& part, Eigen::Index k) {
  const Eigen::Index row = part.equation_row(k);
  std::ostringstream m;
  m << "equation " << row + 1;
  if (problem.info().component_names) m << " (row of " << problem.info().component_names[row] << ")";
  return m.str();
}

// Tolerance on the algebraic residuals: the smallest absolute scale among the components
// the algebraic equations determine (every component's when none is).
double algebraic_tolerance(const SolveRequest& request, const std::vector<char>& determined, const Eigen::VectorXd& y) {
  double tol = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < y.size(); ++i)
    if (determined[static_cast<std::size_t>(i)]) tol = std::min(tol, request.atol[i] + request.rtol[i] * std::abs(y[i]));
  return std::isfinite(tol) ? tol : request.atol.minCoeff();
}

}  // namespace

void derivative_from_mass(const MassMatrix& mass, const ProblemView& problem, const Eigen::VectorXd& f,
                          Eigen::VectorXd& yp) {
  if (mass.solve_split(f, yp)) return;
  // M does not split: least squares with dense algebra (only a dense M, or a sparse M
  // whose non-zero part is itself singular, comes here).
  const Eigen::MatrixXd m = mass.shape() == MassMatrix::Shape::sparse ? Eigen::MatrixXd(mass.sparse()) : mass.dense();
  yp = m.completeOrthogonalDecomposition().solve(f);
  for (Eigen::Index i = 0; i < f.size(); ++i)
    if (problem.is_algebraic(i)) yp[i] = 0.0;
}

namespace {

// "" when every component's flag agrees with its column of M, else what contradicts it.
std::string flags_contradicting_mass(const ProblemView& problem, const MassMatrix& mass) {
  for (Eigen::Index j = 0; j < problem.size(); ++j) {
    const bool zero_column = mass.zero_column(j);
    if (zero_column != problem.is_algebraic(j))
      return "the model contradicts itself: component " + std::to_string(j + 1) + " is flagged " +
             (problem.is_algebraic(j) ? "algebraic" : "differential") + " but its column of M is " +
             (zero_column ? "zero" : "not zero") + " (daekit check shows it)";
  }
  return "";
}

// --init check found the algebraic equations violated: by how much, and the worst three.
std::string inconsistency(const ProblemView& problem, const AlgebraicPart& part, const Eigen::VectorXd& g,
                          double residual, double tol) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(g.size()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return std::abs(g[a]) > std::abs(g[b]); });
  std::ostringstream m;
  m.precision(3);
  m << "the initial values are inconsistent: the algebraic equations are violated by up to " << residual
    << " (tolerance " << tol << "; worst: ";
  for (std::size_t k = 0; k < std::min<std::size_t>(3, order.size()); ++k) {
    if (std::abs(g[order[k]]) <= tol) break;
    m << (k ? ", " : "") << equation_name(problem, part, order[k]) << " by " << std::abs(g[order[k]]);
  }
  m << "); pass --init fix to compute consistent values";
  return m.str();
}

// --init fix: least-squares Newton on the algebraic components first. Equations that do
// not depend on them (the constraints of index 2 and higher, e.g. a velocity constraint)
// are then satisfied by the smallest change of all components in the tolerance-weighted
// norm, so the differential components move only as far as the constraints demand.
void fix_algebraic(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                   const AlgebraicPart& part, const std::vector<char>& determined, double tol, Eigen::VectorXd& y0,
                   Eigen::VectorXd& f, Eigen::VectorXd& g, InitialisationOutcome& out) {
  const Eigen::Index n = problem.size();
  // f and g hold f(t0, y0) and the algebraic equations' residuals there; kept up to date.
  auto residual = [&]() -> Eval {
    Eval e = problem.rhs(request.t0, y0, f);
    if (e == Eval::ok) part.equations(f, g);
    return e;
  };
  const Eigen::VectorXd y_start = y0;
  // The solvers' own Jacobian (analytic or differences), sparse when M splits and the
  // problem has a pattern: then nothing below is n x n.
  IterationMatrix matrix;
  matrix.setup(problem, request, mass, /*allow_sparse=*/part.selection);
  Eigen::VectorXd weight(n);
  for (Eigen::Index i = 0; i < n; ++i) weight[i] = request.atol[i] + request.rtol[i] * std::abs(y_start[i]);
  Eigen::MatrixXd left, right;
  if (!matrix.sparse()) part.as_bases(n, left, right);
  // One Newton step's change of y: on the algebraic components only (the least-squares
  // solution of (N^T J Z) d = -g), or on all (the smallest weighted change).
  auto dense_step = [&](bool all_components, Eigen::VectorXd& dy) {
    const Eigen::MatrixXd rows = left.transpose() * matrix.dense_jacobian();
    if (all_components) {
      const Eigen::MatrixXd scaled = rows * weight.asDiagonal();
      dy = weight.asDiagonal() * scaled.completeOrthogonalDecomposition().solve(-g);
    } else {
      const Eigen::MatrixXd reduced = rows * right;
      dy = right * reduced.completeOrthogonalDecomposition().solve(-g);
    }
    return true;
  };
  auto sparse_step = [&](bool all_components, Eigen::VectorXd& dy) {
    const auto& jac = matrix.sparse_jacobian();
    dy.setZero(n);
    if (!all_components) {
      Eigen::SparseMatrix<double> reduced = sparse_block(jac, part.rows, &part.columns, nullptr);
      Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr(reduced);
      if (qr.info() != Eigen::Success) return false;
      const Eigen::VectorXd d = qr.solve(-g);
      for (std::size_t k = 0; k < part.columns.size(); ++k) dy[part.columns[k]] = d[static_cast<Eigen::Index>(k)];
      return true;
    }
    // Minimum weighted norm: d = W B^T z with (B B^T) z = -g, B = (N^T J) W.
    const Eigen::SparseMatrix<double> b = sparse_block(jac, part.rows, nullptr, &weight);
    const Eigen::SparseMatrix<double> normal = b * b.transpose();
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(normal);
    if (ldlt.info() != Eigen::Success) return false;
    const Eigen::VectorXd z = ldlt.solve(-g);
    dy = weight.cwiseProduct(b.transpose() * z);
    return true;
  };
  auto newton = [&](bool all_components) {
    Eigen::VectorXd dy;
    for (int iter = 0; iter < 20 && out.residual > 0.01 * tol; ++iter) {
      if (matrix.evaluate_jacobian(request.t0, y0, f) != Eval::ok) return;
      if (!(matrix.sparse() ? sparse_step(all_components, dy) : dense_step(all_components, dy))) return;
      y0 += dy;
      if (residual() != Eval::ok) return;
      out.residual = g.cwiseAbs().maxCoeff();
    }
  };
  newton(false);
  const Eigen::VectorXd y_algebraic = y0;
  if (out.residual > tol) newton(true);

  std::ostringstream m;
  m.precision(3);
  auto largest_change = [&](const Eigen::VectorXd& from, const Eigen::VectorXd& to, const char* what) {
    Eigen::Index worst = 0;
    double change = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const bool algebraic = determined[static_cast<std::size_t>(i)] != 0;
      if (algebraic == (std::string_view(what) == "algebraic") && std::abs(to[i] - from[i]) > change)
        change = std::abs(to[i] - from[i]), worst = i;
    }
    m << "changed " << what << " components by up to " << change << " (component " << worst + 1;
    if (problem.info().component_names) m << ", " << problem.info().component_names[worst];
    m << ")";
  };
  if (out.residual > tol) {
    out.status = Status::inconsistent_initial_values;
    m << "could not make the initial values consistent: the residual of the algebraic equations is still "
      << out.residual << " (tolerance " << tol << ")";
  } else {
    m << "made the initial values consistent: ";
    largest_change(y_start, y0, "algebraic");
    if (y_algebraic != y0) {
      m << "; the constraints also needed the differential components: ";
      largest_change(y_start, y0, "differential");
    }
    m << "; residual now " << out.residual;
  }
  out.message = m.str();
}

}  // namespace

InitialisationOutcome initialise(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                                 Eigen::VectorXd& y0) {
  InitialisationOutcome out;
  if (request.init == InitPolicy::trust || problem.residual_only()) return out;
  const Eigen::Index n = problem.size();
  // The flags say which components the algebraic equations determine; a model whose M
  // says otherwise would have --init fix move a differential component. Refused.
  if (std::string why = flags_contradicting_mass(problem, mass); !why.empty()) {
    out.status = Status::invalid_input;
    out.message = why;
    return out;
  }
  if (mass.is_identity()) return out;
  const AlgebraicPart part(mass, n);
  if (part.count() == 0) return out;
  const std::vector<char> determined = part.determined(n);

  const double tol = algebraic_tolerance(request, determined, y0);

  Eigen::VectorXd f(n), g;
  auto residual = [&]() -> Eval {
    Eval e = problem.rhs(request.t0, y0, f);
    if (e == Eval::ok) part.equations(f, g);
    return e;
  };
  Eval e = residual();
  if (e != Eval::ok) {
    out.status = Status::evaluation_failure;
    out.message = "cannot evaluate the model at the initial values: " + problem.last_message();
    return out;
  }
  out.residual = g.cwiseAbs().maxCoeff();
  if (out.residual <= tol) return out;

  if (request.init == InitPolicy::check) {
    out.status = Status::inconsistent_initial_values;
    out.message = inconsistency(problem, part, g, out.residual, tol);
    return out;
  }
  fix_algebraic(problem, request, mass, part, determined, tol, y0, f, g, out);
  return out;
}

InitialisationOutcome initialise_residual(ProblemView& problem, const SolveRequest& request, Eigen::VectorXd& y0,
                                          Eigen::VectorXd& yp0) {
  InitialisationOutcome out;
  const Eigen::Index n = problem.size();
  const bool given = yp0.size() == n;
  if (!given) {
    if (request.init == InitPolicy::check || request.init == InitPolicy::trust) {
      out.status = Status::inconsistent_initial_values;
      out.message = "the problem gives no y'(t0); pass --init fix to compute consistent values";
      return out;
    }
    yp0.setZero(n);
  }
  if (request.init == InitPolicy::trust) return out;

  // Tolerance on the residuals: as for the mass-matrix form, the smallest absolute
  // scale among the algebraic components (all components if there are none).
  double tol = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < n; ++i)
    if (problem.is_algebraic(i)) tol = std::min(tol, request.atol[i] + request.rtol[i] * std::abs(y0[i]));
  if (!std::isfinite(tol)) {
    for (Eigen::Index i = 0; i < y0.size(); ++i) tol = std::min(tol, request.atol[i] + request.rtol[i] * std::abs(y0[i]));
  }

  Eigen::VectorXd r(n), r_work(n);
  auto residual = [&]() { return problem.residual(request.t0, y0, yp0, r); };
  if (residual() != Eval::ok) {
    out.status = Status::evaluation_failure;
    out.message = "cannot evaluate the residual at the initial values: " + problem.last_message();
    return out;
  }
  out.residual = r.cwiseAbs().maxCoeff();
  if (out.residual <= tol && given) return out;
  if (request.init == InitPolicy::check) {
    Eigen::Index worst;
    r.cwiseAbs().maxCoeff(&worst);
    std::ostringstream m;
    m.precision(3);
    m << "the initial values are inconsistent: |F(t0, y0, y'0)| is " << out.residual << " (tolerance " << tol
      << "; worst: equation " << worst + 1 << "); pass --init fix to compute consistent values";
    out.status = Status::inconsistent_initial_values;
    out.message = m.str();
    return out;
  }

  // Newton with difference columns on a list of unknowns, each a component of y or
  // of y' with a scale: phase 1 takes y'_j of the differential and y_j of the
  // algebraic components; phase 2 adds y_j of the differential ones, scaled by their
  // tolerance so that the least-squares step moves them as little as the constraints
  // allow, while y' may change freely.
  struct Unknown {
    double* value;
    double scale;
  };
  const Eigen::VectorXd y_start = y0, yp_start = yp0;
  auto unknowns_for = [&](bool move_differential_y) {
    std::vector<Unknown> u;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double tol_scale = request.atol[j] + request.rtol[j] * std::abs(y_start[j]);
      if (problem.is_algebraic(j)) {
        u.push_back({&y0[j], 1.0});
      } else {
        u.push_back({&yp0[j], 1.0 + std::abs(yp_start[j])});
        if (move_differential_y) u.push_back({&y0[j], tol_scale});
      }
    }
    return u;
  };
  auto newton = [&](bool move_differential_y) {
    const std::vector<Unknown> unknowns = unknowns_for(move_differential_y);
    Eigen::MatrixXd jac(n, static_cast<Eigen::Index>(unknowns.size()));
    for (int iter = 0; iter < 20 && out.residual > 0.01 * tol; ++iter) {
      for (std::size_t c = 0; c < unknowns.size(); ++c) {
        double& v = *unknowns[c].value;
        const double saved = v;
        const double delta = fd_increment(saved, unknowns[c].scale);
        v = saved + delta;
        const Eval e = problem.residual(request.t0, y0, yp0, r_work, true);
        v = saved;
        if (e != Eval::ok) return;
        jac.col(static_cast<Eigen::Index>(c)) = (r_work - r) * (unknowns[c].scale / delta);
      }
      const Eigen::VectorXd step = jac.completeOrthogonalDecomposition().solve(-r);
      for (std::size_t c = 0; c < unknowns.size(); ++c)
        *unknowns[c].value += unknowns[c].scale * step[static_cast<Eigen::Index>(c)];
      if (residual() != Eval::ok) return;
      out.residual = r.cwiseAbs().maxCoeff();
    }
  };
  newton(false);
  if (out.residual > tol) newton(true);
  std::ostringstream m;
  m.precision(3);
  if (out.residual > tol) {
    out.status = Status::inconsistent_initial_values;
    m << "could not make the initial values consistent: |F(t0, y0, y'0)| is still " << out.residual
      << " (tolerance " << tol << ")";
  } else {
    Eigen::Index worst = 0;
    double change = 0.0, algebraic_change = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double d = std::abs(y0[i] - y_start[i]);
      if (problem.is_algebraic(i))
        algebraic_change = std::max(algebraic_change, d);
      else if (d > change)
        change = d, worst = i;
    }
    m << "made the initial values consistent: changed y' by up to " << (yp0 - yp_start).cwiseAbs().maxCoeff()
      << " and the algebraic components by up to " << algebraic_change;
    if (change > 0.0) {
      m << "; the constraints also needed the differential components: changed by up to " << change
        << " (component " << worst + 1;
      if (problem.info().component_names) m << ", " << problem.info().component_names[worst];
      m << ")";
    }
    m << "; residual now " << out.residual;
  }
  out.message = m.str();
  return out;
}

namespace {
// Whether a reaction left the algebraic equations' residuals at (t, y) within their
// tolerance of what they were at the state it started from (f there: rhs_before).
Eval algebraic_residuals_kept(ProblemView& problem, const MassMatrix& mass, const SolveRequest& request, double t,
                              const Eigen::VectorXd& y, const Eigen::VectorXd& rhs_before, bool* kept) {
  const Eigen::Index n = problem.size();
  const AlgebraicPart part(mass, n);
  *kept = part.count() == 0;
  if (*kept) return Eval::ok;
  Eigen::VectorXd f(n), g_before, g_after;
  if (const Eval e = problem.rhs(t, y, f); e != Eval::ok) return e;
  part.equations(rhs_before, g_before);
  part.equations(f, g_after);
  *kept = (g_after - g_before).cwiseAbs().maxCoeff() <= algebraic_tolerance(request, part.determined(n), y);
  return Eval::ok;
}

RestartOutcome failed_restart(const InitialisationOutcome& init, bool reinit) {
  if (reinit) return {init.status, "re-initialising the algebraic components failed: " + init.message, 0.0};
  std::ostringstream m;
  m << "the state on_event left violates the algebraic equations";
  if (init.residual > 0.0) m << " by up to " << init.residual;
  m << "; an on_event that changes a DAE's mode must return DK_EVENT_REINIT (EventAction::reinit in the SDK)";
  return {init.status, m.str(), 0.0};
}
}  // namespace

RestartOutcome reinitialise_after_event(ProblemView& problem, const SolveRequest& request, const MassMatrix* mass,
                                        double t, const EventRestart& cause, Eigen::VectorXd& y, Eigen::VectorXd* yp) {
  bool reinit = cause.reinit;
  SolveRequest at_event = request;
  at_event.t0 = t;
  at_event.init = reinit ? InitPolicy::fix_algebraic : InitPolicy::check;
  InitialisationOutcome again;
  if (mass) {
    if (!reinit && cause.rhs_before) {
      bool unchanged = false;
      if (const Eval e = algebraic_residuals_kept(problem, *mass, request, t, y, *cause.rhs_before, &unchanged);
          e != Eval::ok)
        return {Status::evaluation_failure, "evaluating the model after the event: " + problem.last_message(), 0.0};
      // The method's own defect: removed as at a re-initialisation (and a failure said as
      // one's), so the restart (BDF at order 1 from here) does not begin by correcting more
      // than its tolerance.
      if (unchanged) {
        reinit = true;
        at_event.init = InitPolicy::fix_algebraic;
      }
    }
    again = initialise(problem, at_event, *mass, y);
    if (again.status == Status::success && yp) {
      Eigen::VectorXd f(y.size());
      if (problem.rhs(t, y, f) != Eval::ok) return {Status::evaluation_failure, problem.last_message(), 0.0};
      derivative_from_mass(*mass, problem, f, *yp);
    }
  } else {
    // y' is not known after a reset: solved for, whatever the event asked.
    at_event.init = InitPolicy::fix_algebraic;
    Eigen::VectorXd slope;
    again = initialise_residual(problem, at_event, y, yp ? *yp : slope);
  }
  if (again.status != Status::success) return failed_restart(again, reinit);
  return {};
}

}  // namespace daekit
