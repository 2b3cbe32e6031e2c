// The mass-matrix storages of ABI 1.2 (dense, diagonal, sparse) solve the same DAE alike:
// every solver that claims DK_SOLVER_MASS_STORAGE, on the exact solution, with dense and
// sparse linear algebra, and with consistent initial values computed from the storage.
#include <catch2/catch.hpp>
#include <cmath>

#include "harness.hpp"

using namespace daekit;

namespace {

// tests/abi/fixtures/mass_storage_models.cpp: 20 blocks of (u, v, w).
Eigen::VectorXd exact(double t) {
  Eigen::VectorXd y(60);
  for (int k = 0; k < 20; ++k) {
    y[3 * k] = std::exp(-(1.0 + 0.5 * k) * t);
    y[3 * k + 1] = std::exp(-(50.0 + 10.0 * k) * t);
    y[3 * k + 2] = y[3 * k] + y[3 * k + 1];
  }
  return y;
}

double error_at_end(const test::RunResult& r) { return (r.y_end() - exact(1.0)).cwiseAbs().maxCoeff(); }

const dk_problem_info& info_of(const std::string& problem) {
  static std::map<std::string, std::shared_ptr<loader::ProblemInstance>> kept;
  auto& p = kept[problem];
  if (!p) p = std::make_shared<loader::ProblemInstance>(*test::registry().find(problem), std::map<std::string, std::string>{});
  return p->info();
}

}  // namespace

TEST_CASE("the SDK stores a default semi-explicit mass matrix as its diagonal, others as declared",
          "[conformance][mass]") {
  CHECK(info_of("massdae_diagonal").mass_storage == DK_MASS_STORAGE_DIAGONAL);
  CHECK(info_of("massdae_diagonal2").mass_storage == DK_MASS_STORAGE_DIAGONAL);
  CHECK(info_of("massdae_dense").mass_storage == DK_MASS_STORAGE_DENSE);
  const dk_problem_info& sparse = info_of("massdae_sparse");
  REQUIRE(sparse.mass_storage == DK_MASS_STORAGE_SPARSE);
  CHECK(sparse.mass_pattern.nnz == 60);
  // An ODE keeps the 1.1 description: identity mass needs no storage.
  CHECK(info_of("rober").mass_storage == DK_MASS_STORAGE_DENSE);
  CHECK(info_of("heat2d").mass_storage == DK_MASS_STORAGE_DIAGONAL);
}

TEST_CASE("every storage of M gives the exact solution with every solver that claims the storages",
          "[conformance][mass]") {
  const char* problems[] = {"massdae_dense", "massdae_sparse", "massdae_diagonal", "massdae_diagonal2"};
  for (const std::string solver : {"rodas5p", "rodas4", "ros34pw2", "radau5", "radauiia", "bdf", "ndf", "ida"}) {
    const loader::Plugin* plugin = test::registry().find(solver);
    REQUIRE(plugin);
    loader::SolverInstance instance(*plugin);
    CHECK((instance.info().flags & DK_SOLVER_MASS_STORAGE) != 0);
    for (const std::string problem : problems) {
      for (const char* linear : {"dense", "sparse"}) {
        // The Radau methods and ida choose their linear algebra; the others take the sparse
        // path whenever the problem gives a pattern.
        const bool chooses = solver == "radau5" || solver == "radauiia" || solver == "ida";
        if (!chooses && std::string(linear) == "dense") continue;
        test::RunSpec spec = test::spec_for(problem, solver, 1e-8);
        if (chooses) spec.solver_options["linear_solver"] = linear;
        if (solver == "ida") spec.solver_options["linear_solver"] = std::string(linear) == "dense" ? "core" : "klu";
        INFO(solver << " on " << problem << ", " << linear << " linear algebra");
        const test::RunResult r = test::run(spec);
        REQUIRE(r.status() == Status::success);
        // rtol = atol = 1e-8 on components of size <= 2: the global error stays well inside 1e-5.
        CHECK(error_at_end(r) < 1e-5);
      }
    }
  }
}

