// The forward sensitivity equations every family integrates beside y: for a column s_k =
// dy/dq_k, q_k a parameter or an initial value,
//   mass-matrix form:  M s_k' = (df/dy) s_k + df/dq_k        (M independent of p)
//   residual form:     (dF/dy) s_k + (dF/dy') s_k' + dF/dq_k = 0
// with df/dq_k = 0 for an initial value. The products with the Jacobian are exact where
// the problem gives its Jacobian (dense or sparse; the residual of a constant mass matrix
// problem is M s' - J s), else its (df/dy) S products where it gives them (ABI 1.3
// jacobian_sens: all columns in one call), else central directional differences whose increment moves
// no component by more than eps^(1/3) of its scale, |y_i| + atol_i / rtol_i (the size
// below which the tolerances call it noise: a component that starts at 0 is not moved by
// a mere eps^(1/3) atol, where round-off would swamp the quotient).
#pragma once

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <cstdint>
#include <string>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/error_norm.hpp"
#include "daekit/numerics/mass_matrix.hpp"
#include "daekit/problem_view.hpp"
#include "daekit/solve_request.hpp"

namespace daekit {

class SensitivityEquations {
 public:
  // The columns the request asks for; exact Jacobian products when the problem allows.
  SensitivityEquations(ProblemView& problem, const SolveRequest& request);

  Eigen::Index columns() const { return static_cast<Eigen::Index>(index_.size()); }
  // Why `solver`, a family that integrates s for M y' = f with a constant M, cannot here
  // ("" when it can): df/dp missing, a varying M, or components of index 3 or more.
  std::string refused_for_ode_family(const std::string& solver) const;
  // s0's algebraic components from the constraints' derivative, J_aa s_a = -(J_ad s_d +
  // f_q,a) on the zero rows a of M (index 1: J_aa regular), at (t0, y0); s0's other
  // entries as initial() gives them. Index 2 (Hessenberg: constraints 0 = g(t, y_d, p))
  // from the constraints' time derivative, once s_d is checked to keep g_y s_d + g_q = 0.
  // false (with why) otherwise.
  bool consistent_initial(double t0, const Eigen::VectorXd& y0, Eigen::MatrixXd& s0, std::string* why);
  // The same for a given s (after an event's jump): its algebraic rows from its
  // differential ones at (t, y).
  bool make_consistent(double t, const Eigen::VectorXd& y, Eigen::MatrixXd& s, std::string* why);
  // s where a method restarts after an event at (t, y): s+ with its algebraic rows made
  // consistent, into s; "" or why not.
  std::string restarted(double t, const Eigen::VectorXd& y, const Eigen::MatrixXd& s_plus, Eigen::MatrixXd& s) {
    s = s_plus;
    std::string why;
    return make_consistent(t, y, s, &why) ? "" : why;
  }
  // y' of the algebraic components along the solution, from the constraints' derivative
  // J_aa y'_a = -(J_ad y'_d + f_t,a) at (t, y), y'_d as given in yp (index 1 only).
  bool algebraic_slopes(double t, const Eigen::VectorXd& y, Eigen::VectorXd& yp, std::string* why);
  bool any_parameter() const { return any_parameter_; }
  // s(t0): e_i for the initial value y0_i, 0 for a parameter, or dy0/dp where the request
  // gives it (a y0 that depends on p); before DAE consistency.
  Eigen::MatrixXd initial() const;
  // The magnitude each column is measured against (SUNDIALS' pbar): a parameter's declared
  // scale, else its nominal value's size, else 1; 1 for an initial value. Column k's error
  // pbar_k e_k is weighed with y's tolerances applied to pbar_k s_k (CVODES' weights).
  const std::vector<double>& scales() const { return scales_; }
  // Those weights as a vector, for a Krylov solve of column k held in that column's norm:
  // `norm`'s weights (without index scaling) at pbar_k s_k, times pbar_k. `magnitude` is
  // work space.
  void column_weights(const ErrorNorm& norm, Eigen::Index k, ProblemView::ConstRef s_k, Eigen::VectorXd& magnitude,
                      Eigen::VectorXd& out) const;
  // The right-hand sides (df/dy) S + df/dq at (t, y) of a mass-matrix problem, f = f(t, y).
  // An exact Jacobian is kept per `slot` while (t, y) stays (a method with stages gives
  // each stage its slot, 0 .. slots - 1).
  static constexpr int slots = 8;  // radauiia: 7 stages and the error estimate
  Eval rhs(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, const Eigen::MatrixXd& s,
           Eigen::MatrixXd& out, int slot = 0);
  // The same for one column (k), for solvers that ask column by column.
  Eval rhs_column(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, Eigen::Index k,
                  ProblemView::ConstRef s, ProblemView::Ref out);
  // The second-derivative term of a Rosenbrock step on the augmented system [y; s]:
  // (d/dy ((df/dy) S + df/dq)) v for every column, at (t, y) and a direction v of y.
  // With the problem's Jacobian a central difference of (df/dy) S + df/dq along v (about
  // eps^(2/3)); without it f''[s_k, v] by the four-point mixed difference of f (about
  // eps^(1/2)) plus the difference of df/dq along v.
  Eval second_derivative(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s, ProblemView::ConstRef v,
                         Eigen::MatrixXd& out);
  // d/dt ((df/dy) S + df/dq) at (t, y), by a central difference in t of width 2 delta.
  Eval time_derivative(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s, double delta,
                       Eigen::MatrixXd& out);
  // The residuals (dF/dy) S + (dF/dy') S' + dF/dq at (t, y, y'), r = F(t, y, y').
  Eval residual(double t, ProblemView::ConstRef y, ProblemView::ConstRef yp, ProblemView::ConstRef r,
                const Eigen::MatrixXd& s, const Eigen::MatrixXd& sp, Eigen::MatrixXd& out);
  // dF/dq (n x columns) at (t, y, y'): the parameters' columns of dF/dp, zero for initial values.
  Eval residual_parameter_columns(double t, ProblemView::ConstRef y, ProblemView::ConstRef yp,
                                  Eigen::MatrixXd& out);

