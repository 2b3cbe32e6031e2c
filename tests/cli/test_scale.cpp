// Problems too large for any n x n array: every solver that reads M as stored must run
// heat2d at n = 23 104 (a dense M alone would take 4.3 GB) inside a 2 GB address space.
#include <catch2/catch.hpp>
#include <string>

#include "harness.hpp"

using daekit::test::run_command;

namespace {
std::string daekit_cmd(const std::string& args) { return daekit::test::daekit_binary() + " " + args; }
}  // namespace

TEST_CASE("heat2d info says how the mass matrix is stored", "[cli][scale]") {
  std::string out;
  REQUIRE(run_command(daekit_cmd("info heat2d"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("stored as its diagonal (n values)"));
  REQUIRE(run_command(daekit_cmd("info rodas5p"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("mass store  diagonal and sparse M read as stored"));
  CHECK_THAT(out, Catch::Contains("sparse_lu") && Catch::Contains("sparse_ordering") && Catch::Contains("fd_colouring"));
}

TEST_CASE("no solver makes an n x n copy of a diagonal mass matrix", "[cli][scale]") {
  if (daekit::test::sanitized_build()) {
    WARN("not run: the sanitizer's shadow memory does not fit an address-space limit");
    return;
  }
  for (const char* solver : {"rodas5p", "radau5", "radauiia", "bdf", "ida"}) {
    INFO(solver);
    std::string out;
    const int code = run_command("ulimit -v 2000000 && " + daekit_cmd(std::string("run --problem heat2d --param N=150 "
                                                                                  "--rtol 1e-5 --solver ") +
                                                                      solver),
                                 &out);
    CHECK(code == 0);
    CHECK_THAT(out, Catch::Contains("status     success"));
  }
}

TEST_CASE("the sparse LU options are checked like every option", "[cli][scale]") {
  std::string out;
  CHECK(run_command(daekit_cmd("run --problem heat2d --solver rodas5p --solver-opt sparse_lu=pardiso"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("sparse_lu") && Catch::Contains("umfpack"));
  CHECK(run_command(daekit_cmd("run --problem heat2d --solver radau5 --solver-opt sparse_ordering=scotch"), &out) == 2);
  CHECK_THAT(out, Catch::Contains("metis"));
}

TEST_CASE("sensitivities to a few of a model's many parameters need no n x np array", "[cli][scale][sensitivities]") {
  if (daekit::test::sanitized_build()) {
    WARN("not run: the sanitizer's shadow memory does not fit an address-space limit");
    return;
  }
  // n = 32 768 and np = 16 384 (one source term per cell): df/dp dense would take 4.3 GB.
  for (const char* solver : {"bdf", "rodas5p", "cvode", "ida"}) {
    INFO(solver);
    std::string out;
    const int code = run_command("ulimit -v 2000000 && " +
                                     daekit_cmd(std::string("run --problem brusselator --param N=128 --param per_cell=true "
                                                            "--rtol 1e-5 --tend 0.05 --sensitivities a3_5,y0:u1_1 "
                                                            "--solver-opt linear_solver=krylov --solver ") +
                                                solver),
                                 &out);
    CHECK(code == 0);
    CHECK_THAT(out, Catch::Contains("status     success"));
  }
}