TEST_CASE("a sparse M and the same M stored dense take the same steps", "[conformance][mass]") {
  for (const std::string solver : {"rodas5p", "radau5", "radauiia", "bdf"}) {
    INFO(solver);
    const test::RunResult dense = test::run(test::spec_for("massdae_dense", solver, 1e-7));
    const test::RunResult sparse = test::run(test::spec_for("massdae_sparse", solver, 1e-7));
    REQUIRE(dense.status() == Status::success);
    REQUIRE(sparse.status() == Status::success);
    CHECK(dense.stats().accepted == sparse.stats().accepted);
    CHECK((dense.y_end() - sparse.y_end()).cwiseAbs().maxCoeff() < 1e-10);
  }
}

TEST_CASE("consistent initial values are computed from a sparse and a diagonal M", "[conformance][mass]") {
  for (const std::string problem : {"massdae_sparse", "massdae_diagonal2"}) {
    for (const std::string solver : {"rodas5p", "radau5", "ida"}) {
      INFO(solver << " on " << problem);
      // w off by 0.1 in every block: check refuses, fix repairs it (w is the algebraic component).
      test::RunSpec check = test::spec_for(problem, solver, 1e-8);
      check.tweak = [](dk_solve_options&, std::vector<double>& y0) {
        for (std::size_t k = 2; k < y0.size(); k += 3) y0[k] += 0.1;
      };
      test::set_init(check, DK_INIT_CHECK);
      const test::RunResult refused = test::run(check);
      CHECK(refused.status() == Status::inconsistent_initial_values);
      CHECK_THAT(refused.message(), Catch::Contains("inconsistent") && Catch::Contains("equation "));
      test::RunSpec fix = check;
      test::set_init(fix, DK_INIT_FIX_ALGEBRAIC);
      const test::RunResult fixed = test::run(fix);
      REQUIRE(fixed.status() == Status::success);
      CHECK(error_at_end(fixed) < 1e-5);
    }
  }
}

TEST_CASE("coloured differences meet every mass storage", "[conformance][mass]") {
  for (const std::string problem : {"massdae_sparse", "massdae_diagonal"}) {
    test::RunSpec spec = test::spec_for(problem, "radau5", 1e-8);
    spec.tweak = [](dk_solve_options& o, std::vector<double>&) { o.jacobian = DK_JACOBIAN_FINITE_DIFFERENCE; };
    const test::RunResult r = test::run(spec);
    REQUIRE(r.status() == Status::success);
    CHECK(error_at_end(r) < 1e-5);
    // The pattern's 60 columns fall into 3 colours (the blocks do not touch).
    CHECK(r.stats().nfev_jac == 3 * r.stats().njac);
  }
}

TEST_CASE("a time-dependent M in diagonal and sparse storage reaches the residual-form solvers", "[conformance][mass]") {
  for (const std::string problem : {"massdae_time_sparse", "massdae_time_diagonal"}) {
    CHECK(info_of(problem).mass_kind == DK_MASS_TIME_DEPENDENT);
    for (const std::string solver : {"bdf", "ida"}) {
      INFO(solver << " on " << problem);
      const test::RunResult r = test::run(test::spec_for(problem, solver, 1e-8));
      REQUIRE(r.status() == Status::success);
      CHECK(error_at_end(r) < 1e-5);
      CHECK(r.stats().nmass == 0);  // the SDK's residual reads M itself, in its storage
      if (solver == "bdf") {
        // The Newton matrix in the union of the patterns, sparse, 3 colours (the blocks do not touch).
        CHECK(r.stats().linear_algebra == DK_LINEAR_ALGEBRA_SPARSE);
        CHECK(r.stats().nfev_jac == 3 * r.stats().njac);
      }
    }
  }
}
