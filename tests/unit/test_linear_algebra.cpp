#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <daekit/numerics/dense_lu.hpp>
#include <daekit/numerics/sparse_lu.hpp>

using namespace daekit;

TEST_CASE("dense LU solves a well-conditioned system and refactors in place", "[unit][linalg]") {
  Eigen::MatrixXd a = Eigen::MatrixXd::Random(30, 30) + 30.0 * Eigen::MatrixXd::Identity(30, 30);
  Eigen::VectorXd x_true = Eigen::VectorXd::LinSpaced(30, -1, 1), x;
  DenseLU lu;
  REQUIRE(lu.factor(a));
  lu.solve(a * x_true, x);
  CHECK((x - x_true).norm() < 1e-12);
  a *= 2.0;
  REQUIRE(lu.factor(a));
  lu.solve(a * x_true, x);
  CHECK((x - x_true).norm() < 1e-12);
}

TEST_CASE("dense LU reports a singular matrix instead of returning nonsense", "[unit][linalg]") {
  Eigen::MatrixXd a(3, 3);
  a << 1, 2, 3, 2, 4, 6, 0, 0, 1;
  DenseLU lu;
  CHECK_FALSE(lu.factor(a));
  a.setZero();
  CHECK_FALSE(lu.factor(a));
  a(0, 0) = std::nan("");
  CHECK_FALSE(lu.factor(a));
  // Off the diagonal, below and above it, and an infinity: the factors' diagonal shows it.
  for (auto [i, j, v] : {std::tuple{7, 3, std::nan("")}, std::tuple{3, 7, std::nan("")},
                         std::tuple{20, 2, HUGE_VAL}, std::tuple{0, 29, -HUGE_VAL}}) {
    Eigen::MatrixXd b = Eigen::MatrixXd::Random(30, 30) + 30.0 * Eigen::MatrixXd::Identity(30, 30);
    b(i, j) = v;
    INFO("entry (" << i << ", " << j << ") = " << v);
    CHECK_FALSE(lu.factor(b));
  }
}

TEST_CASE("complex dense LU solves a shifted system and reports singular ones", "[unit][linalg]") {
  // The Radau methods' complex systems ((alpha + i beta)/h) M - J.
  const int n = 40;
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Random(n, n);
  a.diagonal().array() += std::complex<double>(3.0, 2.0) * double(n);
  Eigen::VectorXcd x_true = Eigen::VectorXcd::LinSpaced(n, {-1.0, 2.0}, {1.0, -0.5}), x;
  ComplexDenseLU lu;
  lu.matrix() = a;  // filled in place, as the Radau steppers do
  REQUIRE(lu.factor());
  lu.solve(a * x_true, x);
  CHECK((x - x_true).norm() < 1e-12 * x_true.norm());
  x = a * x_true;
  lu.solve(x, x);  // in place
  CHECK((x - x_true).norm() < 1e-12 * x_true.norm());

  a.row(7).setZero();  // exactly singular (getrf, like DEC, flags exact zero pivots)
  CHECK_FALSE(lu.factor(a));
  a.setIdentity();
  a(5, 5) = std::complex<double>(std::nan(""), 0.0);
  CHECK_FALSE(lu.factor(a));
}

// Sizes on both sides of the written-out loops' limits (48 real, 40 complex) and matrices
// that need row interchanges: the same solutions as Eigen's partial-pivoting LU, the
// singular and non-finite cases reported on both paths.
template <class Scalar>
void check_dense_sizes() {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  for (int n : {1, 2, 3, 7, 24, 25, 40, 41, 48, 49, 64}) {
    INFO("n = " << n);
    Matrix a = Matrix::Random(n, n);
    a.diagonal().setZero();  // every column needs an interchange or a small pivot
    if (n > 1) a.row(0).swap(a.row(n - 1));
    a += Matrix::Identity(n, n) * Scalar(0.1);
    const Vector x_true = Vector::Random(n);
    const Vector b = a * x_true;
    DenseLUOf<Scalar> lu;
    lu.matrix() = a;
    REQUIRE(lu.factor());
    Vector x = b;
    lu.solve(x, x);
    const Vector x_eigen = Eigen::PartialPivLU<Matrix>(a).solve(b);
    CHECK((x - x_eigen).norm() <= 1e-10 * x_eigen.norm());
    CHECK((a * x - b).norm() <= 1e-12 * a.norm() * x.norm());

    if (n > 1) {
      Matrix zero_column = a;
      zero_column.col(n / 2).setZero();
      CHECK_FALSE(lu.factor(zero_column));
      Matrix non_finite = a;
      non_finite(n - 1, 0) = Scalar(std::nan(""));
      CHECK_FALSE(lu.factor(non_finite));
      non_finite(n - 1, 0) = Scalar(HUGE_VAL);
      CHECK_FALSE(lu.factor(non_finite));
    }
  }
}

TEST_CASE("dense LU, real and complex, small and large: one answer on both sides of the written-out loops' limits",
          "[unit][linalg]") {
  check_dense_sizes<double>();
  check_dense_sizes<std::complex<double>>();
}

