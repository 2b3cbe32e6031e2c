// The sparse path (pattern from the problem, sparse LU of W) gives the same
// answer as the dense path on the same problem.
#include <catch2/catch.hpp>

#include "harness.hpp"

using namespace daekit;

TEST_CASE("sparse and dense linear algebra agree on a reaction-diffusion problem", "[conformance][sparse]") {
  test::RunSpec sparse, dense;
  sparse.problem = "bruss_sparse";
  dense.problem = "bruss_dense";
  sparse.rtol = dense.rtol = 1e-8;
  const auto s = test::run(sparse), d = test::run(dense);
  REQUIRE(s.status() == Status::success);
  REQUIRE(d.status() == Status::success);
  // The same steps: the methods see the same matrices up to round-off.
  CHECK(s.stats().accepted == d.stats().accepted);
  CHECK((s.y_end() - d.y_end()).cwiseAbs().maxCoeff() < 1e-9);
  CHECK(s.stats().jacobian_used == DK_JACOBIAN_ANALYTIC);
}

TEST_CASE("finite differences inside a sparsity pattern match the analytic sparse Jacobian",
          "[conformance][sparse]") {
  test::RunSpec analytic, fd;
  analytic.problem = fd.problem = "bruss_sparse";
  analytic.rtol = fd.rtol = 1e-6;
  fd.tweak = [](dk_solve_options& o, std::vector<double>&) { o.jacobian = DK_JACOBIAN_FINITE_DIFFERENCE; };
  const auto a = test::run(analytic), f = test::run(fd);
  REQUIRE(a.status() == Status::success);
  REQUIRE(f.status() == Status::success);
  CHECK(f.stats().jacobian_used == DK_JACOBIAN_FINITE_DIFFERENCE);
  CHECK(f.stats().nfev_jac == f.stats().njac * 80);
  CHECK((a.y_end() - f.y_end()).cwiseAbs().maxCoeff() < 1e-4);
}
