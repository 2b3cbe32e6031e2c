// Every problem of the library is solved by at least one solver plugin to the accuracy
// the test set's own runs reach at a comparable tolerance (measured values in the
// comments; the floors sit about half a digit below them), and the scalable problems
// behave across their sizes.
#include <catch2/catch.hpp>
#include <iostream>

#include "harness.hpp"

using namespace daekit;

namespace {

struct LibraryCase {
  const char* problem;
  const char* solver;
  double rtol, atol;  // atol < 0: the problem's own scale times rtol
  double min_scd, min_mescd;
};

void check_case(const LibraryCase& c) {
  auto spec = test::spec_for(c.problem, c.solver, c.rtol, c.atol);
  if (c.atol < 0) spec.atol = -1.0;
  const auto r = test::run(spec);
  INFO(c.problem << " with " << c.solver << " at rtol " << c.rtol << ": " << r.message());
  REQUIRE(r.status() == Status::success);
  const double atol = c.atol > 0 ? c.atol : c.rtol;
  const Accuracy a = r.accuracy(c.rtol, atol);
  std::cout << c.problem << " " << c.solver << " " << c.rtol << ": " << r.stats().steps << " steps, scd " << a.scd
            << ", mescd " << a.mescd << "\n";
  CHECK(a.scd >= c.min_scd);
  CHECK(a.mescd >= c.min_mescd);
}

}  // namespace

TEST_CASE("the test set's ODEs reach the test set's accuracy", "[conformance][problems]") {
  // Measured scd / mescd: orego radau5 7.69/7.69, vdpolm radau5 5.92/8.28, pollu rodas5p
  // 6.37/8.51, e5 bdf (atol 1.7e-26) 3.09/7.38 (the test set scores e5 by mescd), plei
  // radau5 5.37/5.94, medakzo rodas5p 6.82/6.83 (absolute error, the test set's rule),
  // ringmod rodas5p 4.94/5.62 (81205 steps: the diode ring's fast oscillation is resolved),
  // beam rodas5p 5.19/4.22 over the kernels (5.09/4.39 with its former difference Jacobian)
  // and radau5 4.00/3.77 (bdf: 4.89 but 45387 steps, its orders 3-5
  // are unstable on the beam's undamped oscillations); emep with the test set's atol = 1
  // (h0 = 1e-7 in the host runs): bdf 7.37/7.91 at 1e-9 in 8481 steps (over the BLAS kernels
  // Prescott, Nehalem, Sandybridge, Haswell, Zen: scd 5.68-8.00, mescd 7.72-8.25, 8373-9232
  // steps; the floor sits below that spread until issue #15 makes the BDF robust), rodas5p
  // 7.02/7.48, radau5 5.82/6.30 (RADAU5's tolerance transformation raises atol = 1 with
  // falling rtol, so radau5 gains nothing below 1e-9).
  for (const LibraryCase& c : {LibraryCase{"orego", "radau5", 1e-8, 1e-8, 7.0, 7.0},
                               LibraryCase{"vdpolm", "radau5", 1e-8, 1e-8, 5.3, 7.5},
                               LibraryCase{"pollu", "rodas5p", 1e-8, 1e-8, 5.8, 8.0},
                               LibraryCase{"e5", "bdf", 1e-8, 1.7e-26, 2.5, 6.8},
                               LibraryCase{"plei", "radau5", 1e-8, 1e-8, 4.8, 5.4},
                               LibraryCase{"medakzo", "rodas5p", 1e-7, 1e-7, 6.3, 6.3},
                               LibraryCase{"ringmod", "rodas5p", 1e-7, 1e-7, 4.4, 5.1},
                               LibraryCase{"beam", "rodas5p", 1e-6, 1e-6, 4.5, 3.8},
                               LibraryCase{"beam", "radau5", 1e-6, 1e-6, 3.5, 3.2},
                               LibraryCase{"emep", "bdf", 1e-9, 1.0, 5.4, 7.3},
                               LibraryCase{"emep", "rodas5p", 1e-9, 1.0, 6.5, 7.0}})
    check_case(c);
}

