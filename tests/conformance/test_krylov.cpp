// linear_solver=krylov (numerics/newton_krylov.hpp): every Krylov method and preconditioner
// reproduces the direct LUs' solution to the tolerance, on the mass-matrix and the residual
// form, matrix-free or not; a Krylov method that cannot converge is a failed status or an
// accurate answer, never a wrong one; what cannot be had is refused before the run.
#include <catch2/catch.hpp>

#include <string_view>

#include "harness.hpp"

using namespace daekit;

namespace {

test::RunSpec brusselator(const std::string& linear, double rtol, double tend = 1.5) {
  test::RunSpec spec = test::spec_for("brusselator", "bdf", rtol);
  spec.params = {{"N", "16"}};
  spec.solver_options["linear_solver"] = linear;
  spec.tweak = [tend](dk_solve_options& o, std::vector<double>&) { o.tend = tend; };
  return spec;
}

// The largest error in the error test's units, against a reference solution.
double weighted_error(const Eigen::VectorXd& y, const Eigen::VectorXd& ref, double rtol) {
  return ((y - ref).array().abs() / (rtol + rtol * ref.array().abs())).maxCoeff();
}

}  // namespace

TEST_CASE("every Krylov method and preconditioner matches the direct LUs on the brusselator",
          "[conformance][krylov]") {
  const double rtol = 1e-6;
  const auto reference = test::run(brusselator("auto", 1e-10));
  const auto direct = test::run(brusselator("auto", rtol));
  REQUIRE(reference.status() == Status::success);
  REQUIRE(direct.status() == Status::success);
  const double direct_error = weighted_error(direct.y_end(), reference.y_end(), rtol);
  for (const char* method : {"gmres", "fgmres", "bicgstab"})
    for (const char* preconditioner : {"none", "jacobi", "ilu", "problem"}) {
      INFO(method << " with preconditioner " << preconditioner);
      test::RunSpec spec = brusselator("krylov", rtol);
      spec.solver_options["krylov"] = method;
      spec.solver_options["preconditioner"] = preconditioner;
      const auto k = test::run(spec);
      REQUIRE(k.status() == Status::success);
      CHECK(k.stats().linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
      CHECK(k.stats().nlin_iters > 0);
      CHECK(k.stats().nlu == 0);
      // As accurate as the direct solve: the Krylov tolerance sits below Newton's.
      const double error = weighted_error(k.y_end(), reference.y_end(), rtol);
      CHECK(error <= 3.0 * direct_error + 1.0);
      if (std::string_view(preconditioner) != "none") CHECK(k.stats().nprec_solves > 0);
      // The problem gives J v: no difference of f is spent on products.
      CHECK(k.stats().njtv > 0);
    }
}

TEST_CASE("the Rosenbrock family's stages by Krylov match its direct LUs", "[conformance][krylov]") {
  const double rtol = 1e-6;
  const auto reference = test::run(brusselator("auto", 1e-10));
  for (const char* solver : {"rodas5p", "ros34pw2", "rodas4"})
    for (const char* preconditioner : {"problem", "ilu"}) {
      INFO(solver << " with preconditioner " << preconditioner);
      test::RunSpec direct = brusselator("auto", rtol);
      direct.solver = solver;
      test::RunSpec spec = direct;
      spec.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", preconditioner}};
      const auto d = test::run(direct), k = test::run(spec);
      REQUIRE(d.status() == Status::success);
      REQUIRE(k.status() == Status::success);
      CHECK(k.stats().nlu == 0);
      CHECK(k.stats().nlin_iters > 0);
      // The stages are solved well below the tolerance: the same steps, the same accuracy.
      CHECK(std::abs(k.stats().accepted - d.stats().accepted) <= 2 + d.stats().accepted / 10);
      CHECK(weighted_error(k.y_end(), reference.y_end(), rtol) <=
            3.0 * weighted_error(d.y_end(), reference.y_end(), rtol) + 1.0);
    }
  // The index-1 DAE form (a singular M): its algebraic rows scaled, as in bdf.
  test::RunSpec direct = test::spec_for("rober_dae", "rodas5p", 1e-7), krylov = direct;
  direct.tweak = krylov.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 1e5; };
  krylov.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
  const auto d = test::run(direct), k = test::run(krylov);
  REQUIRE(d.status() == Status::success);
  REQUIRE(k.status() == Status::success);
  CHECK(weighted_error(k.y_end(), d.y_end(), 1e-7) < 30.0);
}