 private:
  Eval parameter_columns(double t, ProblemView::ConstRef y, Eigen::MatrixXd& out);
  // The algebraic equations (M's zero rows), M and df/dy at (t, y), J_aa factorised
  // (regular: index 1); false (with why) when the model fails.
  struct Algebraic {
    std::vector<Eigen::Index> rows, algebraic, differential;
    Eigen::MatrixXd m, j;
    Eigen::FullPivLU<Eigen::MatrixXd> lu;
    bool regular = true;
  };
  bool algebraic_system(double t, const Eigen::VectorXd& y, Algebraic& out, std::string* why);
  bool hidden_constraints(double t, const Eigen::VectorXd& y, const Algebraic& sys, Eigen::MatrixXd& s,
                          std::string* why);
  Eval jacobian_product(double t, ProblemView::ConstRef y, ProblemView::ConstRef f, ProblemView::ConstRef s,
                        ProblemView::Ref out, int slot = 0);
  double increment(ProblemView::ConstRef y, ProblemView::ConstRef s) const;
  double scale(Eigen::Index i, double v) const;
  Eval mass_residual(double t, ProblemView::ConstRef y, const Eigen::MatrixXd& s, const Eigen::MatrixXd& sp,
                      Eigen::MatrixXd& out);

  ProblemView& problem_;
  const SolveRequest& request_;
  std::vector<std::int32_t> index_;
  std::vector<double> scales_;
  bool any_parameter_ = false;
  bool exact_dense_ = false, exact_sparse_ = false;
  bool products_ = false;  // no Jacobian, but the problem's (df/dy) S (jacobian_sens)
  bool mass_residual_ = false;  // constant M: F_y s + F_y' s' = M s' - J s
  MassMatrix mass_;
  struct KeptJacobian {
    double t = 0.0;
    Eigen::VectorXd y;  // where it was evaluated (empty: nowhere yet)
    Eigen::MatrixXd dense;
    Eigen::SparseMatrix<double> sparse;
  };
  KeptJacobian kept_[slots];
  Eigen::MatrixXd dfdp_, dfdq_;
  std::vector<std::int32_t> single_column_ = {0};  // rhs_column's parameter, without an allocation
  Eigen::VectorXd plus_, minus_, y_moved_, yp_moved_;
  Eigen::MatrixXd up_, down_;
};

}  // namespace daekit
