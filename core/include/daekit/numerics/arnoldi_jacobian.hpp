// The Jacobian of a Rosenbrock-Krylov method (Tranquilli & Sandu, "Rosenbrock-Krylov
// methods for large systems of differential equations", SIAM J. Sci. Comput. 36 (2014)):
// J replaced by its projection A = V H V^T D^2 onto a Krylov space of J, with V
// orthonormal in the error weights' inner product <x, z> = sum_i w_i^2 x_i z_i (Arnoldi
// with modified Gram-Schmidt) and H = V^T D^2 J V. A stage's system
// (I / (h gamma) - A) u = r then splits exactly into a p x p solve in the space and the
// identity outside it:
//   u = V (I / (h gamma) - H)^-1 V^T D^2 r + h gamma (r - V V^T D^2 r).
// The methods' order conditions (K-methods) ask the space to hold the Krylov space of
// f0 = f(t_n, y_n) of dimension at least the order, for the autonomous form. A
// non-autonomous problem is that form with t a component (t' = 1, whose Jacobian column is
// f_t): its Krylov vectors are f0 and J^(k-1) (J f0 + f_t), and a space that also holds the
// t axis keeps t exact (the step's stage times and end are those of the method). The space
// here is the block Krylov space of J from f0 and f_t, which holds those vectors (2k - 1 of
// it reach the k-th), built by applying J to the basis vectors in turn (block Arnoldi);
// f_t = 0 (autonomous) leaves the ordinary Krylov space of f0. The space grows until the
// first stage's system (r = f0) has a residual of at most the tolerance, and stops at the
// largest dimension regardless (the step's error test judges what the smaller space
// gives). The basis depends on J, f0 and f_t only: a retried step with a smaller h reuses it.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "daekit/eigen_abi.hpp"
#include "daekit/numerics/function_ref.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ArnoldiJacobian {
 public:
  using ConstRef = Eigen::Ref<const Eigen::VectorXd>;
  using Ref = Eigen::Ref<Eigen::VectorXd>;
  using Product = FunctionRef<Eval(ConstRef v, Ref out)>;  // out = J v

  struct Dimensions {
    // The method's order: fewer Krylov levels lose it (2 min - 1 vectors of the block
    // space for a non-autonomous problem, which the largest dimension is raised to).
    int min = 4;
    int max = 100;  // memory: up to max + 2 vectors of n, allocated as the space grows
  };
  enum class Outcome {
    converged,     // the first stage's residual met the tolerance (or the space is invariant)
    limited,       // the largest dimension came first
    singular,      // I / (h gamma) - H is singular
    model_failed,  // a product failed: model_failure() says how
  };

  void setup(Eigen::Index n, Dimensions dimensions);
  // Forget the basis: the next prepare() builds one at the new point.
  void restart() {
    m_ = p_ = 0;
    started_ = false;
  }
  // Ready to solve for this h gamma: the basis from f0 and f_t (nullptr for an autonomous
  // problem; J at their point through `product`, w the error weights there) grown as the
  // tolerance asks, the small matrix factorised. tol bounds h gamma times the first
  // stage's residual in the weighted RMS norm (the residual of (I - h gamma A) u =
  // h gamma f0, as the Krylov stage solves measure theirs).
  Outcome prepare(Product product, const Eigen::VectorXd& f0, const Eigen::VectorXd* f_t, const Eigen::VectorXd& w,
                  double h_gamma, double tol);
  // u from (I / (h gamma) - A) u = r, with the h gamma of the last prepare().
  void solve(const Eigen::VectorXd& r, Eigen::VectorXd& u);

  int added() const { return added_; }  // vectors the last prepare() added
  Eval model_failure() const { return model_failure_; }

 private:
  double dot(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const;
  // v orthogonalised against the basis (coefficients into column `column` of H, if any)
  // and added to it unless it lies in the space (to round-off); its norm after.
  double orthogonalise_and_add(Eigen::VectorXd& v, int column);
  // The basis' first vectors: f0 and f_t, each unless it lies in the space already.
  void start(const Eigen::VectorXd& f0, const Eigen::VectorXd* f_t);
  // J applied to the next basis vector: the space grows by the new direction, if any;
  // false when a product failed.
  bool extend(Product product);
  // Factorises I / (h gamma) - H_p; false when singular.
  bool factor(double h_gamma);
  double first_stage_residual();  // of (I / (h gamma) - A) u = f0, weighted 2-norm
  bool invariant() const { return p_ == m_; }  // every basis vector's image is in the space

  Dimensions dimensions_;  // max: the storage's (raised for the block space)
  int requested_max_ = 0;   // the largest dimension asked for
  std::vector<Eigen::VectorXd> basis_;  // grown on demand, kept for the next steps
  Eigen::VectorXd w2_;                  // the weights squared, at the basis' point
  Eigen::VectorXd work_;
  Eigen::MatrixXd h_;                   // (max + 2) x max: column j is V^T D^2 J v_j
  std::vector<double> lu_, rhs_;        // the small system, column-major, and its solutions
  std::vector<double> coefficients_;    // V^T D^2 r of the present solve
  std::vector<int> pivots_;
  double h_gamma_ = 0.0;                // the factorised h gamma
  double beta_ = 0.0;                   // |f0| in the weighted norm (f0 = beta v_0)
  int m_ = 0;        // basis vectors
  int p_ = 0;        // of them, those J has been applied to: the projection's space
  int starts_ = 0;   // of them, the start vectors (f0, f_t): the block size
  int added_ = 0;
  bool started_ = false;
  Eval model_failure_ = Eval::ok;
};

}  // namespace daekit
