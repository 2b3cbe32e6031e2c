#include "daekit/numerics/sparse_lu.hpp"

#include <Eigen/KLUSupport>
#include <Eigen/SparseLU>

namespace daekit {

namespace {

template <class Scalar>
struct BackendFor {
  using type = Eigen::SparseLU<Eigen::SparseMatrix<Scalar>, Eigen::COLAMDOrdering<int>>;
};
template <>
struct BackendFor<std::complex<double>> {
  using type = Eigen::KLU<Eigen::SparseMatrix<std::complex<double>>>;
};

}  // namespace

template <class Scalar>
struct SparseLUOf<Scalar>::Backend {
  typename BackendFor<Scalar>::type lu;
};

template <class Scalar>
SparseLUOf<Scalar>::SparseLUOf() : backend_(std::make_unique<Backend>()) {}
template <class Scalar>
SparseLUOf<Scalar>::~SparseLUOf() = default;
template <class Scalar>
SparseLUOf<Scalar>::SparseLUOf(SparseLUOf&&) noexcept = default;
template <class Scalar>
SparseLUOf<Scalar>& SparseLUOf<Scalar>::operator=(SparseLUOf&&) noexcept = default;

template <class Scalar>
void SparseLUOf<Scalar>::analyze(const Matrix& pattern) {
  backend_->lu.analyzePattern(pattern);
  analyzed_ = true;
}

template <class Scalar>
bool SparseLUOf<Scalar>::factor(const Matrix& a) {
  if (!analyzed_) analyze(a);
  backend_->lu.factorize(a);
  return backend_->lu.info() == Eigen::Success;
}

template <class Scalar>
void SparseLUOf<Scalar>::solve(const Vector& b, Vector& x) {
  x = backend_->lu.solve(b);
}

template class SparseLUOf<double>;
template class SparseLUOf<std::complex<double>>;

}  // namespace daekit
