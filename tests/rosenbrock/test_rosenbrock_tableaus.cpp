// The Rosenbrock tableaus are data in the transformed form (kits/rosenbrock/tableau.hpp):
// a = alpha Gamma^-1, C = diag(1/gamma) - Gamma^-1, b = m Gamma^-1-weights of the u_i = Gamma k_i.
// These checks undo the transformation and verify what the published methods state, so a
// mistyped coefficient shows as a broken identity instead of as a slow or wrong solver:
//   - d_i = sum_j gamma_ij (the time-derivative weights are the row sums of Gamma),
//   - c_i = sum_j alpha_ij,
//   - the solution and its embedded partner are consistent (weights sum to 1 and 0),
//   - the classical order-2 condition b^T (alpha + Gamma) 1 = 1/2 for both.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <daekit/kits/rosenbrock/tableaus/all_rosenbrock.hpp>

using namespace daekit;

namespace {

struct Untransformed {
  Eigen::MatrixXd alpha, gamma;
  Eigen::RowVectorXd b, e;  // weights of the solution and of the error estimate
};

Untransformed untransform(const tableaus::RosenbrockTableau& tab) {
  const int s = tab.stages;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(s, s), a = Eigen::MatrixXd::Zero(s, s);
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < i; ++j) C(i, j) = tab.C[i][j], a(i, j) = tab.a[i][j];
  const Eigen::MatrixXd gamma_inv = Eigen::MatrixXd::Identity(s, s) / tab.gamma - C;
  Untransformed u;
  u.gamma = gamma_inv.inverse();
  u.alpha = a * u.gamma;
  u.b.resize(s);
  u.e.resize(s);
  for (int i = 0; i < s; ++i) u.b[i] = tab.b[i], u.e[i] = tab.btilde[i];
  u.b = u.b * u.gamma;
  u.e = u.e * u.gamma;
  return u;
}

}  // namespace

TEST_CASE("every Rosenbrock tableau's time-derivative weights are the row sums of its Gamma", "[unit][tableau]") {
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  INFO(tab->name);
  const Untransformed u = untransform(*tab);
  for (int i = 0; i < tab->stages; ++i) {
    INFO("stage " << i + 1);
    CHECK(tab->d[i] == Approx(u.gamma.row(i).sum()).margin(1e-12));
  }
}

TEST_CASE("every Rosenbrock tableau's nodes are the row sums of its alpha", "[unit][tableau]") {
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  INFO(tab->name);
  const Untransformed u = untransform(*tab);
  for (int i = 0; i < tab->stages; ++i) {
    INFO("stage " << i + 1);
    CHECK(tab->c[i] == Approx(u.alpha.row(i).sum()).margin(1e-12));
  }
}

TEST_CASE("every Rosenbrock tableau's solution is consistent and its estimate is a difference", "[unit][tableau]") {
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  INFO(tab->name);
  const Untransformed u = untransform(*tab);
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(tab->stages);
  CHECK(u.b.sum() == Approx(1.0).margin(1e-12));
  CHECK(u.e.sum() == Approx(0.0).margin(1e-12));
  // Order 2 for the solution; for the embedded solution b - e where its order is at least 2.
  CHECK((u.b * (u.alpha + u.gamma) * ones)(0) == Approx(0.5).margin(1e-12));
  if (tab->embedded_order >= 2) CHECK((u.e * (u.alpha + u.gamma) * ones)(0) == Approx(0.0).margin(1e-12));
  // The estimate must see something: not identically zero.
  CHECK(u.e.cwiseAbs().maxCoeff() > 1e-3);
}

TEST_CASE("every Rosenbrock error estimate sees the error on y' = lambda y", "[unit][tableau]") {
  // A method whose stages degenerate on linear constant-coefficient problems (Lang and
  // Verwer's ROS3P: k2 = (1 - a21) k1 there) can have an estimate that vanishes exactly on
  // them, and then accepts any step. With h = 1, y = 1 the stages solve
  // (1/gamma - z) k_i = z (1 + sum a_ij k_j) + sum C_ij k_j; the error is sum btilde_i k_i
  // and must be of the order of the true error |R(z) - e^z| at moderate z.
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  INFO(tab->name);
  for (double z : {-0.5, -2.0, -10.0}) {
    double k[tableaus::max_rosenbrock_stages] = {};
    double y_new = 1.0, err = 0.0;
    for (int i = 0; i < tab->stages; ++i) {
      double rhs = 1.0;
      for (int j = 0; j < i; ++j) rhs += tab->a[i][j] * k[j];
      rhs *= z;
      for (int j = 0; j < i; ++j) rhs += tab->C[i][j] * k[j];
      k[i] = rhs / (1.0 / tab->gamma - z);
      y_new += tab->b[i] * k[i];
      err += tab->btilde[i] * k[i];
    }
    const double true_error = std::abs(y_new - std::exp(z));
    INFO("z = " << z << ": estimate " << err << ", true error " << true_error);
    CHECK(std::abs(err) > 1e-3 * true_error);
  }
}
