// What a discrete adjoint needs of the linear algebra beside its method's own: solves with
// W^T (the transpose of the iteration matrix the method just factorised), J(t, y)^T v at
// points where the method keeps no Jacobian, and M^T v.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/dense_lu.hpp"
#include "daekit/numerics/iteration_matrix.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/numerics/sparse_lu.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

// W^T, factorised apart from W: the core's LUs solve with the matrix they factorised only.
// Dense, or sparse in W^T's pattern with the LU and ordering the request asks for.
class TransposedIterationMatrix {
 public:
  void setup(const SolveRequest& request, bool sparse);
  // The transpose of `matrix`'s W as its last factor() or assemble() left it; false when
  // singular. After factor_scaled() W is stored as S W S^-1, so W^T = S (S W S^-1)^T S^-1
  // is solved in the same units: S^-1 b in, S times the solution out.
  bool factor(const IterationMatrix& matrix);
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);

 private:
  bool sparse_ = false, analysed_ = false;
  DenseLU dense_;
  SparseLUSolver sparse_lu_;
  Eigen::SparseMatrix<double> wt_;
  bool scaled_ = false;
  Eigen::VectorXd scale_, scale_inv_, scaled_rhs_;  // matrix's S and S^-1 when scaled_
};

// J(t, y)^T v by evaluating J at (t, y): the problem's (dense or in its pattern), else
// differences, as the method's own Jacobians. The ABI has no vector-Jacobian product yet.
class JacobianTransposeProducts {
 public:
  void setup(ProblemView& problem, const SolveRequest& request, const MassMatrix& mass, bool allow_sparse);
  Eval times(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& v, Eigen::VectorXd& out);
  // J^T v with a Jacobian the caller evaluated (a method's own, at its step's start).
  static void times(const IterationMatrix& jacobian, const Eigen::VectorXd& v, Eigen::VectorXd& out);

 private:
  ProblemView* problem_ = nullptr;
  IterationMatrix matrix_;
  Eigen::VectorXd f_;
};

// out = M^T x.
void mass_transpose_apply(const MassMatrix& mass, const Eigen::VectorXd& x, Eigen::VectorXd& out);

}  // namespace daekit
