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

// `solver` with linear_solver=krylov and `preconditioner` against its direct LUs on the
// brusselator: as accurate against the reference; with `same_steps`, within a tenth of the
// LUs' steps (the systems solved well below the tolerance).
void check_against_lus(const char* solver, const char* preconditioner, bool same_steps,
                       const test::RunResult& reference, double rtol) {
  INFO(solver << " with preconditioner " << preconditioner);
  test::RunSpec direct = brusselator("sparse", rtol);
  direct.solver = solver;
  test::RunSpec spec = direct;
  spec.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", preconditioner}};
  const auto d = test::run(direct), k = test::run(spec);
  REQUIRE(d.status() == Status::success);
  REQUIRE(k.status() == Status::success);
  CHECK(k.stats().nlu == 0);
  CHECK(k.stats().nlin_iters > 0);
  if (same_steps) CHECK(std::abs(k.stats().accepted - d.stats().accepted) <= 2 + d.stats().accepted / 10);
  CHECK(weighted_error(k.y_end(), reference.y_end(), rtol) <=
        3.0 * weighted_error(d.y_end(), reference.y_end(), rtol) + 1.0);
}

// `solver` with `linear` on the matrix-free brusselator (no pattern, no Jacobian: J v and
// the problem's preconditioner alone): no difference columns, the reference's answer.
void check_matrix_free(const char* solver, const char* linear, const test::RunResult& reference, double rtol) {
  INFO(solver << " matrix-free");
  test::RunSpec free = brusselator(linear, rtol);
  free.solver = solver;
  free.params["matrix_free"] = "true";
  const auto k = test::run(free);
  REQUIRE(k.status() == Status::success);
  CHECK(k.stats().nfev_jac == 0);
  CHECK(weighted_error(k.y_end(), reference.y_end(), rtol) < 30.0);
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
    for (const char* preconditioner : {"none", "jacobi", "ilu", "amg", "problem"}) {
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
    for (const char* preconditioner : {"problem", "ilu", "amg"})
      check_against_lus(solver, preconditioner, true, reference, rtol);
  // The index-1 DAE form (a singular M): its algebraic rows scaled, as in bdf.
  test::RunSpec direct = test::spec_for("rober_dae", "rodas5p", 1e-7), krylov = direct;
  direct.tweak = krylov.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 1e5; };
  krylov.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
  const auto d = test::run(direct), k = test::run(krylov);
  REQUIRE(d.status() == Status::success);
  REQUIRE(k.status() == Status::success);
  CHECK(weighted_error(k.y_end(), d.y_end(), 1e-7) < 30.0);
}

