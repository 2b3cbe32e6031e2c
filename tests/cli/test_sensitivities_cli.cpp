// Forward sensitivities on the command line (ABI 1.3): `daekit run --sensitivities` prints
// dy/dq at the end, puts them in --report json under "sensitivities" and in --output as
// dY/dQ columns; each checked against the closed form computed here. Requests a solver or
// problem cannot meet are errors with a non-zero exit, before anything runs.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>

#include <daekit/sdk/dual.hpp>

#include "ball_closed_form.hpp"
#include "harness.hpp"

using daekit::test::run_command;

namespace {

std::string daekit_with_fixture(const std::string& args, bool with_stderr = true) {
  return daekit::test::daekit_binary() + " " + args + " --plugin " + daekit::test::fixture_dir() +
         "/parameters/fixture_parameter_models.so" + (with_stderr ? " 2>&1" : " 2>/dev/null");
}

// y' = -k y + c, y(0) = 1 at t = 2 (the fixture's span): dy/dk, dy/dc, dy/dy0.
struct Exact {
  double k = 1.5, c = 0.5, t = 2.0;
  double e() const { return std::exp(-k * t); }
  double dk() const { return -c / (k * k) * (1.0 - e()) - t * (1.0 - c / k) * e(); }
  double dc() const { return (1.0 - e()) / k; }
  double dy0() const { return e(); }
};

}  // namespace

TEST_CASE("daekit run --sensitivities reports dy/dq at the end in JSON, against the closed form",
          "[cli][sensitivities]") {
  for (const std::string solver : {"cvode", "ida"}) {
    INFO(solver);
    std::string out;
    REQUIRE(run_command(daekit_with_fixture("run --problem parametric_decay --solver " + solver +
                                                " --rtol 1e-10 --atol 1e-12 --sensitivities all,y0 --report json",
                                            false),
                        &out) == 0);
    const auto j = nlohmann::json::parse(out);
    const auto& s = j.at("sensitivities");
    CHECK(s.at("parameters") == nlohmann::json::array({"k", "c", "y0:y1"}));
    const Exact x;
    CHECK(std::abs(s.at("at_tend")[0][0].get<double>() - x.dk()) < 1e-8);
    CHECK(std::abs(s.at("at_tend")[0][1].get<double>() - x.dc()) < 1e-8);
    CHECK(std::abs(s.at("at_tend")[0][2].get<double>() - x.dy0()) < 1e-8);
    CHECK(j.at("stats").contains("nsolve_sens"));
  }
}

TEST_CASE("daekit run --sensitivities writes dY/dQ columns beside y in --output", "[cli][sensitivities]") {
  const auto file = std::filesystem::temp_directory_path() / ("daekit-sens-" + std::to_string(::getpid()) + ".csv");
  std::string out;
  REQUIRE(run_command(daekit_with_fixture("run --problem parametric_decay --solver cvode --rtol 1e-10 --atol 1e-12"
                                          " --sensitivities k --saveat 0,1,2 --output " + file.string()),
                      &out) == 0);
  CHECK_THAT(out, Catch::Contains("sensitivities 1") && Catch::Contains("d y / d"));
  std::ifstream in(file);
  std::string header, row;
  std::getline(in, header);
  CHECK(header == "t,y1,dy1/dk");
  int rows = 0;
  while (std::getline(in, row)) {
    std::stringstream fields(row);
    std::string t, y, dk;
    std::getline(fields, t, ',');
    std::getline(fields, y, ',');
    std::getline(fields, dk, ',');
    Exact x;
    x.t = std::stod(t);
    INFO("t = " << t);
    CHECK(std::abs(std::stod(dk) - x.dk()) < 1e-8);
    ++rows;
  }
  CHECK(rows == 3);
  std::filesystem::remove(file);
}

TEST_CASE("sensitivities that cannot be had are refused before the run, with a message", "[cli][sensitivities]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--solver cvode --sensitivities kk", "no real parameter 'kk'; did you mean 'k'"},
      {"--solver cvode --sensitivities k,k", "names 'k' twice"},
      {"--solver cvode --sensitivities y0:z", "no component 'z'"},
      {"--solver cvode --sensitivities ,", "empty name"},
      {"--solver cvode --sensitivities k --sens-error-control maybe", "--sens-error-control must be on or off"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    std::string out;
    CHECK(run_command(daekit_with_fixture("run --problem parametric_decay " + args), &out) != 0);
    CHECK_THAT(out, Catch::Contains(message));
  }
  std::string out;
  CHECK(run_command(daekit::test::daekit_binary() + " run --problem plei --solver cvode --sensitivities all 2>&1",
                    &out) != 0);
  CHECK_THAT(out, Catch::Contains("declares no real parameters"));
  // A solver built against ABI 1.1, before sensitivities: refused before the run.
  CHECK(run_command(daekit_with_fixture("run --problem parametric_decay --solver legacy_euler --sensitivities all "
                                        "--plugin " + daekit::test::fixture_dir() + "/fixture_abi_1_1.so"),
                    &out) != 0);
  CHECK_THAT(out, Catch::Contains("does not compute sensitivities"));
}

TEST_CASE("daekit info says which solvers compute sensitivities", "[cli][sensitivities]") {
  for (const auto& [solver, answer] : {std::pair{"cvode", "sensitivities yes"}, std::pair{"ida", "sensitivities yes"},
                                       std::pair{"radau5", "sensitivities yes"}, std::pair{"radauiia", "sensitivities yes"}, std::pair{"ros34pw2", "sensitivities yes"}, std::pair{"rodas5p", "sensitivities yes"}}) {
    INFO(solver);
    std::string out;
    REQUIRE(run_command(daekit::test::daekit_binary() + " info " + solver + " 2>&1", &out) == 0);
    CHECK_THAT(out, Catch::Contains(answer));
  }
}