TEST_CASE("the test set's DAEs reach the test set's accuracy", "[conformance][problems][dae]") {
  // Measured scd / mescd: chemakzo radau5 6.22/8.50, transamp radau5 7.60/7.88, andrews
  // radau5 (index 3) 5.38/0.45 (mescd counts the accelerations ~1e5), caraxis radau5
  // (index 3) 2.70/5.41: its positions have 8 digits, the index-3 multipliers 3; water
  // rodas5p with the test set's atol (1e6 atol for the pressures) 6.39/8.95; pump with
  // the test set's atol (1e-6 tol for the charges): rodas5p 15.4/9.31 at 1e-5, bdf at
  // 1e-7 4.84/5.57 on every kernel (radau5, radauiia and IDA fail at 50 ns, where the input starts
  // rising and the transistor switches on: "many solvers fail", says the test set).
  // pump's scd is not a measure for bdf: its one scored value, y1 = 1.26e-13, lies at
  // atol (1e-13), so a relative error of 7e-6 respects the request; bdf lands either on
  // it (scd 14-15, with Newton tolerances 0.33 .. 0.03) or near 5 (0.01 .. 3e-4, the
  // default since Newton converges as RADAU5's does), mescd 5.38-6.19 throughout and
  // 5.57 on every BLAS kernel: the floor is on mescd.
  // tba at 1e-5 (the reference's own tolerance; scd above ~5 is not meaningful): bdf
  // 6.52/4.83 in 10239 steps (6.10/4.97 with h0 = 1e-4), rodas5p 6.11/4.31, radau5
  // 6.97/5.06 in 2755 steps (the reference's RADAU5 run took 2518). bdf's point depends on
  // the LU's rounding (issue #15): over OPENBLAS_CORETYPE Prescott, Nehalem, Sandybridge,
  // Haswell, SkylakeX, Zen on one AMD EPYC it spans scd 5.41-5.91, mescd 4.31-4.66
  // (10091-10355 steps; with DASSL's loose Newton tolerance it spanned 5.22-6.01,
  // 4.08-4.92), so the floors sit below that spread (scripts/benchmarks/kernel-spread.py). With its
  // exact Jacobian (automatic differentiation in the pattern) bdf reaches 5.45/4.68 in
  // 10198 steps on all seven kernels from Prescott to Cooperlake.
  for (const LibraryCase& c : {LibraryCase{"chemakzo", "radau5", 1e-7, 1e-7, 5.5, 7.8},
                               LibraryCase{"transamp", "radau5", 1e-8, 1e-8, 7.0, 7.3},
                               LibraryCase{"andrews", "radau5", 1e-8, 1e-8, 4.8, 0.0},
                               LibraryCase{"caraxis", "radau5", 1e-10, 1e-10, 2.3, 4.9},
                               LibraryCase{"water", "rodas5p", 1e-10, -1.0, 5.8, 8.3},
                               LibraryCase{"pump", "rodas5p", 1e-5, -1.0, 10.0, 0.0},
                               LibraryCase{"pump", "bdf", 1e-7, -1.0, 0.0, 5.0},
                               LibraryCase{"tba", "bdf", 1e-5, 1e-5, 5.0, 3.9}})
    check_case(c);
}

TEST_CASE("the residual-form problems reach the test set's accuracy and are refused by mass-matrix solvers",
          "[conformance][problems][residual]") {
  // Measured scd (component 5 only) / mescd: nand bdf at 1e-7 over the BLAS kernels
  // Prescott .. Zen 7.51-7.52 / 6.56-6.77 (7.27-7.53 / 6.07-6.40 while a restart at a
  // breakpoint scaled the step cut short to land there, issue #15), ida 7.40/4.51 at 1e-5;
  // wheel (index 2): bdf 3.55/4.94 and ida 4.01/5.09 at 1e-7, both 4.8 at 1e-9 (the
  // reference is DASSL at 1e-9).
  for (const LibraryCase& c : {LibraryCase{"nand", "bdf", 1e-7, 1e-7, 7.0, 5.9},
                               LibraryCase{"nand", "ida", 1e-5, 1e-5, 6.8, 4.0},
                               LibraryCase{"wheel", "bdf", 1e-7, 1e-7, 3.0, 4.4},
                               LibraryCase{"wheel", "ida", 1e-7, 1e-7, 3.5, 4.5}})
    check_case(c);
  for (const char* problem : {"nand", "wheel"}) {
    const auto refused = test::run(test::spec_for(problem, "radau5", 1e-6));
    CHECK(refused.status() == Status::unsupported_problem);
    CHECK_THAT(refused.message(), Catch::Contains("residual"));
  }
}

