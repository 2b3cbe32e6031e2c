// Loose tolerances are what users start with. A success there must not be a blow-up:
// every solver on the chemistry problems that declare their concentrations >= 0, at
// rtol in {1e-1, 1e-2, 1e-3} (atol the problem's suggested scale times rtol, as `daekit
// run` sets it), either fails with a status or succeeds with an answer within the
// tolerance's reach. The constraint is what makes it hold: without it radau5 ended rober
// at y1 = -4.9e6 (the ODE diverges from just below its equilibrium while every local
// error test passes). The full grid over the library is a benchmark
// (docs/benchmarks/loose-tolerances: scripts/tables/loose-tolerance-grid.sh).
#include <Eigen/SVD>
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>

#include "harness.hpp"

using namespace daekit;


TEST_CASE("at loose tolerances every solver fails or stays within reach on problems with sign constraints",
          "[conformance][loose]") {
  const auto solvers = test::in_tree_solvers();
  REQUIRE(solvers.size() >= 16);
  int successes = 0;
  for (const char* problem : {"rober", "rober_dae", "rober_residual", "pollu"}) {
    for (const auto& solver : solvers) {
      for (double rtol : {1e-1, 1e-2, 1e-3}) {
        const auto r = test::run(test::spec_for(problem, solver, rtol, -1.0));
        INFO(problem << " " << solver << " rtol " << rtol << ": " << status_name(r.status()) << " " << r.message());
        if (r.status() == Status::unsupported_problem) continue;
        if (r.status() != Status::success) continue;  // a failure with a status is an honest answer
        ++successes;
        const Eigen::VectorXd y = r.y_end();
        // Concentrations stay >= 0 up to what the error test allows, and never explode.
        const double atol_scale = r.problem->info().atol_scale ? r.problem->info().atol_scale[0] : 1.0;
        CHECK(y.minCoeff() >= -atol_scale * rtol);
        const Accuracy a = r.accuracy(rtol, atol_scale * rtol);
        CHECK(a.mescd >= 0.0);
        // Robertson's end state within reach of the tolerance, component by component:
        // |error_i| <= 10 (atol_i + rtol |ref_i|). (Not scd >= 0: y1(1e11) = 2e-8 lies below
        // its atol at the suggested scale, 1e-7 at rtol 1e-3, so the tolerance promises no
        // relative digit of it.)
        if (std::string(problem).rfind("rober", 0) == 0) {
          std::vector<double> ref;
          REQUIRE(r.problem->reference(ref));
          const dk_problem_info& info = r.problem->info();
          for (Eigen::Index i = 0; i < y.size(); ++i) {
            const double atol_i = (info.atol_scale ? info.atol_scale[i] : 1.0) * rtol;
            CHECK(std::abs(y[i] - ref[static_cast<std::size_t>(i)]) <=
                  10.0 * (atol_i + rtol * std::abs(ref[static_cast<std::size_t>(i)])));
          }
        }
      }
    }
  }
  std::cout << "loose tolerances: " << successes << " successes checked\n";
  CHECK(successes >= 100);
}

