// `daekit wpd` end to end: files, failures shown as failures, the cached reference.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.hpp"

using daekit::test::run_command;
namespace fs = std::filesystem;

namespace {

// A multiplot area of a gnuplot script (set origin x,y / set size w,h), in screen units.
struct Area {
  double x = 0, y = 0, w = 0, h = 0;
};

std::vector<Area> placed_areas(const std::string& script) {
  std::vector<Area> areas;
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    Area a;
    if (std::sscanf(line.c_str(), "set origin %lf,%lf", &a.x, &a.y) == 2) areas.push_back(a);
    else if (!areas.empty() && std::sscanf(line.c_str(), "set size %lf,%lf", &a.w, &a.h) == 2)
      areas.back().w = a.w, areas.back().h = a.h;
  }
  return areas;
}

bool overlap(const Area& a, const Area& b) {
  const double tiny = 1e-9;
  return a.x + a.w > b.x + tiny && b.x + b.w > a.x + tiny && a.y + a.h > b.y + tiny && b.y + b.h > a.y + tiny;
}
std::string wpd(const std::string& args) { return daekit::test::daekit_binary() + " wpd --quiet " + args; }
fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("daekit-wpd-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}
std::vector<std::string> lines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("a Robertson sweep writes CSV, JSON, SVG and PNG with both solvers", "[cli][wpd]") {
  const fs::path out = fresh_dir("rober");
  std::string log;
  REQUIRE(run_command(wpd("--problem rober --solvers rodas5p,rodas4p2 --tols 1e-4:1e-6 --out " + out.string()), &log) ==
          0);
  const auto csv = lines(out / "results.csv");
  REQUIRE(csv.size() == 7);  // header + 2 solvers x 3 tolerances
  CHECK_THAT(csv[0], Catch::StartsWith("problem,solver,rtol,atol,status"));
  for (std::size_t k = 1; k < csv.size(); ++k) CHECK_THAT(csv[k], Catch::Contains(",success,"));
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  CHECK(j["rows"].size() == 6);
  CHECK(j["meta"]["plugins"].size() == 3);
  // Which build made the results: file name and hash, never this machine's path.
  for (const auto& p : j["meta"]["plugins"]) {
    CHECK(p["file"].get<std::string>().find('/') == std::string::npos);
    CHECK(p["sha1"].get<std::string>().size() == 40);
  }
  CHECK(j["meta"].contains("machine"));
  CHECK(j["meta"].contains("date"));
  // ... and the commit, compiler, LAPACK and BLAS kernel, the command and the shared settings.
  const auto& build = j["meta"]["build"];
  CHECK(!build["commit"].get<std::string>().empty());
  CHECK_THAT(build["compiler"].get<std::string>(), Catch::Contains("gcc") || Catch::Contains("clang"));
  CHECK_THAT(build["lapack"].get<std::string>(), Catch::Contains("lib"));
  CHECK(build.contains("blas_kernel"));
  CHECK_THAT(j["meta"]["command_line"].get<std::string>(), Catch::Contains("--solvers rodas5p,rodas4p2"));
  CHECK(j["meta"]["settings"]["max_steps"] == 1000000);
  CHECK(j["meta"]["settings"]["init"] == "check");
  for (const auto& row : j["rows"]) CHECK(row["solver_options"].is_object());
  const std::string svg = slurp(out / "rober-final.svg");
  CHECK_THAT(svg, Catch::Contains("rodas5p") && Catch::Contains("rodas4p2"));
  std::string xml;
  CHECK(run_command("xmllint --noout " + (out / "rober-final.svg").string(), &xml) == 0);
  CHECK(fs::file_size(out / "rober-final.png") > 1000);
  CHECK(fs::exists(out / "rober-final-nfev.svg"));
  CHECK_FALSE(fs::exists(out / "summary.svg"));  // one problem: its own diagrams say it all
  CHECK_THAT(log, Catch::Contains("time to reach scd"));
}

TEST_CASE("failed runs are recorded with their status and named on the plot", "[cli][wpd]") {
  const fs::path out = fresh_dir("fail");
  std::string log;
  REQUIRE(run_command(wpd("--problem rober --solvers rodas5p,ros3p --tols 1e-4,1e-6 --max-steps 150 --out " +
                          out.string()),
                      &log) == 0);
  const auto csv = lines(out / "results.csv");
  REQUIRE(csv.size() == 5);
  int failed = 0;
  for (std::size_t k = 1; k < csv.size(); ++k) failed += csv[k].find(",too_many_steps,") != std::string::npos;
  CHECK(failed >= 1);
  CHECK(failed < 4);
  CHECK_THAT(slurp(out / "rober-final.svg"), Catch::Contains("failed"));
  CHECK_THAT(log, Catch::Contains("failed)"));
}

TEST_CASE("the L2 reference is computed once and read from the cache afterwards", "[cli][wpd]") {
  const fs::path out = fresh_dir("l2"), cache = out / "cache";
  const std::string args = "--problem hires --solvers rodas5p,ros34pw2 --tols 1e-4,1e-6 --error both --cache-dir " +
                           cache.string() + " --out " + out.string();
  std::string first, second;
  REQUIRE(run_command(daekit::test::daekit_binary() + " wpd " + args, &first) == 0);
  CHECK_THAT(first, Catch::Contains("L2 reference for hires computed"));
  REQUIRE(std::distance(fs::directory_iterator(cache), fs::directory_iterator{}) == 1);
  const auto file = fs::directory_iterator(cache)->path();
  const auto stamp = fs::last_write_time(file);
  REQUIRE(run_command(daekit::test::daekit_binary() + " wpd --overwrite " + args, &second) == 0);
  CHECK_THAT(second, Catch::Contains("L2 reference for hires read from the cache"));
  CHECK(fs::last_write_time(file) == stamp);
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  for (const auto& row : j["rows"]) CHECK(row["l2"].is_number());
  CHECK(fs::exists(out / "hires-l2.svg"));
}

TEST_CASE("daekit wpd refuses bad arguments before running anything", "[cli][wpd][badinput]") {
  std::string log;
  const fs::path out = fresh_dir("bad");
  CHECK(run_command(wpd("--problem rober --solvers rodas5p,nosuch --out " + out.string()), &log) == 2);
  CHECK_THAT(log, Catch::Contains("unknown solver 'nosuch'"));
  CHECK(run_command(wpd("--problem rober --solvers rodas5p --tols 1e-4:x --out " + out.string()), &log) == 2);
  CHECK(run_command(wpd("--problem rober --solvers rodas5p --solver-opt rodas5p:bogus=1 --out " + out.string()),
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("no option 'bogus'"));
  CHECK(run_command(wpd("--problem rober --solvers rodas5p --error sideways --out " + out.string()), &log) == 2);
}

TEST_CASE("a problem without its own reference is scored against the reference solver's y(tend)", "[cli][wpd]") {
  // Fekete with N = 6 has no test-set reference: without --reference-solver no scd,
  // with it scd against bdf at 1e-11, and the meta says where the numbers come from.
  const fs::path plain = fresh_dir("noref"), scored = fresh_dir("finalref");
  std::string log;
  REQUIRE(run_command(wpd("--problem fekete --param N=6 --solvers bdf,rodas5p --tols 1e-4,1e-6 --out " +
                          plain.string()),
                      &log) == 0);
  const auto unscored = nlohmann::json::parse(slurp(plain / "results.json"));  // alive for the loop
  for (const auto& row : unscored["rows"]) CHECK(row["scd"].is_null());
  REQUIRE(run_command(wpd("--problem fekete --param N=6 --solvers bdf,rodas5p --tols 1e-4,1e-6 "
                          "--reference-solver bdf --reference-tol 1e-11 --out " + scored.string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(scored / "results.json"));
  CHECK_THAT(j["meta"]["final_reference"].get<std::string>(), Catch::Contains("bdf at tol 1e-11"));
  for (const auto& row : j["rows"]) {
    REQUIRE(row["scd"].is_number());
    // Roughly the tolerance's digits, and never the 16 of comparing a run with itself.
    CHECK(row["scd"].get<double>() > -std::log10(row["rtol"].get<double>()) - 3.0);
    CHECK(row["scd"].get<double>() < 12.0);
  }
}

TEST_CASE("wpd --init fix lets the slider crank run at tolerances its printed initial values fail", "[cli][wpd]") {
  const fs::path checked = fresh_dir("crank-check"), fixed = fresh_dir("crank-fix");
  std::string log;
  REQUIRE(run_command(wpd("--problem crank --solvers radau5 --tols 1e-9 --out " + checked.string()), &log) == 0);
  CHECK(nlohmann::json::parse(slurp(checked / "results.json"))["rows"][0]["status"] == "inconsistent_initial_values");
  REQUIRE(run_command(wpd("--problem crank --solvers radau5 --tols 1e-9 --init fix --out " + fixed.string()), &log) ==
          0);
  const auto row = nlohmann::json::parse(slurp(fixed / "results.json"))["rows"][0];
  CHECK(row["status"] == "success");
  CHECK(row["scd"].get<double>() > 4.0);  // measured 4.19, as the test set's RADAU5
  std::string bad;
  CHECK(run_command(wpd("--problem crank --solvers radau5 --tols 1e-9 --init maybe --out " + fixed.string()), &bad) != 0);
  CHECK_THAT(bad, Catch::Contains("--init must be check, fix or trust"));
}

TEST_CASE("wpd refuses settings that would run nonsense or silently repeat", "[cli][wpd][usage]") {
  const fs::path out = fresh_dir("refusals");
  std::string text;
  const std::vector<std::pair<std::string, std::string>> cases{
      {"--solvers ,", "--solvers names no solver"},
      {"--solvers rodas5p,rodas5p", "names 'rodas5p' twice"},
      {"--solvers rodas5p --atol-scale -1", "--atol-scale must be a positive finite number"},
      {"--solvers rodas5p --timeout-per-run nan", "--timeout-per-run must be a finite number"},
      {"--solvers rodas5p --tols 1e-4:1e-6:0.01", "points per decade must be a whole number"},
      {"--solvers rodas5p --reference-tol 0", "--reference-tol must lie in (0, 1)"},
  };
  for (const auto& [args, message] : cases) {
    INFO(args);
    CHECK(run_command(wpd("--problem hires " + args + " --out " + out.string()), &text) == 2);
    CHECK_THAT(text, Catch::Contains(message));
  }
  CHECK(!fs::exists(out / "results.csv"));
  CHECK(run_command(daekit::test::daekit_binary() + " wpd --help", &text) == 0);
  CHECK_THAT(text, Catch::Contains("default 600"));
}

TEST_CASE("killing a sweep kills the point it is running", "[cli][wpd][signals]") {
  const fs::path out = fresh_dir("killed");
  const std::string command = wpd("--problem fekete --solvers ros3p --tols 1e-11 --out " + out.string());
  std::string text;
  // The sweep's children carry its command line; none may outlive it. The pattern is
  // anchored at the binary, so it cannot match the shells that run this script.
  std::string pattern = out.string();
  const auto slash = pattern.rfind('/');
  std::string anchored = "^";
  anchored += daekit::test::daekit_binary();
  anchored += " wpd .*";
  anchored += pattern.substr(0, slash + 1);
  anchored += '[';
  anchored += pattern[slash + 1];
  anchored += ']';
  anchored += pattern.substr(slash + 2);
  pattern = anchored;
  const std::string script = "bash -c '" + command + " & p=$!; sleep 1.5; kill -TERM $p; wait $p; sleep 0.5; " +
                             "if pgrep -f \"" + pattern + "\" > /dev/null; then echo ALIVE; pkill -9 -f \"" + pattern +
                             "\"; else echo GONE; fi'";
  run_command(script, &text);
  CHECK_THAT(text, Catch::Contains("GONE"));
  fs::remove_all(out);
}

TEST_CASE("a failed reference run says which tolerance it used and why it failed", "[cli][wpd]") {
  const fs::path out = fresh_dir("failed-reference");
  std::string text;
  CHECK(run_command(wpd("--plugin " + daekit::test::fixture_dir() + "/fixture_models.so --problem nan_model "
                        "--solvers rodas5p --tols 1e-4 --error l2 --out " + out.string()),
                    &text) == 2);
  CHECK_THAT(text, Catch::Contains("the reference run (rodas5p at tol 1e-12 on nan_model) failed: evaluation_failure"));
  fs::remove_all(out);
}

TEST_CASE("a sweep's results are not overwritten by accident, and --resume runs only what is missing", "[cli][wpd][resume]") {
  const fs::path out = fresh_dir("resume");
  const std::string base = "--problem rober --tols 1e-4:1e-5 --out " + out.string();
  std::string text;
  REQUIRE(run_command(wpd(base + " --solvers rodas5p"), &text) == 0);
  CHECK(lines(out / "results.jsonl").size() == 2);
  CHECK(run_command(wpd(base + " --solvers rodas5p"), &text) == 2);
  CHECK_THAT(text, Catch::Contains("holds the results of an earlier sweep") && Catch::Contains("--resume"));
  // Only radau5's two points run: rodas5p's are read back, with their settings unchanged.
  REQUIRE(run_command(wpd(base + " --solvers rodas5p,radau5 --resume"), &text) == 0);
  CHECK(lines(out / "results.jsonl").size() == 4);
  const auto json = nlohmann::json::parse(slurp(out / "results.json"));
  CHECK(json["rows"].size() == 4);
  CHECK(json["meta"]["complete"] == true);
  // A changed setting is a different point: it runs again.
  REQUIRE(run_command(wpd(base + " --solvers rodas5p --runs 2 --resume"), &text) == 0);
  CHECK(lines(out / "results.jsonl").size() == 6);
  REQUIRE(run_command(wpd(base + " --solvers rodas5p --overwrite"), &text) == 0);
  CHECK(lines(out / "results.jsonl").size() == 2);
  CHECK(run_command(wpd(base + " --solvers rodas5p --overwrite --resume"), &text) == 2);
  fs::remove_all(out);
}

TEST_CASE("setups and options are validated before the sweep starts: refused with the reason, nothing run",
          "[cli][wpd][bad-input]") {
  const fs::path out = fresh_dir("invalid-setup");
  std::string text;
  // Each option valid alone, the set not: radauiia starts at 3 stages, below min_stages 5.
  CHECK(run_command(wpd("--problem rober --tols 1e-4:1e-5 --setup r9=radauiia:min_stages=5 --out " + out.string()),
                    &text) == 2);
  CHECK_THAT(text, Catch::Contains("--setup r9 (radauiia)") && Catch::Contains("min_stages"));
  CHECK(!fs::exists(out / "results.jsonl"));
  for (const char* bad : {"nan", "-1", "inf"}) {
    CHECK(run_command(wpd(std::string("--problem rober --tols 1e-4 --solvers rodas5p --target-scd ") + bad +
                          " --out " + out.string()),
                      &text) == 2);
    CHECK_THAT(text, Catch::Contains("--target-scd"));
  }
  fs::remove_all(out);
}

TEST_CASE("a results.jsonl whose last line was cut short is repaired before --resume appends", "[cli][wpd][resume]") {
  const fs::path out = fresh_dir("torn");
  const std::string base = "--problem rober --tols 1e-4:1e-5 --solvers rodas5p --out " + out.string();
  std::string text;
  REQUIRE(run_command(wpd(base), &text) == 0);
  // A kill in the middle of the second line: the first line whole, half of the second.
  const std::vector<std::string> whole = lines(out / "results.jsonl");
  REQUIRE(whole.size() == 2);
  {
    std::ofstream torn(out / "results.jsonl", std::ios::trunc);
    torn << whole[0] << "\n" << whole[1].substr(0, whole[1].size() / 2);
  }
  REQUIRE(run_command(wpd(base + " --resume"), &text) == 0);
  // The torn point ran again onto a line of its own: two lines, each one JSON object.
  const std::vector<std::string> repaired = lines(out / "results.jsonl");
  REQUIRE(repaired.size() == 2);
  for (const auto& line : repaired) CHECK_NOTHROW(nlohmann::json::parse(line));
  // And the next resume finds both: nothing runs again.
  REQUIRE(run_command(wpd(base + " --resume"), &text) == 0);
  CHECK(lines(out / "results.jsonl").size() == 2);
  fs::remove_all(out);
}

TEST_CASE("a sweep whose files cannot be written fails, naming the file, never '0 failed' with empty files",
          "[cli][wpd]") {
  // A file-size limit (EFBIG once reached, SIGXFSZ ignored) stands for a full disk: at 2 KiB
  // results.json cannot be written, at 6 KiB the diagrams are cut short.
  for (const char* limit : {"2", "6"}) {
    const fs::path out = fresh_dir(std::string("full") + limit);
    std::string text;
    const int code = run_command(std::string("bash -c 'ulimit -f ") + limit + "; trap \"\" XFSZ; " +
                                     wpd("--problem rober --tols 1e-4 --solvers rodas5p --out " + out.string()) + "'",
                                 &text);
    INFO(limit << " KiB: " << text);
    CHECK(code != 0);
    CHECK_THAT(text, Catch::Contains(out.string()) &&
                         (Catch::Contains("failed") || Catch::Contains("cannot write") || Catch::Contains("incomplete")));
    CHECK_THAT(text, !Catch::Contains("(0 failed) written to " + out.string() + "\n"));
    fs::remove_all(out);
  }
}

TEST_CASE("an interrupted sweep keeps its finished points, locks its folder while it runs, and resumes",
          "[cli][wpd][resume][signals]") {
  const fs::path out = fresh_dir("interrupted");
  const std::string hostile = daekit::test::fixture_dir() + "/hostile";
  const std::string args = "--problem vdpol --problem hanging_model --solvers rodas5p --tols 1e-4 --plugin-path " +
                           hostile + " --out " + out.string();
  std::string text;
  // vdpol finishes at once, hanging_model never: a second sweep into the folder is refused
  // while the first runs, and SIGINT ends the first with exit 130 and vdpol's row written.
  // Time limits everywhere, so that a test gone wrong ends instead of waiting on the hang.
  const std::string script = "bash -c '" + wpd(args + " --timeout-per-run 60") + " & p=$!; sleep 2; " +
                             wpd(args + " --resume --timeout-per-run 5") +
                             "; echo second=$?; kill -INT $p; wait $p; echo first=$?'";
  run_command(script, &text);
  CHECK_THAT(text, Catch::Contains("is in use by another daekit wpd") && Catch::Contains("second=2") &&
                       Catch::Contains("first=130") && Catch::Contains("--resume to finish"));
  CHECK(lines(out / "results.jsonl").size() == 1);
  auto json = nlohmann::json::parse(slurp(out / "results.json"));
  CHECK(json["meta"]["complete"] == false);
  REQUIRE(json["rows"].size() == 1);
  CHECK(json["rows"][0]["problem"] == "vdpol");
  // Resumed with a time limit: vdpol is not run again, hanging_model ends as a timeout.
  CHECK(run_command(wpd(args + " --resume --timeout-per-run 1"), &text) == 0);
  json = nlohmann::json::parse(slurp(out / "results.json"));
  REQUIRE(json["rows"].size() == 2);
  CHECK(json["rows"][1]["status"] == "timeout");
  CHECK(lines(out / "results.jsonl").size() == 2);
  fs::remove_all(out);
}

TEST_CASE("named setups compare one solver with itself: each row records its setup, duplicates are refused",
          "[cli][wpd]") {
  const fs::path out = fresh_dir("setups");
  std::string log;
  REQUIRE(run_command(wpd("--problem rober_dae --solvers radau5 --setup plain=rodas5p "
                          "--setup algebraic-suppressed=rodas5p:suppress_algebraic=true "
                          "--setup ida-core=ida:linear-solver=core@rtol*0.1 --tols 1e-5,1e-7 --out " +
                          out.string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  REQUIRE(j["rows"].size() == 8);
  std::map<std::string, int> per_setup;
  for (const auto& row : j["rows"]) {
    const std::string setup = row["setup"];
    ++per_setup[setup];
    CHECK(row["status"] == "success");
    if (setup == "algebraic-suppressed") {
      CHECK(row["solver"] == "rodas5p");
      // Either spelling of a key: run settings as the run command's flags, solver options as declared.
      CHECK(row["setup_options"]["run:suppress-algebraic"] == "true");
    }
    if (setup == "ida-core") {
      CHECK(row["solver"] == "ida");
      CHECK(row["setup_options"]["linear_solver"] == "core");
      // The factor reaches the solver: rtol is a tenth of the sweep's tolerance.
      CHECK(row["rtol"].get<double>() == Approx(0.1 * row["sweep_tol"].get<double>()));
    }
    if (setup == "plain") CHECK(row["setup_options"].empty());
  }
  CHECK(per_setup == std::map<std::string, int>{{"radau5", 2}, {"plain", 2}, {"algebraic-suppressed", 2}, {"ida-core", 2}});
  // Suppressing the algebraic components changes the steps: the two setups are two runs.
  CHECK_THAT(slurp(out / "rober_dae-final.gp"), Catch::Contains("algebraic-suppressed") && Catch::Contains("plain"));
  // Columns are only ever appended: the ones before stay where scripts read them.
  CHECK_THAT(lines(out / "results.csv")[0], Catch::Contains(",l2,setup,host,"));

  // Refused before anything runs: a name twice, the same solver and options twice, bad syntax.
  const fs::path bad = fresh_dir("setups-bad");
  for (const char* args : {"--setup a=rodas5p --setup a=radau5", "--solvers rodas5p --setup rodas5p=radau5",
                           "--setup a=rodas5p --setup b=rodas5p", "--setup a=rodas5p:jacobian=exact",
                           "--setup 'a b=rodas5p'", "--setup a=rodas5p@rtol*0", "--setup a=rodas5p@atol*2",
                           "--setup a=rodas5p:no_such_option=1", "--setup =rodas5p", "--solvers rodas5p,rodas5p",
                           "--setup a=rodas5p:fac_max=5 --setup b=rodas5p:fac-max=5"}) {
    INFO(args);
    CHECK(run_command(wpd(std::string("--problem rober ") + args + " --tols 1e-4 --out " + bad.string()), &log) == 2);
    CHECK_FALSE(fs::exists(bad / "results.json"));
  }
}

TEST_CASE("without a terminal the progress is one line per finished point, with the time still to come",
          "[cli][wpd]") {
  const fs::path out = fresh_dir("progress");
  std::string log;
  REQUIRE(run_command(daekit::test::daekit_binary() + " wpd --problem hires --solvers rodas5p,radau5 --tols 1e-4:1e-6 --out " +
                          out.string(),
                      &log) == 0);
  std::istringstream in(log);
  int progress_lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[", 0) != 0) continue;
    ++progress_lines;
    CHECK_THAT(line, Catch::Contains("hires / ") && Catch::Contains(": success in ") && Catch::Contains("remaining"));
    CHECK(line.find('\r') == std::string::npos);
  }
  CHECK(progress_lines == 6);
}

TEST_CASE("diagrams: 16 series in pairwise distinct styles, drawn into a folder whose name has quotes",
          "[cli][wpd]") {
  // Every solver of the tree: 16 series on one diagram.
  const fs::path out = fs::temp_directory_path() / ("daekit-wpd q'uo\"te " + std::to_string(::getpid()));
  fs::remove_all(out);
  std::string log;
  const std::string solvers = "rodas5p,rodas5,rodas4p2,rodas4p,rodas4,rodas42,rodas3,ros3p,ros34pw2,rosenbrock23,"
                              "radau5,radauiia,bdf,ndf,ida,cvode";
  // The folder is passed as one argument, quoted for the shell that run_command uses.
  std::string quoted = "'";
  for (char c : out.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  REQUIRE(run_command(wpd("--problem hires --solvers " + solvers + " --tols 1e-5 --out " + quoted), &log) == 0);
  CHECK(fs::exists(out / "hires-final.svg"));
  CHECK(fs::exists(out / "hires-final.png"));
  const std::string script = slurp(out / "hires-final.gp");
  std::set<std::string> styles;
  std::istringstream in(script);
  int series = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("set ", 0) == 0 || line.find(" title \"") == std::string::npos) continue;
    const auto from = line.find("linecolor"), to = line.find(" title");
    REQUIRE(from != std::string::npos);
    styles.insert(line.substr(from, to - from));
    ++series;
  }
  CHECK(series == 16);
  CHECK(styles.size() == 16);
  fs::remove_all(out);
}

TEST_CASE("per-problem parameters: PROBLEM:key=value sets a parameter of one swept problem only", "[cli][wpd][params]") {
  const fs::path out = fresh_dir("per-problem-params");
  std::string log;
  // vdpol with eps = 1e-3 has no reference: its rows have no scd.
  REQUIRE(run_command(wpd("--problem feed_reactor --problem vdpol --param feed_reactor:t_on=2 --param vdpol:eps=1e-3 "
                          "--param feed_reactor:tend=4 --solvers rodas5p --tols 1e-4,1e-5 --runs 2 --out " +
                          out.string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  REQUIRE(j["rows"].size() == 4);
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    CHECK(row["status"] == "success");
    if (row["problem"] == "feed_reactor") {
      CHECK(row["params"] == nlohmann::json({{"t_on", "2"}, {"tend", "4"}}));
      // Scored against its closed form at tend = 4: the feed switched on at t = 2 in every
      // timed run (the warm-up run before it ends with the feed on; each solve starts
      // from the problem's initial state again).
      CHECK(row["scd"].get<double>() > 4.0);
    }
    else
      CHECK(row["params"] == nlohmann::json({{"eps", "1e-3"}}));
  }
  // The min-max bars of the two runs carry no singular transforms (scale(0)), which SVG
  // renderers refuse.
  for (const auto& file : fs::directory_iterator(out))
    if (file.path().extension() == ".svg") {
      INFO(file.path());
      CHECK(slurp(file.path()).find("scale(0") == std::string::npos);
    }
  // A problem that is not swept, and a key given twice for one problem, are refused.
  const fs::path bad = fresh_dir("per-problem-params-bad");
  CHECK(run_command(wpd("--problem vdpol --param fekete:N=40 --solvers rodas5p --tols 1e-4 --out " + bad.string()),
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("names the problem 'fekete', which is not swept"));
  CHECK(run_command(wpd("--problem vdpol --param vdpol:eps=1e-3 --param vdpol:eps=1e-4 --solvers rodas5p --tols 1e-4 "
                        "--out " + bad.string()),
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("gives 'eps' twice"));
  CHECK_FALSE(fs::exists(bad / "results.json"));
}

namespace {
// heat2d's closed form (problems/heat2d/heat2d.cpp's header): u_ij(t) = exp(-2 mu t)
// sin(pi x_i) sin(pi y_j) inside, 0 on the boundary, component i + (N + 2) j.
std::vector<double> heat2d_exact(int N, double t) {
  const double pi = 3.14159265358979323846, h = 1.0 / (N + 1), s = std::sin(pi * h / 2.0);
  const double mu = 4.0 / (h * h) * s * s;
  const int side = N + 2;
  std::vector<double> u(static_cast<std::size_t>(side * side), 0.0);
  for (int j = 1; j <= N; ++j)
    for (int i = 1; i <= N; ++i)
      u[static_cast<std::size_t>(i + side * j)] = std::exp(-2.0 * mu * t) * std::sin(pi * i * h) * std::sin(pi * j * h);
  return u;
}

// The rows of a `daekit run --output` CSV: t first, then the components.
std::vector<std::vector<double>> csv_rows(const fs::path& file) {
  std::vector<std::vector<double>> rows;
  const auto text = lines(file);
  for (std::size_t k = 1; k < text.size(); ++k) {
    std::vector<double> row;
    std::stringstream s(text[k]);
    for (std::string cell; std::getline(s, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

struct Errors {
  double mean_abs_end = 0, rms = 0, max_abs = 0;
};

// DiffEqDevTools' definitions over the points of a run, by hand.
Errors errors_against_closed_form(const std::vector<std::vector<double>>& rows, int N) {
  Errors e;
  double squares = 0;
  std::size_t count = 0;
  for (const auto& row : rows) {
    const auto exact = heat2d_exact(N, row[0]);
    REQUIRE(row.size() == exact.size() + 1);
    for (std::size_t i = 0; i < exact.size(); ++i) {
      const double d = std::abs(row[i + 1] - exact[i]);
      squares += d * d;
      e.max_abs = std::max(e.max_abs, d);
      ++count;
    }
  }
  e.rms = std::sqrt(squares / static_cast<double>(count));
  const auto& last = rows.back();
  const auto exact = heat2d_exact(N, last[0]);
  for (std::size_t i = 0; i < exact.size(); ++i) e.mean_abs_end += std::abs(last[i + 1] - exact[i]);
  e.mean_abs_end /= static_cast<double>(exact.size());
  return e;
}
}  // namespace

TEST_CASE("error measures: DiffEqDevTools' final, l2, linf, L2 and Linf equal a hand computation", "[cli][wpd][measures]") {
  // heat2d (36 components, 16 of them moving) has an exact solution at any t: each measure
  // of a sweep row must equal the same formula applied by hand to the points that `daekit
  // run` writes for the same settings (every step; the 100 uniform times by dense output).
  const int N = 4;
  const fs::path out = fresh_dir("measures");
  fs::create_directories(out);
  std::string log;
  REQUIRE(run_command(wpd("--problem heat2d --param N=4 --solvers rodas5p,bdf --tols 1e-6 "
                          "--error final,final-mean,l2-steps,linf-steps,L2,Linf --out " + (out / "sweep").string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(out / "sweep" / "results.json"));
  CHECK(j["meta"]["error_measures"] == nlohmann::json({"final", "final-mean", "l2-steps", "linf-steps", "L2", "Linf"}));
  CHECK_THAT(j["meta"]["error_reference"].get<std::string>(), Catch::Contains("exact solution"));
  std::ostringstream times;
  times.precision(17);
  for (int k = 0; k < 100; ++k) times << (k ? "," : "") << 0.0 + (0.1 - 0.0) * k / 99.0;
  REQUIRE(j["rows"].size() == 2);
  for (const auto& row : j["rows"]) {
    const std::string solver = row["solver"];
    INFO(solver);
    REQUIRE(row["status"] == "success");
    const std::string run = daekit::test::daekit_binary() + " run --problem heat2d --param N=4 --rtol 1e-6 --solver " + solver;
    REQUIRE(run_command(run + " --every-step --output " + (out / (solver + "-steps.csv")).string(), &log) == 0);
    REQUIRE(run_command(run + " --saveat " + times.str() + " --output " + (out / (solver + "-dense.csv")).string(),
                        &log) == 0);
    const auto steps = csv_rows(out / (solver + "-steps.csv"));
    const auto dense = csv_rows(out / (solver + "-dense.csv"));
    REQUIRE(steps.size() > 5);
    REQUIRE(dense.size() == 100);
    const Errors at_steps = errors_against_closed_form(steps, N), at_times = errors_against_closed_form(dense, N);
    CHECK(row["final_mean"].get<double>() == Approx(at_steps.mean_abs_end).epsilon(1e-9));
    CHECK(row["l2_steps"].get<double>() == Approx(at_steps.rms).epsilon(1e-9));
    CHECK(row["linf_steps"].get<double>() == Approx(at_steps.max_abs).epsilon(1e-9));
    CHECK(row["L2_dense"].get<double>() == Approx(at_times.rms).epsilon(1e-9));
    CHECK(row["Linf_dense"].get<double>() == Approx(at_times.max_abs).epsilon(1e-9));
    // Not zero, and of the size the tolerance asks for: the measures measure something.
    CHECK(row["l2_steps"].get<double>() > 1e-12);
    CHECK(row["Linf_dense"].get<double>() < 1e-3);
    CHECK(row["error_references"]["steps"] == "the problem's exact solution");
  }
  const auto csv = lines(out / "sweep" / "results.csv");
  CHECK_THAT(csv[0], Catch::Contains(",host,final_mean,l2_steps,linf_steps,L2_dense,Linf_dense,"));
  CHECK(fs::exists(out / "sweep" / "heat2d-l2-steps.svg"));
  CHECK_THAT(slurp(out / "sweep" / "heat2d-Linf-dense.gp"), Catch::Contains("SciML :L∞"));
  REQUIRE(run_command(daekit::test::daekit_binary() + " info heat2d", &log) == 0);
  CHECK_THAT(log, Catch::Contains("exact at any t"));
  fs::remove_all(out);
}

TEST_CASE("error measures without an exact solution: the reference solver at the steps, and names checked",
          "[cli][wpd][measures]") {
  const fs::path out = fresh_dir("measures-reference");
  std::string log;
  REQUIRE(run_command(wpd("--problem hires --solvers radau5 --tols 1e-5,1e-7 --error l2-steps,L2 --reference-tol 1e-11 "
                          "--out " + out.string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  CHECK(j["meta"]["error_reference"] == "rodas5p at tol 1e-11");
  double looser = 0;
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    CHECK_THAT(row["error_references"]["steps"].get<std::string>(), Catch::Contains("rodas5p at tol 1e-11"));
    CHECK_THAT(row["error_references"]["dense"].get<std::string>(), Catch::Contains("rodas5p at tol 1e-11"));
    const double l2 = row["l2_steps"].get<double>();
    CHECK(l2 > 0.0);
    CHECK(l2 < 1e2 * row["rtol"].get<double>());
    if (row["rtol"] == 1e-5) looser = l2;
    else CHECK(l2 < looser);  // a tighter tolerance, a smaller error
  }
  CHECK(run_command(wpd("--problem hires --solvers radau5 --error final,l3 --out " + out.string() + "-bad"), &log) == 2);
  CHECK_THAT(log, Catch::Contains("no measure 'l3'") && Catch::Contains("'l2'") &&
                      Catch::Contains("did you mean"));
  fs::remove_all(out);
}

TEST_CASE("parameter sweeps: an instance per value, and the time to one accuracy against the parameter",
          "[cli][wpd][params]") {
  const fs::path out = fresh_dir("param-sweep");
  std::string log;
  REQUIRE(run_command(wpd("--problem fekete --param-sweep fekete:N=6,10 --problem hires --solvers rodas5p,bdf --tols 1e-4:1e-6 "
                          "--reference-solver bdf --reference-tol 1e-11 --out " + out.string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  std::map<std::string, int> per_instance;
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    CHECK(row["status"] == "success");
    ++per_instance[row["instance"].get<std::string>()];
    if (row["problem"] == "fekete") {
      CHECK(row["instance"] == "fekete-N=" + row["params"]["N"].get<std::string>());
      CHECK(row["scd"].is_number());  // each instance scored against its own reference run
    } else {
      CHECK(row["instance"] == "hires");
    }
  }
  CHECK(per_instance == std::map<std::string, int>{{"fekete-N=6", 6}, {"fekete-N=10", 6}, {"hires", 6}});
  CHECK(j["meta"]["parameter_sweeps"] ==
        nlohmann::json::parse(R"([{"problem": "fekete", "key": "N", "values": ["6", "10"],
                                   "instances": ["fekete-N=6", "fekete-N=10"]}])"));
  // Each instance is a problem of the sweep: its diagrams and its summary.
  CHECK(fs::exists(out / "fekete-N=6-final.svg"));
  CHECK(fs::exists(out / "fekete-N=10-final.svg"));
  CHECK_THAT(log, Catch::Contains("fekete-N=10: time to reach scd"));
  // The scaling table: one row per value, a time per setup, the same as the summary's.
  const auto table = lines(out / "fekete-scaling.csv");
  REQUIRE(table.size() == 3);
  CHECK(table[0] == "N,rodas5p,bdf");
  CHECK_THAT(table[1], Catch::StartsWith("6,"));
  CHECK_THAT(table[2], Catch::StartsWith("10,"));
  for (std::size_t k = 1; k < table.size(); ++k) CHECK(table[k].find(",,") == std::string::npos);
  CHECK(fs::file_size(out / "fekete-scaling.svg") > 1000);
  CHECK_THAT(slurp(out / "fekete-scaling.gp"), Catch::Contains("set logscale x"));
  CHECK_FALSE(fs::exists(out / "hires-scaling.csv"));
  // Three problems of the sweep: one figure with a panel each.
  const std::string summary = slurp(out / "summary.gp");
  CHECK_THAT(summary, Catch::Contains("fekete-N=6-final.dat") && Catch::Contains("hires-final.dat"));
  // Three panels and a legend strip, placed so that none overlaps another (a panel's key
  // drawn over its x label was the flaw), inside the figure.
  const std::vector<Area> areas = placed_areas(summary.substr(0, summary.find("set terminal pngcairo")));
  REQUIRE(areas.size() == 4);
  for (std::size_t a = 0; a < areas.size(); ++a) {
    CHECK((areas[a].x >= 0 && areas[a].y >= 0 && areas[a].x + areas[a].w <= 1 + 1e-9 && areas[a].y + areas[a].h <= 1 + 1e-9));
    for (std::size_t b = a + 1; b < areas.size(); ++b) CHECK_FALSE(overlap(areas[a], areas[b]));
  }
  CHECK_THAT(summary, Catch::Contains("NaN with linespoints") && Catch::Contains("title \"rodas5p\"") &&
                          Catch::Contains("title \"bdf\""));
  // One layout rule: every figure labels a log axis in powers of ten alike.
  for (const char* figure : {"summary.gp", "hires-final.gp", "fekete-scaling.gp"}) {
    INFO(figure);
    CHECK_THAT(slurp(out / figure), Catch::Contains("set format y \"10^{%T}\""));
  }
  std::string xml;
  CHECK(run_command("xmllint --noout " + (out / "summary.svg").string(), &xml) == 0);

  // Refused: the swept key also set, two sweeps of one problem, a value twice, an unknown problem.
  const fs::path bad = fresh_dir("param-sweep-bad");
  CHECK(run_command(wpd("--problem fekete --param N=8 --param-sweep N=6,10 --solvers bdf --out " + bad.string()), &log) == 2);
  CHECK_THAT(log, Catch::Contains("which --param also sets"));
  CHECK(run_command(wpd("--problem fekete --param-sweep N=6 --param-sweep fekete:tend=1,2 --solvers bdf --out " +
                        bad.string()),
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("two sweeps"));
  CHECK(run_command(wpd("--problem fekete --param-sweep N=6,6 --solvers bdf --out " + bad.string()), &log) == 2);
  CHECK_THAT(log, Catch::Contains("gives '6' twice"));
  CHECK(run_command(wpd("--problem fekete --param-sweep feket:N=6 --solvers bdf --out " + bad.string()), &log) == 2);
  CHECK_THAT(log, Catch::Contains("did you mean 'fekete'"));
  CHECK_FALSE(fs::exists(bad / "results.json"));
  fs::remove_all(out);
}

TEST_CASE("error measures at the steps leave out the points at a reset, where the solution has two values",
          "[cli][wpd][measures]") {
  // The bouncing ball's velocity jumps at each bounce; a reference at a time a little off
  // the solver's event time holds the other side, an "error" of twice the speed (~25).
  const fs::path out = fresh_dir("measures-events");
  std::string log;
  REQUIRE(run_command(wpd("--problem bouncing_ball --solvers rodas5p,radau5 --tols 1e-5,1e-7 --error linf-steps,Linf "
                          "--out " + out.string()),
                      &log) == 0);
  const auto j = nlohmann::json::parse(slurp(out / "results.json"));
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    REQUIRE(row["status"] == "success");
    CHECK(row["linf_steps"].get<double>() < 1e-4);
    CHECK(row["Linf_dense"].get<double>() < 1e-4);
  }
  fs::remove_all(out);
}