TEST_CASE("radau5's real and complex stage systems by Krylov match its direct LUs", "[conformance][krylov]") {
  const double rtol = 1e-6;
  const auto reference = test::run(brusselator("auto", 1e-10));
  // The corrections to eplifac x the Newton tolerance: the steps and the accuracy of the LUs.
  for (const char* preconditioner : {"problem", "ilu", "amg"}) check_against_lus("radau5", preconditioner, true, reference, rtol);
  // On a larger grid, against a tight run of another family (measured 0.02 of the
  // tolerance; 1.6 at N = 128, where the corrections' RMS tolerance lets errors gather).
  test::RunSpec tight = brusselator("krylov", 1e-9, 0.5);
  tight.params = {{"N", "96"}, {"matrix_free", "true"}};
  const auto fine = test::run(tight);
  REQUIRE(fine.status() == Status::success);
  test::RunSpec on_96 = brusselator("krylov", rtol, 0.5);
  on_96.solver = "radau5";
  on_96.params = {{"N", "96"}};
  const auto l = test::run(on_96);
  REQUIRE(l.status() == Status::success);
  CHECK(weighted_error(l.y_end(), fine.y_end(), rtol) < 1.0);
  check_matrix_free("radau5", "krylov", reference, rtol);
  // Index-1 DAEs (algebraic rows scaled, in both systems) against the LUs: Robertson's
  // DAE form and the Akzo Nobel problem.
  for (const char* problem : {"rober_dae", "chemakzo"}) {
    INFO(problem);
    test::RunSpec d_spec = test::spec_for(problem, "radau5", 1e-7), k_spec = d_spec;
    if (std::string_view(problem) == "rober_dae")
      d_spec.tweak = k_spec.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 1e5; };
    k_spec.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
    const auto d = test::run(d_spec), k = test::run(k_spec);
    REQUIRE(d.status() == Status::success);
    REQUIRE(k.status() == Status::success);
    CHECK(k.stats().nlu == 0);
    CHECK(weighted_error(k.y_end(), d.y_end(), 1e-7) < 30.0);
  }
  // Index 2 and 3 are refused (h-scaled weights: andrews ended 9 digits off, fekete ran out of steps).
  for (const char* problem : {"fekete", "andrews"}) {
    test::RunSpec k_spec = test::spec_for(problem, "radau5", 1e-7);
    k_spec.solver_options = {{"linear_solver", "krylov"}};
    const auto k = test::run(k_spec);
    CHECK(k.status() == Status::unsupported_problem);
    CHECK_THAT(k.message(), Catch::Contains("krylov on DAEs of index"));
  }
  // auto takes Krylov past the crossover, as in the other families, but not with
  // sensitivities (not yet on the Krylov path): there the LUs; asked for, a refusal.
  test::RunSpec large = brusselator("auto", 1e-5, 0.2);
  large.solver = "radau5";
  large.params["N"] = "24";
  CHECK(test::run(large).stats().linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
  large.tweak = [](dk_solve_options& o, std::vector<double>&) {
    static const std::int32_t index[] = {-1};
    o.tend = 0.2;
    o.nsens = 1;
    o.sens_index = index;
  };
  const auto sens = test::run(large);
  REQUIRE(sens.status() == Status::success);
  CHECK(sens.stats().linear_algebra != DK_LINEAR_ALGEBRA_KRYLOV);
  large.solver_options["linear_solver"] = "krylov";
  const auto refused = test::run(large);
  CHECK(refused.status() == Status::unsupported_problem);
  CHECK_THAT(refused.message(), Catch::Contains("krylov with sensitivities"));
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

TEST_CASE("difference products keep Robertson's problem accurate to t = 1e11", "[conformance][krylov]") {
  // y1 ~ 2e-8 at the end, 200 times atol: when the difference's step moved y2 ~ 1e-13 by
  // 1e-12, every family (and CVODE with SUNDIALS' own difference quotient) ended with y1
  // 100 % wrong while every step passed its tests. rok4a projects J onto a Krylov space of
  // the same products (linear_solver=arnoldi); the others solve with GMRES, unpreconditioned.
  for (const char* solver : {"bdf", "rodas4", "ros34pw2", "cvode", "rok4a", "radau5"}) {
    INFO(solver);
    const bool projected = std::string_view(solver) == "rok4a";
    test::RunSpec direct = test::spec_for("rober", solver, 1e-6), krylov = direct;
    if (projected) krylov.solver_options = {{"linear_solver", "arnoldi"}};
    else krylov.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
    const auto d = test::run(direct), k = test::run(krylov);
    REQUIRE(d.status() == Status::success);
    REQUIRE(k.status() == Status::success);
    CHECK(k.stats().njtv > 0);
    CHECK(k.stats().nlu == 0);
    // Both within 1 % of the test set's reference (measured: 0.08 % to 0.7 %).
    CHECK(std::abs(k.y_end()[0] - d.y_end()[0]) < 0.02 * d.y_end()[0]);
  }
}

TEST_CASE("unpreconditioned Krylov on stiff kinetics: every family ends within reach of the tolerance or fails",
          "[conformance][krylov]") {
  // pollu (20 species, rates to 1e12) with GMRES(5) and no preconditioner: the Krylov
  // method fails at the steps accuracy wants, so every family runs thousands of steps
  // where its LU takes tens. Two ways that went silently wrong: CVODE accepted a solve
  // that only reduced its residual in its first Newton iteration (1049 tolerances off at
  // rtol 1e-6), and the Rosenbrock stages, solved to one tolerance per step whatever the
  // step, added up their errors (rodas5p 244 tolerances off at rtol 1e-4; CVODE 66 there).
  // Measured after, rtol 1e-4: at most 3.8 tolerances off (IDA fails its error test).
  const double rtol = 1e-4;
  for (const char* solver : {"bdf", "ndf", "rodas4", "rodas5p", "ros34pw2", "radau5", "cvode", "ida"}) {
    INFO(solver);
    test::RunSpec spec = test::spec_for("pollu", solver, rtol);
    spec.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "none"}};
    const auto k = test::run(spec);
    INFO(status_name(k.status()) << " " << k.message());
    if (k.status() != Status::success) {
      CHECK(k.message() != "");
      continue;
    }
    CHECK(k.stats().nlin_iters > 0);
    std::vector<double> ref;
    REQUIRE(k.problem->reference(ref));
    CHECK(weighted_error(k.y_end(), Eigen::Map<const Eigen::VectorXd>(ref.data(), k.y_end().size()), rtol) < 30.0);
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
  // linear_solver=sparse without a pattern.
  spec = test::spec_for("rober", "rodas5p", 1e-6);
  spec.solver_options = {{"linear_solver", "sparse"}};
  CHECK(test::run(spec).status() == Status::invalid_input);
}