TEST_CASE("daekit run --sensitivities y0 carries dy/dy0 through the bouncing ball's bounces", "[cli][sensitivities]") {
  for (const std::string solver : {"cvode", "bdf", "radau5", "rodas5p"}) {
    INFO(solver);
    std::string out;
    REQUIRE(run_command(daekit::test::daekit_binary() + " run --problem bouncing_ball --param bounces=3 --solver " +
                            solver + " --rtol 1e-10 --atol 1e-12 --sensitivities y0 --report json 2>/dev/null",
                        &out) == 0);
    const auto j = nlohmann::json::parse(out);
    CHECK(j.at("nevents") == 3);
    const auto& s = j.at("sensitivities");
    CHECK(s.at("parameters") == nlohmann::json::array({"y0:x", "y0:v"}));
    daekit::Dual<2> x0(10.0), v0(0.0);
    x0.d[0] = 1.0;
    v0.d[1] = 1.0;
    const auto exact = daekit::test::ball_at(x0, v0, daekit::Dual<2>(0.8), daekit::Dual<2>(9.81), j.at("t").get<double>());
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t q = 0; q < 2; ++q) {
        INFO("dy" << i << "/dy0_" << q);
        CHECK(std::abs(s.at("at_tend")[i][q].get<double>() - exact[i].d[q]) < 1e-6 * std::max(1.0, std::abs(exact[i].d[q])));
      }
  }
}

namespace {

// dy/dq at the end of `daekit run` (JSON), row-major n x columns flattened to columns.
std::vector<double> sensitivities_of_run(const std::string& args) {
  std::string out;
  REQUIRE(run_command(daekit_with_fixture("run " + args + " --report json", false), &out) == 0);
  std::vector<double> columns;
  const auto at_tend = nlohmann::json::parse(out).at("sensitivities").at("at_tend");
  for (std::size_t k = 0; k < at_tend[0].size(); ++k)
    for (const auto& row : at_tend) columns.push_back(row[k].get<double>());
  return columns;
}

}  // namespace

TEST_CASE("daekit wpd --error sens scores dy/dq at tend against a tight reference", "[cli][sensitivities][wpd]") {
  const auto dir = std::filesystem::temp_directory_path() / ("daekit-wpd-sens-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::string out;
  const std::string sweep = "wpd --problem parametric_decay --solvers bdf,radau5 --tols 1e-4,1e-6,1e-8 --error final,sens "
                            "--sensitivities k,c,y0 --sens-error-control on --quiet --out " + dir.string();
  REQUIRE(run_command(daekit_with_fixture(sweep), &out) == 0);
  std::ifstream in(dir / "results.json");
  const auto j = nlohmann::json::parse(in);
  CHECK_THAT(j.at("meta").at("sens_reference").get<std::string>(), Catch::Contains("radau5 at tol 1e-12"));
  const Exact x;
  const std::vector<double> exact = {x.dk(), x.dc(), x.dy0()};
  std::map<std::string, std::vector<double>> errors;
  for (const auto& row : j.at("rows")) {
    REQUIRE(row.at("status") == "success");
    const std::string solver = row.at("solver");
    const double rtol = row.at("rtol");
    const double measured = row.at("sens_error").get<double>();
    errors[solver].push_back(measured);
    // The measure's own arithmetic, against the closed form: the same run by hand, each
    // column's error relative to its largest entry (one component here: relative error).
    std::ostringstream args;
    args << "--problem parametric_decay --solver " << solver << " --rtol " << rtol << " --atol " << rtol
         << " --sensitivities k,c,y0 --sens-error-control on";
    const auto s = sensitivities_of_run(args.str());
    REQUIRE(s.size() == 3);
    double by_hand = 0.0;
    for (std::size_t k = 0; k < 3; ++k) by_hand = std::max(by_hand, std::abs(s[k] - exact[k]) / std::abs(exact[k]));
    INFO(solver << " at " << rtol << ": wpd " << measured << ", by hand " << by_hand);
    CHECK(std::abs(measured - by_hand) <= 1e-3 * by_hand + 1e-10);
  }
  // It follows the tolerance down.
  for (const auto& [solver, e] : errors) {
    INFO(solver);
    REQUIRE(e.size() == 3);
    CHECK(e.back() < e.front() / 100);
  }
  std::ifstream csv(dir / "results.csv");
  std::string header;
  std::getline(csv, header);
  CHECK_THAT(header, Catch::EndsWith(",sens_error"));
  CHECK(std::filesystem::exists(dir / "parametric_decay-sens.svg"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("daekit wpd --error sens without the columns, or with a name a problem lacks, is refused",
          "[cli][sensitivities][wpd]") {
  const auto dir = std::filesystem::temp_directory_path() / ("daekit-wpd-sens-bad-" + std::to_string(::getpid()));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--error sens", "--error sens scores the sensitivities --sensitivities names"},
      {"--error sens --sensitivities kk", "no real parameter 'kk'"},
      {"--error senz --sensitivities k", "did you mean 'sens'"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    std::string out;
    CHECK(run_command(daekit_with_fixture("wpd --problem parametric_decay --solvers bdf --tols 1e-6 --quiet " + args +
                                          " --out " + dir.string()),
                      &out) != 0);
    CHECK_THAT(out, Catch::Contains(message));
  }
  std::filesystem::remove_all(dir);
}
