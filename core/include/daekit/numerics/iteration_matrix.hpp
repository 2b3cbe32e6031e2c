// The linear algebra of every implicit method: the Jacobian df/dy (analytic, or
// by finite differences when the problem has none or the user asks: one evaluation per
// colour of the problem's pattern when it declares one, else per column), and the
// iteration matrix W = alpha * M - J with its LU factorisation (dense, or
// sparse when the problem gives a Jacobian pattern). Rosenbrock methods use
// alpha = 1 / (h gamma), BDF alpha = cj, Radau the real eigenvalue.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/column_colouring.hpp"
#include "daekit/numerics/dense_lu.hpp"
#include "daekit/numerics/derivative_check.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/sparse_lu.hpp"
#include "daekit/solve_request.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;

// The sparse LU and ordering the request's options ask for (sparse_lu, sparse_ordering;
// sdk/solver.hpp's iteration_matrix_options()), set on `lu` before its analysis.
void configure_sparse_lu(const SolveRequest& request, SparseLUSolver& lu);

class IterationMatrix {
 public:
  // Decides analytic vs finite differences and dense vs sparse (sparse only when the problem
  // gives a pattern and the method can use it); allocates everything once.
  void setup(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass, bool allow_sparse = true);

  bool sparse() const { return sparse_; }
  // The sparse LUs' ordering and factorisation as asked (options sparse_ordering and
  // sparse_lu), for the complex LUs to follow the same wish.
  SparseOrdering ordering() const { return ordering_; }
  SparseFactoriser factoriser() const { return factoriser_; }
  bool analytic() const { return analytic_; }

  // df/dy at (t, y); f0 = f(t, y) is needed for finite differences. A supplied Jacobian is
  // compared with differences now and then (DerivativeCheck, unless the request turned
  // it off); one that disagrees is replaced by differences for the rest of the solve, with
  // a warning in the result.
  Eval evaluate_jacobian(double t, Eigen::Ref<const Eigen::VectorXd> y, Eigen::Ref<const Eigen::VectorXd> f0);
  // W = alpha M - J and its factorisation; false when singular.
  bool factor(double alpha);
  // The same, factorised in units of the tolerances: S W S^-1 with S = diag(weights)
  // rounded to powers of two (exact), which solve() undoes. The LU's rounding is
  // relative to the entries it works with: unscaled, a component of size 1e-3 leaves
  // rounding of 1e-19 in the solution's other components, which a tolerance of 1e-24 on
  // them (E5) cannot absorb; scaled, every component's rounding is small against its
  // own tolerance. For methods whose solution is the linear solve (Rosenbrock); a Newton
  // iteration corrects such rounding by its residual.
  bool factor_scaled(double alpha, const Eigen::VectorXd& weights);
  // W = alpha M - J without factorising, for solvers with a linear solver of their own
  // (IDA's Jacobian of F = M y' - f is exactly W with alpha = cj).
  void assemble(double alpha);
  // alpha M - J with the last Jacobian, for real or complex alpha, into a dense n x n matrix or
  // one with W's sparse pattern (sparse_w()'s, e.g. a copy cast to complex): the Radau methods'
  // complex systems share W's shape.
  template <class Scalar>
  void assemble_into(Scalar alpha, Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& out) const;
  template <class Scalar>
  void assemble_into(Scalar alpha, Eigen::SparseMatrix<Scalar>& out) const;
  // W as the last factor() or assemble() left it: S W S^-1 after factor_scaled().
  const Eigen::MatrixXd& dense_w() const { return w_; }
  const Eigen::SparseMatrix<double>& sparse_w() const { return w_sparse_; }
  bool scaled() const { return w_scaled_; }
  const Eigen::VectorXd& scale() const { return scale_; }              // S, with scaled()
  const Eigen::VectorXd& scale_inverse() const { return scale_inv_; }  // S^-1, with scaled()
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);

  // J x (for methods that need the Jacobian's action).
  void apply_jacobian(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;
  const Eigen::MatrixXd& dense_jacobian() const { return jac_; }
  const Eigen::SparseMatrix<double>& sparse_jacobian() const { return jac_sparse_; }

 private:
  // The supplied Jacobian just evaluated at (t, y), checked; on a disagreement the switch
  // to differences, evaluated there.
  Eval check_supplied(double t, Eigen::Ref<const Eigen::VectorXd> y);
  // From here on df/dy by differences (coloured in the declared pattern where allowed).
  void use_differences();
  Eval finite_difference_dense(double t, Eigen::Ref<const Eigen::VectorXd> y, Eigen::Ref<const Eigen::VectorXd> f0);
  Eval finite_difference_sparse(double t, Eigen::Ref<const Eigen::VectorXd> y, Eigen::Ref<const Eigen::VectorXd> f0);
  // f at y + delta e_j for each column j, handed to store(j, delta) with the result in f_work_.
  template <class Store>
  Eval finite_difference_columns(double t, Eigen::Ref<const Eigen::VectorXd> y, Store&& store);

  ProblemView* problem_ = nullptr;
  const MassMatrix* mass_ = nullptr;
  bool sparse_ = false, analytic_ = false;

  // S of factor_scaled(): the weights rounded to powers of two, and their inverses. W's
  // entry (i, j) is multiplied by scale_[i] / scale_[j], the right-hand side by scale_,
  // the solution by scale_inv_.
  void set_scaling(const Eigen::VectorXd& weights);
  // The LU of W as assembled (w_ or w_sparse_); false when singular, and counted.
  bool factor_assembled();

  Eigen::MatrixXd jac_, w_;
  DenseLU dense_lu_;
  bool w_scaled_ = false;   // w_ or w_sparse_ holds S W S^-1 (factor_scaled(), no assemble() since)
  bool lu_scaled_ = false;  // the factorisation solve() uses is factor_scaled()'s
  Eigen::VectorXd scale_, scale_inv_, scaled_rhs_;

  Eigen::SparseMatrix<double> jac_sparse_, w_sparse_;
  std::vector<Eigen::Index> jac_to_w_;   // position in w_sparse_ of each Jacobian entry
  std::vector<Eigen::Index> mass_in_w_;  // position in w_sparse_ of each mass entry
  std::vector<double> mass_values_;
  SparseLUSolver sparse_lu_;
  SparseOrdering ordering_ = SparseOrdering::automatic;
  SparseFactoriser factoriser_ = SparseFactoriser::automatic;

  Eigen::VectorXd y_work_, f_work_, delta_;
  ColumnColouring colouring_;            // of the declared pattern, for coloured differences
  Eigen::SparseMatrix<double> pattern_;  // that pattern, for a dense Jacobian's differences only
  PerComponent rtol_, atol_;  // scales for finite-difference increments
  bool colouring_allowed_ = true;  // option fd_colouring
  bool check_ = false;             // compare the supplied Jacobian with differences
  DerivativeCheck derivative_check_;
  Eigen::VectorXd y_check_, f_check_;
};

}  // namespace daekit