namespace {
// The problem's linear invariants c (c^T f(y) = 0 for every y): the left null space of
// f and df/dy at several states near y0 (df/dy by central differences; f itself, so an
// affine f with a constant part is not mistaken for one). Robertson: c = (1, 1, 1).
std::vector<Eigen::VectorXd> linear_invariants(const loader::ProblemInstance& problem) {
  const dk_problem& p = problem.handle();
  const auto n = static_cast<Eigen::Index>(problem.info().n);
  std::vector<double> y0, yp0;
  problem.initial_values(y0, yp0);
  Eigen::MatrixXd stacked(n, 0);
  Eigen::VectorXd f_plus(n), f_minus(n);
  for (int sample = 0; sample < 4; ++sample) {
    Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(y0.data(), n);
    for (Eigen::Index i = 0; i < n; ++i) y[i] = std::abs(y[i]) * (1.0 + 0.3 * sample) + 0.01 * (sample + i % 3);
    Eigen::MatrixXd j(n, n);
    for (Eigen::Index c = 0; c < n; ++c) {
      const double d = 1e-6 * std::max(1.0, std::abs(y[c]));
      Eigen::VectorXd z = y;
      z[c] += d;
      p.vtbl->rhs(p.self, 0.0, z.data(), f_plus.data());
      z[c] -= 2 * d;
      p.vtbl->rhs(p.self, 0.0, z.data(), f_minus.data());
      j.col(c) = (f_plus - f_minus) / (2 * d);
    }
    p.vtbl->rhs(p.self, 0.0, y.data(), f_plus.data());
    stacked.conservativeResize(n, stacked.cols() + n + 1);
    stacked.rightCols(n + 1) << j, f_plus;
  }
  // Rows scaled to unit size, so a fast reaction does not hide a slow one's.
  Eigen::VectorXd scale(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    scale[i] = stacked.row(i).norm();
    if (scale[i] > 0.0) stacked.row(i) /= scale[i];
  }
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(stacked.transpose(), Eigen::ComputeFullV);
  const Eigen::VectorXd s = svd.singularValues();
  std::vector<Eigen::VectorXd> out;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (k < s.size() && s[k] > 1e-9 * s[0]) continue;
    // Back to the unscaled rows: c_i = v_i / |row i|; kept only if c^T f vanishes at a
    // state it was not fitted at.
    Eigen::VectorXd c = svd.matrixV().col(k);
    Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(y0.data(), n).cwiseAbs().array() * 0.7 + 0.02;
    p.vtbl->rhs(p.self, 0.0, y.data(), f_plus.data());
    for (Eigen::Index i = 0; i < n; ++i)
      if (const double norm = scale[i]; norm > 0.0) c[i] /= norm;
    c /= c.cwiseAbs().maxCoeff();
    if (std::abs(c.dot(f_plus)) <= 1e-9 * c.cwiseAbs().dot(f_plus.cwiseAbs())) out.push_back(c);
  }
  return out;
}
}  // namespace

TEST_CASE("sign constraints never create mass: success keeps y >= -atol and the linear invariants",
          "[conformance][loose]") {
  // rober at rtol = atol = 1e-1 ended at (0, 0, 4.41) with radau5 and at (4.05, 0, 0) with
  // bdf, "success": each step's small negative was projected onto 0, adding to the sum the
  // method keeps. Projections are now charged to the component's atol over the whole run.
  const auto solvers = test::in_tree_solvers();
  int successes = 0;
  for (const char* problem : {"rober", "pollu"}) {
    for (const auto& solver : solvers) {
      for (double tol : {1e-1, 1e-2, 1e-3}) {
        for (bool atol_is_rtol : {true, false}) {
          const auto r = test::run(test::spec_for(problem, solver, tol, atol_is_rtol ? tol : -1.0));
          INFO(problem << " " << solver << " rtol " << tol << (atol_is_rtol ? " atol = rtol" : " suggested atol")
                       << ": " << status_name(r.status()) << " " << r.message());
          if (r.status() != Status::success) continue;  // a failure with a status is an honest answer
          ++successes;
          const dk_problem_info& info = r.problem->info();
          const auto n = static_cast<Eigen::Index>(info.n);
          Eigen::VectorXd atol(n);
          for (Eigen::Index i = 0; i < n; ++i)
            atol[i] = atol_is_rtol ? tol : (info.atol_scale ? info.atol_scale[i] : 1.0) * tol;
          std::vector<double> initial, initial_yp;
          r.problem->initial_values(initial, initial_yp);
          const Eigen::VectorXd y = r.y_end(), y0 = Eigen::Map<const Eigen::VectorXd>(initial.data(), n);
          for (Eigen::Index i = 0; i < n; ++i) CHECK(y[i] >= -atol[i]);
          const std::vector<Eigen::VectorXd> invariants = linear_invariants(*r.problem);
          if (std::string(problem) == "rober") CHECK(invariants.size() == 1);  // y1 + y2 + y3
          if (solver == solvers.front() && tol == 1e-1 && atol_is_rtol)
            std::cout << problem << ": " << invariants.size() << " linear invariants found\n";
          for (const Eigen::VectorXd& c : invariants) {
            // What projections may add (atol per component) and what the error tests allow.
            const double allowed = c.cwiseAbs().dot(atol) + tol * std::abs(c.dot(y0)) + 1e-10;
            CHECK(std::abs(c.dot(y) - c.dot(y0)) <= allowed);
          }
        }
      }
    }
  }
  std::cout << "sign constraints: " << successes << " successes checked\n";
  CHECK(successes >= 100);
}
