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

TEST_CASE("the merged scores of a vector's parts are the whole vector's score, bit for bit", "[unit][scoring]") {
  // A problem spread over MPI ranks is scored rank by rank and merged on rank 0.
  const int n = 9;
  Eigen::VectorXd ref(n), y(n), rtol = Eigen::VectorXd::Constant(n, 1e-6), atol = Eigen::VectorXd::Constant(n, 1e-8);
  ref << 1.0, -2.0, 0.0, 3e-3, 5.0, 1e-250, 7.0, -8.0, 0.5;
  y << 1.0 + 1e-7, -2.0 + 3e-5, 2e-9, 3e-3 - 1e-9, 5.0, 1e-249, 7.0 - 7e-4, -8.0, 0.5 + 1e-12;
  const std::uint8_t scored[n] = {1, 1, 1, DK_SCORED_ABSOLUTE, 1, 1, DK_SCORED_NO, 1, 1};
  const std::uint8_t index[n] = {1, 2, 1, 1, 3, 1, 2, 2, 1};
  const Accuracy whole = score(y, ref, scored, rtol, atol, index);
  for (int cut = 1; cut < n; ++cut) {
    INFO("parts 0 .. " << cut - 1 << " and " << cut << " .. " << n - 1);
    const Accuracy a = score(y.head(cut), ref.head(cut), scored, rtol.head(cut), atol.head(cut), index);
    const Accuracy b = score(y.tail(n - cut), ref.tail(n - cut), scored + cut, rtol.tail(n - cut), atol.tail(n - cut),
                             index + cut);
    const Accuracy m = merged(a, b);
    CHECK(m.scd == whole.scd);
    CHECK(m.mescd == whole.mescd);
    CHECK(m.max_abs_error == whole.max_abs_error);
    CHECK(m.max_rel_error == whole.max_rel_error);
    CHECK(m.scored_components == whole.scored_components);
    for (int k = 0; k < 3; ++k) {
      INFO("index " << k + 1);
      CHECK((m.scd_by_index[k] == whole.scd_by_index[k] || (std::isnan(m.scd_by_index[k]) && std::isnan(whole.scd_by_index[k]))));
    }
  }
  // A part with a NaN makes the whole score as inaccurate as score() does.
  y[4] = std::nan("");
  const Accuracy broken = merged(score(y.head(5), ref.head(5), scored, rtol.head(5), atol.head(5), index),
                                 score(y.tail(4), ref.tail(4), scored + 5, rtol.tail(4), atol.tail(4), index + 5));
  CHECK(std::isinf(broken.scd));
  CHECK(std::isinf(score(y, ref, scored, rtol, atol, index).scd));
}