TEST_CASE("brusselator: sparse and dense linear algebra and three solvers agree", "[conformance][problems][sparse]") {
  // N = 8 (128 unknowns): bdf, rodas5p and radau5 factorise sparsely in the pattern.
  // Measured differences ~1e-6 relative at 1e-8.
  std::vector<Eigen::VectorXd> ends;
  for (const char* solver : {"bdf", "rodas5p", "radau5"}) {
    auto spec = test::spec_for("brusselator", solver, 1e-8, 1e-8);
    spec.params = {{"N", "8"}};
    const auto r = test::run(spec);
    INFO(solver << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    ends.push_back(r.y_end());
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const Eigen::ArrayXd rel = (ends[k] - ends[1]).array().abs() / (1e-3 + ends[1].array().abs());
    INFO("solver " << k << " against rodas5p: " << rel.maxCoeff());
    CHECK(rel.maxCoeff() < 1e-5);
  }
}

TEST_CASE("radau5 and radauiia factorise sparsely in the pattern, taking the dense LUs' steps",
          "[conformance][problems][sparse][plugin:radau5]") {
  // The real and the complex systems share W's pattern; only rounding differs from the
  // dense LUs. Measured at N = 8, 1e-8: the same 272 (radau5) and 82 (radauiia) steps.
  for (const char* solver : {"radau5", "radauiia"}) {
    std::vector<test::RunResult> runs;
    for (const char* linear_solver : {"dense", "sparse"}) {
      auto spec = test::spec_for("brusselator", solver, 1e-8, 1e-8);
      spec.params = {{"N", "8"}};
      spec.solver_options = {{"linear_solver", linear_solver}};
      runs.push_back(test::run(spec));
      INFO(solver << " " << linear_solver << ": " << runs.back().message());
      REQUIRE(runs.back().status() == Status::success);
    }
    INFO(solver);
    CHECK(runs[0].stats().linear_algebra == DK_LINEAR_ALGEBRA_DENSE);
    CHECK(runs[1].stats().linear_algebra == DK_LINEAR_ALGEBRA_SPARSE);
    CHECK(std::abs(static_cast<double>(runs[0].stats().steps - runs[1].stats().steps)) <= 2.0);
    const Eigen::ArrayXd rel =
        (runs[0].y_end() - runs[1].y_end()).array().abs() / (1e-3 + runs[0].y_end().array().abs());
    CHECK(rel.maxCoeff() < 1e-7);
  }
  // medakzo (n = 400, banded pattern) at the test set's accuracy; it took 8 s densely.
  for (const char* solver : {"radau5", "radauiia"}) {
    const auto r = test::run(test::spec_for("medakzo", solver, 1e-7, 1e-7));
    INFO(solver << " medakzo: " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.stats().linear_algebra == DK_LINEAR_ALGEBRA_SPARSE);  // auto: the pattern is there
    CHECK(r.accuracy(1e-7, 1e-7).scd >= 5.8);  // measured 6.53 / 6.35
  }
  auto no_pattern = test::spec_for("hires", "radau5", 1e-6);
  no_pattern.solver_options = {{"linear_solver", "sparse"}};
  const auto refused = test::run(no_pattern);
  CHECK(refused.status() == Status::invalid_input);
  CHECK_THAT(refused.message(), Catch::Contains("pattern"));
}

TEST_CASE("brusselator: the problem grows as 2 N^2 with six Jacobian entries per column", "[conformance][problems][sparse]") {
  for (int N : {3, 10, 50}) {
    loader::ProblemInstance p(*test::registry().find("brusselator"), {{"N", std::to_string(N)}});
    CHECK(p.info().n == static_cast<std::size_t>(2 * N * N));
    CHECK(p.info().jac_pattern.nnz == static_cast<std::size_t>(12 * N * N));
    REQUIRE(p.info().ntstops == 1);
    CHECK(p.info().tstops[0] == 1.1);
  }
  CHECK_THROWS(loader::ProblemInstance(*test::registry().find("brusselator"), {{"N", "2"}}));
}

TEST_CASE("hires: no solver steps past the species used up at t ~ 320", "[conformance][problems]") {
  // y6 falls at a nearly constant rate until it is used up near t = 320, where y8 rises
  // steeply. Without its sign constraints rodas5p and ros34pw2 at rtol 1e-4 crossed that
  // point in one step of 172 that their error estimates passed, ending 177 and 188
  // tolerances off (y6 = -0.012 where it is 0.006), with success; rodas42 and petsc's
  // ra34pw2 (236) likewise. With them: every solver within 50 tolerances of the reference
  // at the end (measured: petsc 26, rodas5p 15, the others at most 10), or a failure that
  // says so.
  const auto solvers = test::in_tree_solvers();
  double worst = 0.0;
  for (const auto& solver : solvers)
    for (double rtol : {1e-3, 1e-4}) {
      const auto r = test::run(test::spec_for("hires", solver, rtol));
      INFO(solver << " rtol " << rtol << ": " << status_name(r.status()) << " " << r.message());
      if (r.status() != Status::success) {
        CHECK(r.message() != "");
        continue;
      }
      std::vector<double> ref;
      REQUIRE(r.problem->reference(ref));
      const Eigen::VectorXd y = r.y_end();
      double error = 0.0;
      for (Eigen::Index i = 0; i < y.size(); ++i) {
        const double exact = ref[static_cast<std::size_t>(i)];
        error = std::max(error, std::abs(y[i] - exact) / (rtol + rtol * std::abs(exact)));
      }
      CHECK(error < 50.0);
      worst = std::max(worst, error);
    }
  std::cout << "hires at rtol 1e-3 and 1e-4: at most " << worst << " tolerances off\n";
}

TEST_CASE("emep runs at the tolerances it suggests", "[conformance][problems]") {
  // Without --atol the problem suggests the test set's atol = 1 at rtol 1e-6 (1e6 rtol).
  // With atol = rtol = 1e-6 rodas5p, radau5 and bdf failed (step_size_too_small: the fast
  // species' rise at sunrise asked for steps below t's resolution). Measured mescd: rodas5p
  // 4.49, radau5 4.24, bdf 5.34.
  for (const char* solver : {"rodas5p", "radau5", "bdf"}) {
    const auto r = test::run(test::spec_for("emep", solver, 1e-6));
    INFO(solver << ": " << status_name(r.status()) << " " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.accuracy(1e-6, 1.0).mescd >= 3.7);
  }
}
