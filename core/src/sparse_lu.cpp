#include "daekit/numerics/sparse_lu.hpp"

namespace daekit {

template <class Scalar>
void SparseLUOf<Scalar>::analyze(const Matrix& pattern) {
  lu_.analyzePattern(pattern);
  analyzed_ = true;
}

template <class Scalar>
bool SparseLUOf<Scalar>::factor(const Matrix& a) {
  if (!analyzed_) analyze(a);
  lu_.factorize(a);
  return lu_.info() == Eigen::Success;
}

template class SparseLUOf<double>;
template class SparseLUOf<std::complex<double>>;

}  // namespace daekit
