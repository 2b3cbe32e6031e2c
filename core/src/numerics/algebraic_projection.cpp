#include <Eigen/Dense>
#include <Eigen/SparseLU>
#include <cmath>

#include "algebraic_part.hpp"
#include "daekit/numerics/consistency.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/problem_view.hpp"

namespace daekit {

struct AlgebraicProjection::Parts {
  ProblemView& problem;
  const SolveRequest& request;
  AlgebraicPart part;
  IterationMatrix matrix;
  Eigen::MatrixXd left, right;  // the bases as dense matrices, for a dense Jacobian
  Eigen::VectorXd f, g, start, dy;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_lu;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> sparse_lu;
  bool factored = false;  // a factorisation is there to reuse
  // The algebraic equations do not determine the algebraic components alone (tba: a
  // voltage that only the charges' equations hold, a structurally singular block): the
  // method's values are kept at every point, without evaluating df/dy again.
  bool singular = false;

  Parts(ProblemView& p, const SolveRequest& r, const MassMatrix& mass) : problem(p), request(r), part(mass, p.size()) {
    const Eigen::Index n = p.size();
    matrix.setup(p, r, mass, /*allow_sparse=*/part.selection);
    if (!matrix.sparse()) part.as_bases(n, left, right);
    f.setZero(n);
    dy.setZero(n);
  }

  // The algebraic equations' derivative with respect to the algebraic components, at
  // the Jacobian last evaluated, factorised; false when singular.
  bool factor() {
    if (matrix.sparse()) {
      sparse_lu.compute(sparse_block(matrix.sparse_jacobian(), part.rows, &part.columns, nullptr));
      return sparse_lu.info() == Eigen::Success;
    }
    dense_lu.compute(left.transpose() * matrix.dense_jacobian() * right);
    // Not the determinant: of a few hundred pivots it under- or overflows (tba's 175).
    const auto pivots = dense_lu.matrixLU().diagonal().cwiseAbs();
    return pivots.allFinite() && pivots.minCoeff() > 0.0;
  }

  // Newton on the algebraic equations at (t, y) for the algebraic components, with the
  // last df/dy or this point's; true when converged, else y as it came.
  bool newton(double t, Eigen::VectorXd& y, bool fresh_jacobian);

  // The Newton correction of y for the residuals g; its largest size in tolerances.
  double correction(const Eigen::VectorXd& y) {
    if (matrix.sparse()) {
      const Eigen::VectorXd d = sparse_lu.solve(-g);
      dy.setZero();
      for (std::size_t k = 0; k < part.columns.size(); ++k) dy[part.columns[k]] = d[static_cast<Eigen::Index>(k)];
    } else {
      dy = right * dense_lu.solve(-g);
    }
    return request.in_tolerances(dy, y);
  }
};

AlgebraicProjection::AlgebraicProjection(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass)
    : parts_(std::make_unique<Parts>(problem, request, mass)) {}

AlgebraicProjection::~AlgebraicProjection() = default;

std::unique_ptr<AlgebraicProjection> AlgebraicProjection::for_solve(ProblemView& problem, const SolveRequest& request,
                                                                     const MassMatrix* mass) {
  const bool between_steps = request.output == OutputMode::saveat || request.keep_dense || problem.nroots() > 0;
  if (!mass || !between_steps || request.wants_sensitivities() || problem.residual_only() ||
      !index_one_dae(problem.info()))
    return nullptr;
  return std::make_unique<AlgebraicProjection>(problem, request, *mass);
}

bool AlgebraicProjection::apply(double t, Eigen::VectorXd& y) {
  Parts& p = *parts_;
  if (p.singular) return false;
  // The last point's df/dy while Newton converges with it; this point's where it does not.
  return (p.factored && p.newton(t, y, false)) || p.newton(t, y, true);
}

bool AlgebraicProjection::Parts::newton(double t, Eigen::VectorXd& y, bool fresh_jacobian) {
  start = y;
  auto give_up = [&] {
    y = start;
    return false;
  };
  if (problem.rhs(t, y, f) != Eval::ok) return give_up();
  part.equations(f, g);
  if (fresh_jacobian) {
    if (matrix.evaluate_jacobian(t, y, f) != Eval::ok) return give_up();
    factored = factor();
    singular = !factored;
    if (!factored) return false;
  }
  for (int iteration = 0; iteration < 4; ++iteration) {
    const double size = correction(y);
    if (!std::isfinite(size)) return give_up();
    y += dy;
    if (size <= 1e-3) return true;
    if (problem.rhs(t, y, f) != Eval::ok) return give_up();
    part.equations(f, g);
  }
  return give_up();
}

}  // namespace daekit
