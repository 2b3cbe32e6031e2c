#include "daekit/numerics/mass_matrix.hpp"

#include "daekit/problem_view.hpp"

namespace daekit {

Eval MassMatrix::setup(ProblemView& problem, double t0, const Eigen::VectorXd& y0) {
  n_ = problem.size();
  if (problem.mass_kind() == MassKind::identity) {
    shape_ = Shape::identity;
    return Eval::ok;
  }
  Eval e = problem.mass(t0, y0, dense_);
  if (e != Eval::ok) return e;
  Eigen::MatrixXd off = dense_;
  off.diagonal().setZero();
  if (off.isZero(0.0)) {
    diag_ = dense_.diagonal();
    shape_ = diag_.isOnes(0.0) ? Shape::identity : Shape::diagonal;
  } else {
    shape_ = Shape::dense;
  }
  return Eval::ok;
}

void MassMatrix::apply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  switch (shape_) {
    case Shape::identity: out = x; break;
    case Shape::diagonal: out = diag_.cwiseProduct(x); break;
    case Shape::dense: out.noalias() = dense_ * x; break;
  }
}

template <class Scalar>
void MassMatrix::add_scaled_to(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& w, Scalar alpha) const {
  switch (shape_) {
    case Shape::identity: w.diagonal().array() += alpha; break;
    case Shape::diagonal: w.diagonal() += alpha * diag_.cast<Scalar>(); break;
    case Shape::dense: w += alpha * dense_.cast<Scalar>(); break;
  }
}

template void MassMatrix::add_scaled_to(Eigen::MatrixXd&, double) const;
template void MassMatrix::add_scaled_to(Eigen::MatrixXcd&, std::complex<double>) const;

double MassMatrix::entry(Eigen::Index i, Eigen::Index j) const {
  switch (shape_) {
    case Shape::identity: return i == j ? 1.0 : 0.0;
    case Shape::diagonal: return i == j ? diag_[i] : 0.0;
    case Shape::dense: return dense_(i, j);
  }
  return 0.0;
}

}  // namespace daekit
