#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/abi.h>
#include <daekit/scoring.hpp>

using namespace daekit;

TEST_CASE("scd is -log10 of the largest relative error over scored components", "[unit][scoring]") {
  Eigen::VectorXd ref(3), y(3), tol = Eigen::VectorXd::Constant(3, 1e-6);
  ref << 1.0, 2.0, 100.0;
  y << 1.0 + 1e-5, 2.0, 100.0 + 1.0;  // rel errors 1e-5, 0, 1e-2
  const std::uint8_t all[] = {1, 1, 1}, first_two[] = {1, 1, 0};
  CHECK(score(y, ref, all, tol, tol).scd == Approx(2.0));
  CHECK(score(y, ref, first_two, tol, tol).scd == Approx(5.0));
  CHECK(score(y, ref, first_two, tol, tol).scored_components == 2);
}

TEST_CASE("scd follows the test set's conventions at the edges", "[unit][scoring]") {
  Eigen::VectorXd ref(2), y(2), tol = Eigen::VectorXd::Constant(2, 1e-6);
  ref << 1.0, 0.0;  // an exact zero never enters scd
  y << 1.0, 1e-3;
  const std::uint8_t all[] = {1, 1};
  const Accuracy exact = score(y, ref, all, tol, tol);
  CHECK(exact.scd == Approx(16.0));  // error 0 counts as 1e-16
  CHECK(exact.scored_components == 1);
  // mescd counts every component: |1e-3| / (atol/rtol + 0) = 1e-3
  CHECK(exact.mescd == Approx(3.0));
  y[0] = std::nan("");
  CHECK(std::isinf(score(y, ref, all, tol, tol).scd));
}

TEST_CASE("components marked absolute enter scd with their absolute error", "[unit][scoring]") {
  Eigen::VectorXd yref(3), y(3), tol = Eigen::VectorXd::Constant(3, 1e-6);
  yref << 1e-150, 2.0, 1.0;
  y << 1e-150 + 1e-7, 2.0 + 2e-6, 1.0;
  const std::uint8_t marks[3] = {DK_SCORED_ABSOLUTE, DK_SCORED_ABSOLUTE, DK_SCORED_NO};
  const Accuracy a = score(y, yref, marks, tol, tol);
  // Relative, the first component would count 1e143; absolute: max(1e-7, 2e-6) = 2e-6.
  CHECK(a.scd == Approx(-std::log10(2e-6)));
  CHECK(a.scored_components == 2);
}
