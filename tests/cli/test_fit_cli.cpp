// `daekit fit` on the command line: estimates in the JSON report under their names, the
// text table, the plots, each class of bad input refused with exit 2 (and JSON when
// asked), a fit that does not converge ending with its own status and exit 1, and a model
// that crashes ending as status crashed while the host reports it.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>

#include "harness.hpp"

using daekit::test::run_command;

namespace {

namespace fs = std::filesystem;

struct Folder {
  fs::path path = fs::temp_directory_path() / ("daekit-fit-cli-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

std::string daekit_fit(const std::string& args, bool with_stderr = true) {
  const std::string command = daekit::test::daekit_binary() + " " + args + " --plugin " + daekit::test::fixture_dir() +
                              "/parameters/fixture_parameter_models.so";
  return with_stderr ? command : std::string("(").append(command).append(" 2>/dev/null)");
}

// parametric_decay: y' = -k y + c, y(0) = 1, exact solution written here.
std::string decay_data(double k, double c) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,name,value,sigma\n";
  for (const double t : {0.25, 0.5, 1.0, 1.5, 2.0})
    csv << t << ",y1," << c / k + (1 - c / k) * std::exp(-k * t) << ",0.001\n";
  return csv.str();
}

}  // namespace

TEST_CASE("daekit fit reports the estimates by name in JSON, with intervals and the data's fit", "[cli][fit]") {
  const Folder dir;
  const std::string data = dir.write("decay.csv", decay_data(0.8, 0.3));
  std::string out;
  REQUIRE(run_command(daekit_fit("fit --problem parametric_decay --solver bdf --data " + data +
                                 " --estimate k,c --initial k=2,c=0 --rtol 1e-10 --atol 1e-12 --report json --plots " +
                                 (dir.path / "plots").string() + " -o " + (dir.path / "fit.json").string(),
                             false),
                      &out) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("status") == "success");
  CHECK(std::abs(j.at("estimates").at("k").get<double>() - 0.8) < 1e-6);
  CHECK(std::abs(j.at("estimates").at("c").get<double>() - 0.3) < 1e-6);
  CHECK(j.at("initial").at("k") == 2.0);
  const auto interval = j.at("confidence_intervals").at("k");
  CHECK(interval[0].get<double>() < 0.8);
  CHECK(interval[1].get<double>() > 0.8);
  CHECK(j.at("covariance").at("names") == nlohmann::json::array({"k", "c"}));
  CHECK(j.at("measurements") == 5);
  CHECK(j.at("degrees_of_freedom") == 3);
  CHECK(j.at("experiments")[0].at("id") == "decay");
  CHECK(j.at("experiments")[0].at("points").size() == 5);
  CHECK(j.at("stats").at("steps").get<int>() > 0);
  CHECK(nlohmann::json::parse(std::ifstream(dir.path / "fit.json")) == j);
  for (const char* image : {"decay.svg", "decay.png"}) {
    INFO(image);
    CHECK(fs::file_size(dir.path / "plots" / image) > 1000);
  }
  // A plot folder that cannot be made costs the plots (exit 1), not the report.
  REQUIRE(run_command(daekit_fit("fit --problem parametric_decay --data " + data +
                                     " --estimate k --plots /proc/no-such-folder/plots --report json",
                                 false),
                      &out) == 1);
  CHECK(nlohmann::json::parse(out).at("status") == "success");
  // The text table names every estimate.
  REQUIRE(run_command(daekit_fit("fit --problem parametric_decay --data " + data + " --estimate k,c --log k"), &out) == 0);
  CHECK_THAT(out, Catch::Contains("status      success") && Catch::Contains("95% interval") && Catch::Contains("\nk "));
}

TEST_CASE("daekit fit refuses bad input before the fit starts, naming what is wrong", "[cli][fit][input]") {
  const Folder dir;
  const std::string data = dir.write("decay.csv", decay_data(0.8, 0.3));
  const std::string base = "fit --problem parametric_decay --data " + data;
  const std::vector<std::pair<std::string, std::string>> cases{
      {base + " --estimate kk", "no real parameter 'kk'"},
      {base, "--estimate is required"},
      {"fit --problem parametric_decay --estimate k", "--data is required"},
      {base + " --estimate k --data " + (dir.path / "missing.csv").string(), "is not a readable file"},
      {"fit --problem parametric_decay --estimate k --data " + dir.write("bad.csv", "t,name,value,sigma\n1,y1,2,0\n"),
       "bad.csv, line 2: sigma must be positive"},
      {"fit --problem parametric_decay --estimate k --data " + dir.write("nan.csv", "t,name,value,sigma\n1,y1,nan,1\n"),
       "line 2: the value 'nan' is not finite"},
      {"fit --problem parametric_decay --estimate k --data " + dir.write("name.csv", "t,name,value,sigma\n1,z,2,1\n"),
       "name.csv, line 2: problem 'parametric_decay' has no component or output 'z'"},
      {"fit --problem parametric_decay --estimate k --data " + dir.write("late.csv", "t,name,value,sigma\n5,y1,2,1\n"),
       "late.csv, line 2: t = 5 lies outside the problem's span [0, 2]"},
      {base + " --estimate k --bounds k=2:3", "initial guess of k (1.5) lies outside its bounds [2, 3]"},
      {base + " --estimate k --bounds k=2", "--bounds k expects LOW:HIGH"},
      {base + " --estimate k --bounds c=0:1", "--bounds names c, which --estimate does not"},
      {base + " --estimate k --initial k=abc", "--initial k: 'abc' is not a number"},
      {base + " --estimate k --log c", "--log names c, which --estimate does not"},
      {base + " --estimate k --conditions " + dir.write("c.csv", "experiment,k\nother,1\n"), "no experiment 'other'"},
      {base + " --estimate k --method newton", "levenberg_marquardt or dogleg"},
      {base + " --estimate k --solver nosuch", "nosuch"},
      {base + " --estimate k --report xml", "--report must be text or json"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    std::string out;
    CHECK(run_command(daekit_fit(args), &out) == 2);
    CHECK_THAT(out, Catch::Contains(message));
  }
  // A script asking for JSON gets JSON.
  std::string out;
  CHECK(run_command(daekit_fit(base + " --estimate kk --report json", false), &out) == 2);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("status") == "invalid_input");
  CHECK_THAT(j.at("message").get<std::string>(), Catch::Contains("kk"));
  // Nothing is left behind by a refused fit.
  CHECK_FALSE(fs::exists(dir.path / "plots"));
}

TEST_CASE("a fit that does not converge ends with its status, exit 1 and the best point reached", "[cli][fit]") {
  const Folder dir;
  const std::string data = dir.write("decay.csv", decay_data(0.8, 0.3));
  std::string out;
  CHECK(run_command(daekit_fit("fit --problem parametric_decay --data " + data +
                               " --estimate k,c --initial k=4 --max-iterations 1 --report json",
                           false),
                    &out) == 1);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("status") == "not_converged");
  CHECK(j.at("estimates").at("k").is_number());
}

