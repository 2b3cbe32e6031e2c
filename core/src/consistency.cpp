#include "daekit/numerics/consistency.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <limits>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string_view>
#include <vector>

#include "daekit/numerics/finite_difference.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {
namespace {

// Bases of the left (N^T M = 0) and right (M Z = 0) null spaces of M.
void null_spaces(const MassMatrix& mass, Eigen::Index n, Eigen::MatrixXd& left, Eigen::MatrixXd& right) {
  if (mass.shape() != MassMatrix::Shape::dense) {
    std::vector<Eigen::Index> zero;
    for (Eigen::Index i = 0; i < n; ++i)
      if (mass.entry(i, i) == 0.0) zero.push_back(i);
    left.setZero(n, static_cast<Eigen::Index>(zero.size()));
    for (std::size_t k = 0; k < zero.size(); ++k) left(zero[k], static_cast<Eigen::Index>(k)) = 1.0;
    right = left;
    return;
  }
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(mass.dense(), Eigen::ComputeFullU | Eigen::ComputeFullV);
  const double tol = svd.singularValues().maxCoeff() * static_cast<double>(n) * 1e-14;
  Eigen::Index rank = (svd.singularValues().array() > tol).count();
  left = svd.matrixU().rightCols(n - rank);
  right = svd.matrixV().rightCols(n - rank);
}

std::string equation_name(const ProblemView& problem, const Eigen::MatrixXd& left, Eigen::Index k) {
  Eigen::Index row;
  left.col(k).cwiseAbs().maxCoeff(&row);
  std::ostringstream m;
  m << "equation " << row + 1;
  if (problem.info().component_names) m << " (row of " << problem.info().component_names[row] << ")";
  return m.str();
}

}  // namespace

void derivative_from_mass(const MassMatrix& mass, const ProblemView& problem, const Eigen::VectorXd& f,
                          Eigen::VectorXd& yp) {
  const Eigen::Index n = f.size();
  switch (mass.shape()) {
    case MassMatrix::Shape::identity: yp = f; return;
    case MassMatrix::Shape::diagonal:
      yp.resize(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        const double m = mass.entry(i, i);
        yp[i] = m != 0.0 ? f[i] / m : 0.0;
      }
      return;
    case MassMatrix::Shape::dense:
      yp = mass.dense().completeOrthogonalDecomposition().solve(f);
      for (Eigen::Index i = 0; i < n; ++i)
        if (problem.is_algebraic(i)) yp[i] = 0.0;
      return;
  }
}

InitialisationOutcome initialise(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass,
                                 Eigen::VectorXd& y0) {
  InitialisationOutcome out;
  if (request.init == InitPolicy::trust || problem.residual_only()) return out;
  const Eigen::Index n = problem.size();
  // The flags say which components the algebraic equations determine; a model whose M
  // says otherwise would have --init fix move a differential component. Refused.
  for (Eigen::Index j = 0; j < n; ++j) {
    bool zero_column = true;
    if (mass.shape() == MassMatrix::Shape::dense)
      zero_column = mass.dense().col(j).cwiseAbs().maxCoeff() == 0.0;
    else
      zero_column = mass.entry(j, j) == 0.0;  // identity or diagonal
    if (zero_column != problem.is_algebraic(j)) {
      out.status = Status::invalid_input;
      out.message = "the model contradicts itself: component " + std::to_string(j + 1) + " is flagged " +
                    (problem.is_algebraic(j) ? "algebraic" : "differential") + " but its column of M is " +
                    (zero_column ? "zero" : "not zero") + " (daekit check shows it)";
      return out;
    }
  }
  if (mass.is_identity()) return out;
  Eigen::MatrixXd left, right;
  null_spaces(mass, n, left, right);
  if (left.cols() == 0) return out;

  // Tolerance on the algebraic residuals: the smallest absolute scale among the algebraic components.
  double tol = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < n; ++i)
    if (right.row(i).cwiseAbs().maxCoeff() > 0.0)
      tol = std::min(tol, request.atol[i] + request.rtol[i] * std::abs(y0[i]));
  if (!std::isfinite(tol)) tol = request.atol.minCoeff();

  Eigen::VectorXd f(n), g;
  auto residual = [&]() -> Eval {
    Eval e = problem.rhs(request.t0, y0, f);
    if (e == Eval::ok) g = left.transpose() * f;
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
    std::vector<Eigen::Index> order(static_cast<std::size_t>(g.size()));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return std::abs(g[a]) > std::abs(g[b]); });
    std::ostringstream m;
    m.precision(3);
    m << "the initial values are inconsistent: the algebraic equations are violated by up to " << out.residual
      << " (tolerance " << tol << "; worst: ";
    for (std::size_t k = 0; k < std::min<std::size_t>(3, order.size()); ++k) {
      if (std::abs(g[order[k]]) <= tol) break;
      m << (k ? ", " : "") << equation_name(problem, left, order[k]) << " by " << std::abs(g[order[k]]);
    }
    m << "); pass --init fix to compute consistent values";
    out.status = Status::inconsistent_initial_values;
    out.message = m.str();
    return out;
  }

  // fix_algebraic: least-squares Newton on the algebraic components first. Equations
  // that do not depend on them (the constraints of index 2 and higher, e.g. a
  // velocity constraint) are then satisfied by the smallest change of all
  // components in the tolerance-weighted norm, so the differential components move
  // only as far as the constraints demand.
  const Eigen::VectorXd y_start = y0;
  IterationMatrix matrix;  // analytic or finite differences, as the solvers' own
  matrix.setup(problem, request, mass, /*allow_sparse=*/false);
  Eigen::VectorXd weight(n);
  for (Eigen::Index i = 0; i < n; ++i) weight[i] = request.atol[i] + request.rtol[i] * std::abs(y_start[i]);
  auto newton = [&](bool all_components) {
    for (int iter = 0; iter < 20 && out.residual > 0.01 * tol; ++iter) {
      if (matrix.evaluate_jacobian(request.t0, y0, f) != Eval::ok) return;
      const Eigen::MatrixXd rows = left.transpose() * matrix.dense_jacobian();
      if (all_components) {
        const Eigen::MatrixXd scaled = rows * weight.asDiagonal();
        y0 += weight.asDiagonal() * scaled.completeOrthogonalDecomposition().solve(-g);
      } else {
        const Eigen::MatrixXd reduced = rows * right;
        y0 += right * reduced.completeOrthogonalDecomposition().solve(-g);
      }
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
      const bool algebraic = right.row(i).cwiseAbs().maxCoeff() > 0.0;
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
  if (!std::isfinite(tol)) tol = (request.atol.array() + request.rtol.array() * y0.array().abs()).minCoeff();

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
                                        double t, bool reinit, Eigen::VectorXd& y, Eigen::VectorXd* yp) {
  SolveRequest at_event = request;
  at_event.t0 = t;
  at_event.init = reinit ? InitPolicy::fix_algebraic : InitPolicy::check;
  InitialisationOutcome again;
  if (mass) {
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