TEST_CASE("a matrix-free problem (no pattern, no Jacobian) is solved with J v and its preconditioner",
          "[conformance][krylov]") {
  const double rtol = 1e-6;
  const auto reference = test::run(brusselator("auto", 1e-10));
  test::RunSpec spec = brusselator("krylov", rtol);
  spec.params["matrix_free"] = "true";
  const auto k = test::run(spec);
  REQUIRE(k.status() == Status::success);
  CHECK(k.stats().njac == k.stats().nprec_setups - k.stats().njac_reused);  // the problem's own data
  CHECK(k.stats().nfev_jac == 0);
  CHECK(weighted_error(k.y_end(), reference.y_end(), rtol) < 30.0);
  // Without the problem's preconditioner a pattern-based one cannot be had.
  spec.solver_options["preconditioner"] = "ilu";
  const auto refused = test::run(spec);
  CHECK(refused.status() == Status::invalid_input);
}

TEST_CASE("J v by differences of f, and the residual form, give the direct answer", "[conformance][krylov]") {
  for (const char* problem : {"rober", "rober_dae", "rober_residual"}) {
    INFO(problem);
    test::RunSpec direct = test::spec_for(problem, "bdf", 1e-7), krylov = direct;
    direct.tweak = krylov.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 1e5; };
    krylov.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
    const auto d = test::run(direct), k = test::run(krylov);
    REQUIRE(d.status() == Status::success);
    REQUIRE(k.status() == Status::success);
    CHECK(k.stats().njtv > 0);
    CHECK(k.stats().nfev > d.stats().nfev);  // the products' differences are evaluations of f
    CHECK(weighted_error(k.y_end(), d.y_end(), 1e-7) < 30.0);
  }
}

TEST_CASE("an AutoDiffProblem's J v is exact and costs no evaluation of f", "[conformance][krylov]") {
  // emep (66 species) is written once as a template: its products come from one dual pass.
  test::RunSpec direct = test::spec_for("emep", "bdf", 1e-5), krylov = direct;
  direct.tweak = krylov.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 30000; };
  krylov.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
  const auto d = test::run(direct), k = test::run(krylov);
  REQUIRE(d.status() == Status::success);
  REQUIRE(k.status() == Status::success);
  CHECK(k.stats().njtv >= k.stats().nlin_iters);
  CHECK(k.stats().nfev <= k.stats().nnewton + k.stats().steps + 10);  // residuals only, no products
  CHECK(weighted_error(k.y_end(), d.y_end(), 1e-5) < 30.0);
}

TEST_CASE("a Krylov method starved of vectors fails or stays accurate, never silently wrong",
          "[conformance][krylov]") {
  const double rtol = 1e-6;
  const auto reference = test::run(brusselator("auto", 1e-10));
  for (int dimension = 1; dimension <= 3; ++dimension) {
    INFO("krylov_dim " << dimension);
    test::RunSpec spec = brusselator("krylov", rtol);
    spec.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"},
                           {"krylov_dim", std::to_string(dimension)}, {"krylov_restarts", "0"}};
    const auto k = test::run(spec);
    if (k.status() == Status::success) CHECK(weighted_error(k.y_end(), reference.y_end(), rtol) < 30.0);
    else CHECK(k.result.message[0] != '\0');
  }
}

TEST_CASE("Krylov options that cannot serve the problem are refused before the run", "[conformance][krylov]") {
  // The problem's preconditioner on a problem without one.
  test::RunSpec spec = test::spec_for("rober", "bdf", 1e-6);
  spec.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "problem"}};
  auto r = test::run(spec);
  CHECK(r.status() == Status::invalid_input);
  CHECK(std::string_view(r.result.message).find("gives no preconditioner") != std::string::npos);
  // A pattern-based preconditioner on the residual form.
  spec.problem = "rober_residual";
  spec.solver_options["preconditioner"] = "jacobi";
  r = test::run(spec);
  CHECK(r.status() == Status::invalid_input);
  // Unknown values and out-of-range numbers name the option.
  spec.solver_options = {{"linear_solver", "krylov"}, {"krylov", "cg"}};
  r = test::run(spec);
  CHECK(r.status() == Status::invalid_input);
  spec.solver_options = {{"linear_solver", "krylov"}, {"krylov_dim", "0"}};
  r = test::run(spec);
  CHECK(r.status() == Status::invalid_input);
  CHECK(std::string_view(r.result.message).find("krylov_dim") != std::string::npos);
  // Sensitivities are not there yet with Krylov: refused, not computed with the wrong matrix.
  for (const char* solver : {"bdf", "rodas5p"}) {
    INFO(solver);
    spec = test::spec_for("rober", solver, 1e-6);
    spec.solver_options = {{"linear_solver", "krylov"}};
    spec.tweak = [](dk_solve_options& o, std::vector<double>&) {
      static const std::int32_t index[] = {0};
      o.nsens = 1;
      o.sens_index = index;
    };
    r = test::run(spec);
    CHECK(r.status() == Status::unsupported_problem);
  }
  // linear_solver=sparse without a pattern.
  spec = test::spec_for("rober", "rodas5p", 1e-6);
  spec.solver_options = {{"linear_solver", "sparse"}};
  CHECK(test::run(spec).status() == Status::invalid_input);
}
