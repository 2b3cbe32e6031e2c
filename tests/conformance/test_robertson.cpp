// Robertson (ODE and index-1 DAE) against the test set's reference, output modes,
// and a cross-check between the two formulations.
#include <catch2/catch.hpp>
#include <iostream>
#include <map>

#include "harness.hpp"

using namespace daekit;

namespace {
test::RunSpec rober(const char* problem, double rtol) {
  test::RunSpec s;
  s.problem = problem;
  s.rtol = rtol;
  s.atol = 1e-4 * rtol;  // the test set's setting for rober
  return s;
}
}  // namespace

TEST_CASE("Rodas5P solves Robertson (ODE and DAE) to the accuracy the tolerance warrants",
          "[conformance][plugin:rodas5p]") {
  // y2 ~ 8e-14 at t = 1e11 lies below atol = 1e-4 rtol for every rtol here, so the
  // tolerance warrants few relative digits in it: the mixed measure mescd must reach
  // rtol's digits less one; scd must not fall below what was measured when this test
  // was written (4.65, 5.59, 7.21) by more than half a digit.
  const std::map<double, double> scd_floor{{1e-6, 4.1}, {1e-8, 5.1}, {1e-10, 6.7}};
  for (const char* name : {"rober", "rober_dae"})
    for (double rtol : {1e-6, 1e-8, 1e-10}) {
      const auto r = test::run(rober(name, rtol));
      INFO(name << " rtol " << rtol << ": " << r.message());
      REQUIRE(r.status() == Status::success);
      const Accuracy a = r.accuracy(rtol, 1e-4 * rtol);
      std::cout << name << " rodas5p rtol " << rtol << ": scd " << a.scd << ", mescd " << a.mescd << ", steps "
                << r.stats().steps << "\n";
      CHECK(a.mescd >= -std::log10(rtol) - 1.0);
      CHECK(a.scd >= scd_floor.at(rtol));
    }
}

TEST_CASE("the ODE and the DAE form of Robertson agree", "[conformance][dae][crosscheck]") {
  const auto ode = test::run(rober("rober", 1e-9)), dae = test::run(rober("rober_dae", 1e-9));
  REQUIRE(ode.status() == Status::success);
  REQUIRE(dae.status() == Status::success);
  const Eigen::VectorXd a = ode.y_end(), b = dae.y_end();
  for (int i = 0; i < 3; ++i) CHECK(std::abs(a[i] - b[i]) <= 1e-6 * std::abs(a[i]) + 1e-16);
  // The DAE keeps the conservation law to round-off; the ODE to the tolerance.
  CHECK(std::abs(b.sum() - 1.0) < 1e-12);
}

TEST_CASE("every-step output is monotone and ends at tend", "[conformance][output]") {
  auto spec = rober("rober", 1e-6);
  spec.output = DK_OUTPUT_EVERY_STEP;
  const auto r = test::run(spec);
  REQUIRE(r.status() == Status::success);
  REQUIRE(r.t.size() == static_cast<std::size_t>(r.stats().accepted) + 1);
  CHECK(r.t.front() == 0.0);
  CHECK(r.t.back() == 1e11);
  for (std::size_t k = 1; k < r.t.size(); ++k) CHECK(r.t[k] > r.t[k - 1]);
}

TEST_CASE("saveat output hits the requested times and agrees with stopping there", "[conformance][output]") {
  const std::vector<double> times{0.0, 0.4, 40.0, 4e5, 1e11};
  auto spec = rober("rober", 1e-8);
  spec.output = DK_OUTPUT_SAVEAT;
  spec.saveat = times;
  const auto r = test::run(spec);
  REQUIRE(r.status() == Status::success);
  REQUIRE(r.t == times);
  // Dense output at t = 40 against an independent run that ends at 40.
  auto stop = rober("rober", 1e-10);
  stop.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 40.0; };
  const auto s = test::run(stop);
  REQUIRE(s.status() == Status::success);
  const Eigen::VectorXd a = r.y_at(2), b = s.y_end();
  for (int i = 0; i < 3; ++i) CHECK(std::abs(a[i] - b[i]) <= 1e-6 * std::abs(b[i]) + 1e-12);
}

TEST_CASE("finite-difference and analytic Jacobians give the same answer", "[conformance][crosscheck]") {
  for (const char* name : {"rober", "rober_dae"}) {
  INFO(name);
  auto analytic = rober(name, 1e-8), fd = rober(name, 1e-8);
  fd.tweak = [](dk_solve_options& o, std::vector<double>&) { o.jacobian = DK_JACOBIAN_FINITE_DIFFERENCE; };
  const auto a = test::run(analytic), b = test::run(fd);
  REQUIRE(a.status() == Status::success);
  REQUIRE(b.status() == Status::success);
  CHECK(b.stats().nfev_jac > 0);
  CHECK(a.stats().nfev_jac == 0);
  CHECK(b.stats().jacobian_used == DK_JACOBIAN_FINITE_DIFFERENCE);
  // Rodas5P needs the exact Jacobian for its order: differences may cost a little accuracy,
  // not more than a digit (measured: mescd 9.27 analytic, 8.52 differences).
  CHECK(b.accuracy(1e-8, 1e-12).mescd >= a.accuracy(1e-8, 1e-12).mescd - 1.0);
  CHECK(b.accuracy(1e-8, 1e-12).scd >= 4.5);
  }
}
