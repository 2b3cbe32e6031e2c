#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/numerics/error_norm.hpp>

using daekit::ErrorNorm;

TEST_CASE("weighted RMS norm uses atol + rtol*max(|y_old|,|y_new|) per component", "[unit][norm]") {
  Eigen::VectorXd rtol(2), atol(2), err(2), y_old(2), y_new(2);
  rtol << 1e-3, 1e-3;
  atol << 1e-6, 1e-2;
  y_old << 1.0, 0.0;
  y_new << 2.0, 0.0;
  err << 2.001e-3, 1e-2;  // component 1 at scale 1e-6 + 2e-3, component 2 at scale 1e-2
  ErrorNorm norm(rtol, atol, {1, 1}, {true, true}, true);
  const double e1 = 2.001e-3 / (1e-6 + 2e-3), e2 = 1.0;
  CHECK(norm.rms(err, y_old, y_new, 0.1) == Approx(std::sqrt((e1 * e1 + e2 * e2) / 2)));
  CHECK(norm.max(err, y_old, y_new, 0.1) == Approx(std::max(e1, e2)));
}

TEST_CASE("index scaling multiplies index-k errors by h^(k-1) and can be turned off", "[unit][norm][dae]") {
  Eigen::VectorXd tol = Eigen::VectorXd::Constant(3, 1.0), err = Eigen::VectorXd::Ones(3), y = Eigen::VectorXd::Zero(3);
  ErrorNorm scaled(tol * 0.0, tol, {1, 2, 3}, {true, true, true}, true);
  const double h = 0.1;
  CHECK(scaled.max(err, y, y, h) == Approx(1.0));
  CHECK(scaled.rms(err, y, y, h) == Approx(std::sqrt((1 + h * h + h * h * h * h) / 3)));
  ErrorNorm plain(tol * 0.0, tol, {1, 2, 3}, {true, true, true}, false);
  CHECK(plain.rms(err, y, y, h) == Approx(1.0));
}

TEST_CASE("suppressed components leave the norm and its count", "[unit][norm][dae]") {
  Eigen::VectorXd tol = Eigen::VectorXd::Ones(2), err(2), y = Eigen::VectorXd::Zero(2);
  err << 0.5, 100.0;
  ErrorNorm norm(tol * 0.0, tol, {1, 1}, {true, false}, true);
  CHECK(norm.rms(err, y, y, 1.0) == Approx(0.5));
  CHECK(norm.max(err, y, y, 1.0) == Approx(0.5));
}