// The sparse and dense LUs of one matrix give one solution; with a row of zeros in the
// pattern the sparse LU reports the matrix singular.
template <class Scalar>
void check_sparse_against_dense(const Eigen::SparseMatrix<Scalar>& a, const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& b,
                                int empty_row) {
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> xs, xd;
  SparseLUOf<Scalar> sparse;
  sparse.analyze(a);
  REQUIRE(sparse.factor(a));
  sparse.solve(b, xs);
  DenseLUOf<Scalar> dense;
  REQUIRE(dense.factor(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>(a)));
  dense.solve(b, xd);
  CHECK((xs - xd).norm() < 1e-12 * xd.norm());

  Eigen::SparseMatrix<Scalar> s = a;
  for (int k = 0; k < s.outerSize(); ++k)
    for (typename Eigen::SparseMatrix<Scalar>::InnerIterator it(s, k); it; ++it)
      if (it.row() == empty_row) it.valueRef() = Scalar(0.0);
  SparseLUOf<Scalar> singular;
  singular.analyze(s);
  CHECK_FALSE(singular.factor(s));
}

TEST_CASE("sparse LU agrees with dense LU and reports singular matrices", "[unit][linalg][sparse]") {
  const int n = 50;
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 4.0);
    if (i > 0) t.emplace_back(i, i - 1, -1.0);
    if (i + 1 < n) t.emplace_back(i, i + 1, -1.0);
  }
  t.emplace_back(0, n - 1, 0.5);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  check_sparse_against_dense<double>(a, Eigen::VectorXd::LinSpaced(n, 0, 1), 3);
}

TEST_CASE("complex sparse LU agrees with complex dense LU and reports singular matrices", "[unit][linalg][sparse]") {
  const int n = 60;
  const std::complex<double> shift(2.7, 3.1);
  std::vector<Eigen::Triplet<std::complex<double>>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, shift + 4.0);
    t.emplace_back(i, (i + 1) % n, -1.0);
    t.emplace_back((i + 7) % n, i, std::complex<double>(0.5, -0.25));
  }
  Eigen::SparseMatrix<std::complex<double>> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  const Eigen::VectorXcd b = Eigen::VectorXcd::LinSpaced(n, {0.0, 1.0}, {1.0, -1.0});
  check_sparse_against_dense<std::complex<double>>(a, b, 5);
  // Refactoring with new values in the same pattern.
  ComplexSparseLU sparse;
  sparse.analyze(a);
  a *= std::complex<double>(0.0, 2.0);
  REQUIRE(sparse.factor(a));
  Eigen::VectorXcd x;
  sparse.solve(b, x);
  CHECK((a * x - b).norm() < 1e-12 * b.norm());
}

TEST_CASE("complex sparse LU with a dense block (the supernodal backend) agrees with dense LU",
          "[unit][linalg][sparse]") {
  // Above 16 non-zeros per column the complex LU is Eigen's supernodal SparseLU, below it
  // KLU (the test above): a dense 40 x 40 block in a matrix of 60 is the first case, as
  // Fekete's force block is.
  const int n = 60, block = 40;
  std::vector<Eigen::Triplet<std::complex<double>>> t;
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, std::complex<double>(50.0, 20.0));
  for (int i = 0; i < block; ++i)
    for (int j = 0; j < block; ++j)
      if (i != j) t.emplace_back(i, j, std::complex<double>(std::sin(i + 2.0 * j), std::cos(3.0 * i - j)));
  for (int i = block; i < n; ++i) t.emplace_back(i, i - block, std::complex<double>(1.0, -1.0));
  Eigen::SparseMatrix<std::complex<double>> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  REQUIRE(static_cast<double>(a.nonZeros()) / n > 16.0);
  const Eigen::VectorXcd b = Eigen::VectorXcd::LinSpaced(n, {1.0, 0.0}, {0.0, 1.0});
  check_sparse_against_dense<std::complex<double>>(a, b, 7);
}

TEST_CASE("the sparse LUs report their fill: a tridiagonal matrix factorises without any", "[unit][linalg][sparse]") {
  // A path graph has a fill-free elimination order, which every ordering finds: L and U
  // hold the matrix's own 3n - 2 entries (L's unit diagonal not stored).
  const int n = 2000;
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 4.0);
    if (i > 0) t.emplace_back(i, i - 1, -1.0);
    if (i + 1 < n) t.emplace_back(i, i + 1, -1.0);
  }
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  SparseLUOf<double> before;
  CHECK(before.footprint().entries == -1);  // nothing factorised yet
  SECTION("UMFPACK") {
    SparseLUOf<double> lu;
    lu.set_factoriser(SparseFactoriser::umfpack);
    REQUIRE(lu.factor(a));
    REQUIRE(lu.factoriser() == SparseFactoriser::umfpack);  // its module is built beside the core
    CHECK(lu.footprint().entries == 3 * n - 2);
    CHECK(lu.footprint().bytes >= (3 * n - 2) * 8.0);
  }
  SECTION("the supernodal LU") {
    SparseLUOf<double> lu;
    lu.set_factoriser(SparseFactoriser::supernodal);
    REQUIRE(lu.factor(a));
    CHECK(lu.footprint().entries >= 3 * n - 2);
    CHECK(lu.footprint().entries <= 4 * n);  // its supernodes may store the diagonal twice, no more
  }
}
