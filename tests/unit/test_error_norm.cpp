#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/numerics/error_norm.hpp>

using daekit::ErrorNorm;
using daekit::PerComponent;

TEST_CASE("weighted RMS norm uses atol + rtol*max(|y_old|,|y_new|) per component", "[unit][norm]") {
  Eigen::VectorXd rtol(2), atol(2), err(2), y_old(2), y_new(2);
  rtol << 1e-3, 1e-3;
  atol << 1e-6, 1e-2;
  y_old << 1.0, 0.0;
  y_new << 2.0, 0.0;
  err << 2.001e-3, 1e-2;  // component 1 at scale 1e-6 + 2e-3, component 2 at scale 1e-2
  ErrorNorm norm(PerComponent(rtol), PerComponent(atol), {1, 1}, {true, true}, true);
  const double e1 = 2.001e-3 / (1e-6 + 2e-3), e2 = 1.0;
  CHECK(norm.rms(err, y_old, y_new, 0.1) == Approx(std::sqrt((e1 * e1 + e2 * e2) / 2)));
  CHECK(norm.max(err, y_old, y_new, 0.1) == Approx(std::max(e1, e2)));
}

TEST_CASE("index scaling multiplies index-k errors by h^(k-1) and can be turned off", "[unit][norm][dae]") {
  const PerComponent rtol(3, 0.0), atol(3, 1.0);
  Eigen::VectorXd err = Eigen::VectorXd::Ones(3), y = Eigen::VectorXd::Zero(3);
  ErrorNorm scaled(rtol, atol, {1, 2, 3}, {true, true, true}, true);
  const double h = 0.1;
  CHECK(scaled.max(err, y, y, h) == Approx(1.0));
  CHECK(scaled.rms(err, y, y, h) == Approx(std::sqrt((1 + h * h + h * h * h * h) / 3)));
  ErrorNorm plain(rtol, atol, {1, 2, 3}, {true, true, true}, false);
  CHECK(plain.rms(err, y, y, h) == Approx(1.0));
}

TEST_CASE("suppressed components leave the norm and its count", "[unit][norm][dae]") {
  Eigen::VectorXd err(2), y = Eigen::VectorXd::Zero(2);
  err << 0.5, 100.0;
  ErrorNorm norm(PerComponent(2, 0.0), PerComponent(2, 1.0), {1, 1}, {true, false}, true);
  CHECK(norm.rms(err, y, y, 1.0) == Approx(0.5));
  CHECK(norm.max(err, y, y, 1.0) == Approx(0.5));
}

TEST_CASE("a per-component tolerance is stored once when all components share it", "[unit][norm]") {
  const PerComponent one(4, 1e-6);
  CHECK(one.uniform());
  CHECK(one.size() == 4);
  for (Eigen::Index i = 0; i < 4; ++i) CHECK(one[i] == 1e-6);
  CHECK(one.expanded() == Eigen::VectorXd::Constant(4, 1e-6));

  Eigen::VectorXd equal = Eigen::VectorXd::Constant(3, 2e-8);
  CHECK(PerComponent(equal).uniform());  // n equal values given one by one collapse too

  Eigen::VectorXd mixed(3);
  mixed << 1e-6, 1e-9, 1e-3;
  const PerComponent each(mixed);
  CHECK_FALSE(each.uniform());
  CHECK(each.size() == 3);
  for (Eigen::Index i = 0; i < 3; ++i) CHECK(each[i] == mixed[i]);
  CHECK(each.minCoeff() == 1e-9);
  CHECK(each.maxCoeff() == 1e-3);
  CHECK(each.expanded() == mixed);

  // The norm with expanded and with compact tolerances: the same number.
  Eigen::VectorXd err(3), y(3);
  err << 1e-7, 3e-10, 2e-4;
  y << 0.5, -2.0, 10.0;
  const ErrorNorm compact(each, PerComponent(3, 1e-12), {1, 1, 1}, {true, true, true}, true);
  CHECK(compact.rms(err, y, y, 1.0) ==
        Approx(std::sqrt(((1e-7 / (1e-12 + 5e-7)) * (1e-7 / (1e-12 + 5e-7)) +
                          (3e-10 / (1e-12 + 2e-9)) * (3e-10 / (1e-12 + 2e-9)) +
                          (2e-4 / (1e-12 + 1e-2)) * (2e-4 / (1e-12 + 1e-2))) / 3.0)));
}
