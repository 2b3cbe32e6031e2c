// Supplied derivatives are checked at run time (numerics/derivative_check.hpp): a Jacobian
// that disagrees with differences of f is named (row, column, both values) in a warning,
// and the solve goes on with differences, to the same answer as with a correct Jacobian.
// A correct Jacobian is used as it is; `derivative_check = off` trusts any.
#include <catch2/catch.hpp>
#include <cmath>

#include "harness.hpp"

using namespace daekit;

namespace {
test::RunSpec chain(const std::string& problem, const std::string& solver, std::uint32_t check = 0) {
  test::RunSpec s = test::spec_for(problem, solver, 1e-8, 1e-8);
  s.problem_dir = test::fixture_dir() + "/broken";  // the chains with one defect each
  s.tweak = [check](dk_solve_options& o, std::vector<double>&) { o.derivative_check = check; };
  return s;
}
}  // namespace

TEST_CASE("a wrong supplied Jacobian is found at run time, named, and replaced by differences",
          "[conformance][derivatives]") {
  for (const char* solver : {"rodas5p", "ros34pw2", "radau5", "radauiia", "bdf", "ndf", "cvode", "ida", "petsc"}) {
    INFO(solver);
    const auto right = test::run(chain("chain_ok", solver));
    REQUIRE(right.status() == Status::success);
    CHECK(right.stats().nderivative_checks > 0);
    CHECK(right.stats().nderivative_mismatches == 0);
    CHECK(right.stats().jacobian_used == DK_JACOBIAN_ANALYTIC);
    CHECK(right.message().find("warning") == std::string::npos);

    const auto wrong = test::run(chain("wrong_jacobian", solver));
    INFO(wrong.message());
    REQUIRE(wrong.status() == Status::success);
    CHECK(wrong.stats().nderivative_mismatches == 1);
    CHECK(wrong.stats().jacobian_used == DK_JACOBIAN_FINITE_DIFFERENCE);
    CHECK(wrong.message().find("warning: the supplied Jacobian disagrees") != std::string::npos);
    CHECK(wrong.message().find("row 3, column 2: supplied 0.04") != std::string::npos);
    // The same answer as with the correct Jacobian, at about the same cost.
    CHECK((wrong.y_end() - right.y_end()).cwiseAbs().maxCoeff() <= 1e-6);
    CHECK(wrong.stats().steps <= 2 * right.stats().steps + 5);
  }
}

TEST_CASE("sparse Jacobian values that differ from the model are caught in the sparse path too",
          "[conformance][derivatives]") {
  for (const char* solver : {"rodas5p", "radau5", "bdf", "ida"}) {
    INFO(solver);
    test::RunSpec s = chain("wrong_sparse_values", solver);
    const auto r = test::run(s);
    INFO(r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.stats().nderivative_mismatches == 1);
    CHECK(r.message().find("row 2, column 1: supplied 0.5") != std::string::npos);
    const auto right = test::run(chain("chain_ok", solver));
    CHECK((r.y_end() - right.y_end()).cwiseAbs().maxCoeff() <= 1e-6);
  }
}

TEST_CASE("with the check off a supplied Jacobian is trusted (and the wrong one costs steps)",
          "[conformance][derivatives]") {
  const auto trusted = test::run(chain("wrong_jacobian", "rodas5p", DK_DERIVATIVE_CHECK_OFF));
  REQUIRE(is_success(trusted.status()));
  CHECK(trusted.stats().nderivative_checks == 0);
  CHECK(trusted.stats().jacobian_used == DK_JACOBIAN_ANALYTIC);
  CHECK(trusted.message().find("warning") == std::string::npos);
}
