// The sparse path (pattern from the problem, sparse LU of W) gives the same
// answer as the dense path on the same problem.
#include <catch2/catch.hpp>

#include <daekit/numerics/column_colouring.hpp>

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

TEST_CASE("a pattern whose rows are listed in any order gives the same Jacobian", "[conformance][sparse]") {
  // The SDK sorts the pattern for the ABI and reorders the author's values to match.
  const auto first = test::run(test::spec_for("bruss_unsorted", "rodas5p", 1e-6));
  REQUIRE(first.problem);
  const dk_sparsity& pattern = first.problem->info().jac_pattern;
  for (std::size_t j = 0; j < 80; ++j)
    for (auto k = pattern.col_ptr[j] + 1; k < pattern.col_ptr[j + 1]; ++k) REQUIRE(pattern.row_idx[k] > pattern.row_idx[k - 1]);
  for (const char* solver : {"rodas5p", "radau5", "bdf"}) {
    INFO(solver);
    const auto sorted = test::run(test::spec_for("bruss_sparse", solver, 1e-8));
    const auto unsorted = test::run(test::spec_for("bruss_unsorted", solver, 1e-8));
    REQUIRE(sorted.status() == Status::success);
    REQUIRE(unsorted.status() == Status::success);
    CHECK(sorted.stats().accepted == unsorted.stats().accepted);
    CHECK((sorted.y_end() - unsorted.y_end()).cwiseAbs().maxCoeff() < 1e-12);
  }
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
  // Coloured: one evaluation per colour of the pattern, far fewer than its 80 columns.
  const dk_sparsity& pattern = f.problem->info().jac_pattern;
  const ColumnColouring colouring = colour_columns(80, pattern.col_ptr, pattern.row_idx);
  CHECK(colouring.colours <= 6);
  CHECK(f.stats().nfev_jac == f.stats().njac * colouring.colours);
  CHECK((a.y_end() - f.y_end()).cwiseAbs().maxCoeff() < 1e-4);

  // Column by column on request: the same Jacobian up to the increments' rounding.
  test::RunSpec columns = fd;
  columns.solver_options["fd_colouring"] = "false";
  const auto c = test::run(columns);
  REQUIRE(c.status() == Status::success);
  CHECK(c.stats().nfev_jac == c.stats().njac * 80);
  CHECK((c.y_end() - f.y_end()).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("coloured differences fill a dense Jacobian from the declared pattern", "[conformance][sparse]") {
  // radau5 with dense LUs on a problem with a pattern: the pattern still colours the differences.
  test::RunSpec analytic = test::spec_for("bruss_sparse", "radau5", 1e-6), fd = analytic;
  analytic.solver_options["linear_solver"] = fd.solver_options["linear_solver"] = "dense";
  fd.tweak = [](dk_solve_options& o, std::vector<double>&) { o.jacobian = DK_JACOBIAN_FINITE_DIFFERENCE; };
  const auto a = test::run(analytic), f = test::run(fd);
  REQUIRE(a.status() == Status::success);
  REQUIRE(f.status() == Status::success);
  CHECK(f.stats().linear_algebra == DK_LINEAR_ALGEBRA_DENSE);
  CHECK(f.stats().nfev_jac < f.stats().njac * 10);
  CHECK((a.y_end() - f.y_end()).cwiseAbs().maxCoeff() < 1e-4);
}

TEST_CASE("every sparse LU and ordering gives the same solution", "[conformance][sparse]") {
  // heat2d N = 30 (n = 1024): small enough for every factorisation, with a closed form.
  test::RunSpec base = test::spec_for("heat2d", "radau5", 1e-7);
  base.params["N"] = "30";
  base.solver_options["linear_solver"] = "sparse";  // auto takes Krylov on heat2d from n = 1000
  const auto reference = test::run(base);
  REQUIRE(reference.status() == Status::success);
  for (const char* lu : {"supernodal", "klu", "umfpack"})
    for (const char* ordering : {"colamd", "metis"}) {
      INFO(lu << " with " << ordering);
      test::RunSpec spec = base;
      spec.solver_options["sparse_lu"] = lu;
      spec.solver_options["sparse_ordering"] = ordering;
      const auto r = test::run(spec);
      REQUIRE(r.status() == Status::success);
      CHECK(r.stats().linear_algebra == DK_LINEAR_ALGEBRA_SPARSE);
      // The same method on the same matrices: the LUs differ only in rounding.
      CHECK(std::abs(r.stats().accepted - reference.stats().accepted) <= 1);
      CHECK((r.y_end() - reference.y_end()).cwiseAbs().maxCoeff() < 1e-9);
    }
}