TEST_CASE("a model that crashes during a fit ends it with status crashed, reported by the host", "[cli][fit][isolation]") {
  const Folder dir;
  const std::string data = dir.write("d.csv", "t,name,value,sigma\n0.5,y1,1,0.1\n");
  std::string out;
  CHECK(run_command(std::string("(").append(daekit::test::daekit_binary()) + " fit --problem segfault_model --solver rodas5p --data " +
                        data + " --estimate y0:y1 --report json --plugin-path " + daekit::test::fixture_dir() +
                        "/hostile 2>/dev/null)",
                    &out) == 1);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("status") == "crashed");
  CHECK_THAT(j.at("message").get<std::string>(), Catch::Contains("segfault_model"));
}

TEST_CASE("daekit fit --estimate all --gradient adjoint fits every real parameter by cvode's adjoint", "[cli][fit]") {
  const Folder dir;
  const std::string data = dir.write("decay.csv", decay_data(0.8, 0.3));
  std::string out;
  REQUIRE(run_command(daekit_fit("fit --problem parametric_decay --solver cvode --data " + data +
                                     " --estimate all --initial k=2,c=0.1 --gradient adjoint --rtol 1e-10 --atol 1e-12"
                                     " --report json",
                                 false),
                      &out) == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j.at("status") == "success");
  CHECK(j.at("gradient") == "adjoint");
  CHECK(std::abs(j.at("estimates").at("k").get<double>() - 0.8) < 1e-6);
  CHECK(std::abs(j.at("estimates").at("c").get<double>() - 0.3) < 1e-6);
  CHECK(run_command(daekit_fit("fit --problem parametric_decay --data " + data + " --estimate k --gradient sideways"),
                    &out) == 2);
  CHECK_THAT(out, Catch::Contains("forward, adjoint or auto"));
}
