// Compiled by test_install.sh against the installed SDK: with the libraries' flags it must
// compile; with -mavx2 (Eigen then allocates 32-byte aligned blocks of its own, the portable
// libraries plain malloc) it must not, and the message must say why (daekit/eigen_abi.hpp).
#include <daekit/numerics/dense_lu.hpp>

int main() {
  daekit::DenseLU lu;
  lu.matrix() = Eigen::MatrixXd::Identity(3, 3);
  return lu.factor() ? 0 : 1;
}