TEST_CASE("cvode and ida run SUNDIALS' own Krylov solvers with the core's preconditioners",
          "[conformance][krylov][sundials]") {
  const double rtol = 1e-6;
  const auto reference = test::run(brusselator("auto", 1e-10));
  REQUIRE(reference.status() == Status::success);
  for (const char* solver : {"cvode", "ida"}) {
    test::RunSpec direct = brusselator("auto", rtol);
    direct.solver = solver;
    const auto d = test::run(direct);
    REQUIRE(d.status() == Status::success);
    const double direct_error = weighted_error(d.y_end(), reference.y_end(), rtol);
    for (const char* method : {"spgmr", "spfgmr", "spbcgs"})
      for (const char* preconditioner : {"problem", "ilu", "amg", "jacobi", "none"}) {
        // The weak preconditioners once, with GMRES: they take thousands of iterations.
        const bool weak = std::string_view(preconditioner) == "jacobi" || std::string_view(preconditioner) == "none";
        if (weak && std::string_view(method) != "spgmr") continue;
        INFO(solver << " " << method << " with preconditioner " << preconditioner);
        test::RunSpec spec = direct;
        spec.solver_options = {{"linear_solver", method}, {"preconditioner", preconditioner}};
        const auto k = test::run(spec);
        REQUIRE(k.status() == Status::success);
        CHECK(k.stats().linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
        CHECK(k.stats().nlu == 0);
        CHECK(k.stats().nlin_iters > 0);
        CHECK(k.stats().njtv >= k.stats().nlin_iters);  // the problem's exact products
        if (!weak || std::string_view(preconditioner) == "jacobi") CHECK(k.stats().nprec_solves > 0);
        CHECK(weighted_error(k.y_end(), reference.y_end(), rtol) <= 3.0 * direct_error + 1.0);
        // A good preconditioner on the right keeps CVODE's steps those of its direct LU.
        if (!weak && std::string_view(solver) == "cvode")
          CHECK(k.stats().accepted <= d.stats().accepted + d.stats().accepted / 5 + 2);
      }
  }
  check_matrix_free("cvode", "spgmr", reference, rtol);
}

TEST_CASE("cvode and ida with Krylov: difference products on ODEs, DAEs and residuals; refusals",
          "[conformance][krylov][sundials]") {
  const std::pair<const char*, const char*> runs[] = {
      {"cvode", "rober"}, {"ida", "rober"}, {"ida", "rober_dae"}, {"ida", "rober_residual"}};
  for (const auto& [solver, problem] : runs) {
    INFO(solver << " on " << problem);
    test::RunSpec direct = test::spec_for(problem, solver, 1e-7), krylov = direct;
    direct.tweak = krylov.tweak = [](dk_solve_options& o, std::vector<double>&) { o.tend = 1e5; };
    krylov.solver_options = {{"linear_solver", "spgmr"}, {"preconditioner", "none"}};
    const auto d = test::run(direct), k = test::run(krylov);
    REQUIRE(d.status() == Status::success);
    REQUIRE(k.status() == Status::success);
    CHECK(k.stats().njtv > 0);  // the core's difference quotients, counted
    CHECK(k.stats().nfev > d.stats().nfev);
    CHECK(weighted_error(k.y_end(), d.y_end(), 1e-7) < 30.0);
  }
  // A method named twice, differently.
  test::RunSpec spec = test::spec_for("rober", "cvode", 1e-6);
  spec.solver_options = {{"linear_solver", "spgmr"}, {"krylov", "bicgstab"}};
  auto r = test::run(spec);
  CHECK(r.status() == Status::invalid_input);
  CHECK(std::string_view(r.result.message).find("different methods") != std::string::npos);
  // A pattern-based preconditioner on the residual form.
  spec = test::spec_for("rober_residual", "ida", 1e-6);
  spec.solver_options = {{"linear_solver", "spgmr"}, {"preconditioner", "ilu"}};
  CHECK(test::run(spec).status() == Status::invalid_input);
}

TEST_CASE("heat2d's multigrid preconditioner and matrix-free mode give the closed form's accuracy",
          "[conformance][krylov]") {
  // An index-1 DAE (algebraic boundary values) on a grid the multigrid coarsens (N + 1 = 32)
  // and one it cannot (N = 30: Gauss-Seidel sweeps alone, weaker but not wrong).
  for (const char* n : {"31", "30"})
    for (const char* solver : {"bdf", "ida", "rodas5p"}) {
      INFO(solver << " on heat2d N=" << n);
      test::RunSpec direct = test::spec_for("heat2d", solver, 1e-6);
      direct.params = {{"N", n}};
      test::RunSpec krylov = direct;
      krylov.params["matrix_free"] = "true";
      krylov.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", "problem"}};
      const auto d = test::run(direct), k = test::run(krylov);
      REQUIRE(d.status() == Status::success);
      REQUIRE(k.status() == Status::success);
      CHECK(k.stats().njac == 0);  // nothing to evaluate: the problem's data do not depend on y
      CHECK(k.stats().nfev_jac == 0);
      CHECK(k.stats().nprec_solves > 0);
      // Against the closed form (the reference at tend): within a digit of the direct LU.
      const double direct_scd = d.accuracy(1e-6, 1e-6).scd, krylov_scd = k.accuracy(1e-6, 1e-6).scd;
      CHECK(krylov_scd >= direct_scd - 1.0);
      CHECK(krylov_scd >= 4.5);
    }
}

TEST_CASE("reaction3d: every Krylov family on the 3D grid reaches the manufactured solution", "[conformance][krylov]") {
  // N = 7: a 3D multigrid of two levels; N = 6: one (Gauss-Seidel alone).
  for (const char* n : {"7", "6"}) {
    const std::pair<const char*, const char*> setups[] = {
        {"bdf", "problem"},   {"bdf", "amg"},         {"bdf", "ilu"},          {"cvode", "problem"},
        {"ida", "amg"},       {"rodas5p", "problem"}, {"radau5", "problem"},   {"radau5", "amg"}};
    for (const auto& [solver, preconditioner] : setups) {
      // Against the same solver's direct LU: as accurate, to a digit (both against the closed form).
      test::RunSpec direct = test::spec_for("reaction3d", solver, 1e-6);
      direct.params = {{"N", n}};
      const auto d = test::run(direct);
      REQUIRE(d.status() == Status::success);
      const double direct_scd = d.accuracy(1e-6, 1e-6).scd;
      CHECK(direct_scd >= 4.5);
      for (const char* matrix_free : {"false", "true"}) {
        if (std::string_view(matrix_free) == "true" && std::string_view(preconditioner) != "problem") continue;
        INFO(solver << " with " << preconditioner << ", matrix_free=" << matrix_free << ", N=" << n);
        test::RunSpec k = direct;
        k.params["matrix_free"] = matrix_free;
        k.solver_options = {{"linear_solver", "krylov"}, {"preconditioner", preconditioner}};
        const auto r = test::run(k);
        REQUIRE(r.status() == Status::success);
        CHECK(r.stats().nlu == 0);
        CHECK(r.stats().nprec_solves > 0);
        CHECK(r.accuracy(1e-6, 1e-6).scd >= direct_scd - 1.0);
      }
    }
  }
}

TEST_CASE("linear_solver=auto takes Krylov for a problem built for it, from the crossover size, with sensitivities too",
          "[conformance][krylov]") {
  for (const char* solver : {"bdf", "rodas5p", "cvode", "ida"}) {
    INFO(solver);
    test::RunSpec small = brusselator("auto", 1e-5, 0.2), large = small;
    small.solver = large.solver = solver;
    large.params["N"] = "24";  // n = 1152: past the crossover (docs/benchmarks/scaling.md)
    const auto s = test::run(small), l = test::run(large);
    REQUIRE(s.status() == Status::success);
    REQUIRE(l.status() == Status::success);
    CHECK(s.stats().linear_algebra != DK_LINEAR_ALGEBRA_KRYLOV);  // n = 512
    CHECK(l.stats().linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
    CHECK(l.stats().nprec_solves > 0);  // with the problem's own preconditioner
    // Forward sensitivities take the same path (their columns solved by the same method).
    test::RunSpec sens = large;
    sens.tweak = [](dk_solve_options& o, std::vector<double>&) {
      static const std::int32_t index[] = {-1};  // d y / d y0_1
      o.tend = 0.2;
      o.nsens = 1;
      o.sens_index = index;
    };
    const auto r = test::run(sens);
    INFO(r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.stats().linear_algebra == DK_LINEAR_ALGEBRA_KRYLOV);
    CHECK(r.stats().nsolve_sens > 0);
  }
}

TEST_CASE("bdf behind a preconditioner near W^-1 carries its Newton rate as IDA does; without one it does not",
          "[conformance][krylov]") {
  // With the problem's preconditioner, ILUT or AMG the rate carries over from step to step
  // and the tolerance is DASSL's: about one iteration a step (1.16 here). Without one, or
  // with Jacobi, a small residual is no small error: every step measures its own rate
  // (2.4 a step), which Robertson's forms need (the direct-answer cases above).
  for (const char* preconditioner : {"problem", "ilu", "amg", "none", "jacobi"}) {
    INFO(preconditioner);
    test::RunSpec spec = brusselator("krylov", 1e-6);
    spec.solver_options["preconditioner"] = preconditioner;
    const auto k = test::run(spec);
    REQUIRE(k.status() == Status::success);
    const double per_step = static_cast<double>(k.stats().nnewton) / static_cast<double>(k.stats().steps);
    const std::string_view p = preconditioner;
    if (p == "none" || p == "jacobi") CHECK(per_step >= 1.8);
    else CHECK(per_step <= 1.4);
  }
}

TEST_CASE("the brusselator on two threads gives its one-thread answer bit for bit", "[conformance][krylov]") {
  // N = 40: multigrid levels 40, 20, 10, 5 (the odd periodic one swept on one thread);
  // N = 42: 42, 21. Krylov with the problem's f, J v and preconditioner, and rodas5p with
  // its sparse LUs (f and the Jacobian's pattern values).
  for (const char* n : {"40", "42"})
    for (const char* solver : {"bdf", "rodas5p"}) {
      INFO("N = " << n << ", " << solver);
      test::RunSpec spec = brusselator(std::string_view(solver) == "bdf" ? "krylov" : "sparse", 1e-6, 0.5);
      spec.solver = solver;
      spec.params["N"] = n;
      test::RunSpec threaded = spec;
      threaded.params["threads"] = "2";
      const auto one = test::run(spec), two = test::run(threaded);
      REQUIRE(one.status() == Status::success);
      REQUIRE(two.status() == Status::success);
      CHECK(one.stats().steps == two.stats().steps);
      CHECK(one.stats().nlin_iters == two.stats().nlin_iters);
      CHECK((one.y_end().array() == two.y_end().array()).all());
    }
  test::RunSpec bad = brusselator("krylov", 1e-6);
  bad.params["threads"] = "0";
  CHECK_THROWS_WITH(test::run(bad), Catch::Contains("threads must lie in 1 .. 64"));
}
