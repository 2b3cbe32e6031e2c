#include <dlfcn.h>

#include <boost/dll/shared_library.hpp>
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "harness.hpp"

using namespace daekit;
namespace fs = std::filesystem;

namespace {
std::string refusal_for(const loader::Registry& r, const std::string& file_part) {
  for (const auto& x : r.refusals())
    if (x.file.filename().string().find(file_part) != std::string::npos) return x.reason;
  return "";
}
fs::path temp_file(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("daekit-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}
}  // namespace

TEST_CASE("the build tree's plugins are found with their manifests", "[abi][loader]") {
  const auto& reg = test::registry();
  for (const char* name : {"rodas5p", "fekete", "rober", "rober_dae"}) {
    const loader::Plugin* p = reg.find(name);
    REQUIRE(p);
    CHECK(!p->manifest.version.empty());
    CHECK(!p->manifest.description.empty());
    CHECK(p->file.extension() == ".so");
  }
  CHECK(reg.find("rodas5p")->manifest.kind == DK_KIND_SOLVER);
  CHECK(reg.find("fekete")->manifest.kind == DK_KIND_PROBLEM);
  CHECK(reg.clashes().empty());
}

TEST_CASE("a library without a daekit manifest is refused, naming the reason", "[abi][loader]") {
  CHECK_THAT(refusal_for(test::registry(), "not_a_plugin"), Catch::Contains("not a daekit plugin"));
}

TEST_CASE("a plugin built for another ABI major is refused before it is loaded", "[abi][loader]") {
  const std::string reason = refusal_for(test::registry(), "wrong_major");
  CHECK_THAT(reason, Catch::Contains("ABI 2") && Catch::Contains("uses ABI 1") && Catch::Contains("rebuild"));
  // Refused from the symbol names alone: the library was never opened.
  const fs::path file = fs::path(test::fixture_dir()) / "fixture_wrong_major.so";
  CHECK(dlopen(file.c_str(), RTLD_NOLOAD | RTLD_LAZY) == nullptr);
}

TEST_CASE("a manifest with a bad magic number is refused", "[abi][loader]") {
  CHECK_THAT(refusal_for(test::registry(), "bad_magic"), Catch::Contains("bad magic"));
}

TEST_CASE("missing files and files that are not libraries are refused cleanly", "[abi][loader]") {
  CHECK_THROWS_WITH(loader::read_plugin_file("/nonexistent/plugin.so"), Catch::Contains("no such file"));
  const fs::path junk = temp_file("junk.so");
  std::ofstream(junk) << "this is not an ELF file\n";
  CHECK_THROWS_WITH(loader::read_plugin_file(junk), Catch::Contains("not a shared library"));
  const fs::path empty = temp_file("empty.so");
  std::ofstream{empty};
  CHECK_THROWS_AS(loader::read_plugin_file(empty), loader::LoadError);
  loader::Registry reg;
  reg.add_file(junk);
  REQUIRE(reg.explicit_refusals().size() == 1);
  CHECK(reg.explicit_refusals()[0].file == junk);
}

TEST_CASE("a factory that throws becomes an error naming the plugin and its message", "[abi][loader]") {
  const auto& reg = test::registry();
  const loader::Plugin* problem = reg.find("throwing_problem");
  const loader::Plugin* solver = reg.find("throwing_solver");
  REQUIRE(problem);
  REQUIRE(solver);
  CHECK_THROWS_WITH(loader::ProblemInstance(*problem, {}),
                    Catch::Contains("throwing_problem") && Catch::Contains("refuses to be built") &&
                        Catch::Contains("fixture_throwing.so"));
  CHECK_THROWS_WITH(loader::SolverInstance(*solver), Catch::Contains("refuses to be built"));
}

TEST_CASE("an unknown problem parameter is refused listing the valid ones", "[abi][loader]") {
  const loader::Plugin* fekete = test::registry().find("fekete");
  REQUIRE(fekete);
  CHECK_THROWS_WITH(loader::ProblemInstance(*fekete, {{"particles", "10"}}),
                    Catch::Contains("unknown parameter 'particles'") && Catch::Contains("valid: N"));
  CHECK_THROWS_WITH(loader::ProblemInstance(*fekete, {{"N", "ten"}}), Catch::Contains("integer"));
}

TEST_CASE("two files providing one name are a clash naming both files", "[abi][loader]") {
  loader::Registry reg;
  reg.add_directory(fs::path(test::fixture_dir()) / "duplicates");
  const auto clashes = reg.clashes();
  REQUIRE(clashes.size() == 1);
  CHECK_THAT(clashes[0], Catch::Contains("fixture_duplicate_a.so") && Catch::Contains("fixture_duplicate_b.so"));
  CHECK_THROWS_WITH(reg.find("duplicate"), Catch::Contains("both"));
}

TEST_CASE("a plugin's library stays loaded while an object it made is alive", "[abi][loader]") {
  // A private copy, so that no other test holds the library open.
  const fs::path copy = temp_file("lifetime_copy.so");
  fs::copy_file(fs::path(test::plugin_dir()) / "robertson.so", copy, fs::copy_options::overwrite_existing);
  auto is_loaded = [&] {
    void* h = dlopen(copy.c_str(), RTLD_NOLOAD | RTLD_LAZY);
    if (h) dlclose(h);
    return h != nullptr;
  };
  std::unique_ptr<loader::ProblemInstance> problem;
  {
    loader::Registry reg;
    reg.add_file(copy);
    REQUIRE(reg.find("rober"));
    problem = std::make_unique<loader::ProblemInstance>(*reg.find("rober"), std::map<std::string, std::string>{});
  }
  // The registry is gone; the instance keeps the library.
  CHECK(is_loaded());
  CHECK(problem->info().n == 3);
  std::vector<double> y0, yp0;
  problem->initial_values(y0, yp0);
  CHECK(y0[0] == 1.0);
  problem.reset();
  CHECK_FALSE(is_loaded());
}

TEST_CASE("a solver writes no further than the result size an older host declares", "[abi][minor]") {
  const loader::Plugin* rodas = test::registry().find("rodas5p");
  const loader::Plugin* rober = test::registry().find("rober");
  REQUIRE(rodas);
  REQUIRE(rober);
  loader::ProblemInstance problem(*rober, {});
  auto entry = rodas->library->open().get_alias<std::int32_t(const dk_host*, dk_solver*, char*, std::size_t)>(
      rodas->manifest.entry);
  dk_solver solver{};
  char err[256];
  REQUIRE(entry(loader::default_host(), &solver, err, sizeof err) == 0);
  std::vector<double> y0, yp0;
  problem.initial_values(y0, yp0);
  double rtol = 1e-4, atol = 1e-8;
  dk_solve_options o{};
  o.struct_size = sizeof o;
  o.t0 = 0;
  o.tend = 1;
  o.y0 = y0.data();
  o.nrtol = o.natol = 1;
  o.rtol = &rtol;
  o.atol = &atol;
  o.max_steps = 1000;
  o.index_scaling = 1;
  dk_result result;
  std::memset(&result, 0xAB, sizeof result);
  result.struct_size = offsetof(dk_result, stats);  // a host from before `stats` existed
  dk_output_sink sink{nullptr, nullptr};
  CHECK(solver.vtbl->solve(solver.self, &problem.handle(), &o, &sink, &result) == DK_STATUS_SUCCESS);
  CHECK(result.status == DK_STATUS_SUCCESS);
  CHECK(result.t_reached == 1.0);
  const auto* tail = reinterpret_cast<const unsigned char*>(&result.stats);
  bool untouched = true;
  for (std::size_t i = 0; i < sizeof result.stats; ++i) untouched = untouched && tail[i] == 0xAB;
  CHECK(untouched);
  solver.vtbl->destroy(solver.self);
}

TEST_CASE("plugins built against ABI 1.1 load and run beside 1.2 ones", "[abi][compat]") {
  const loader::Plugin* problem = test::registry().find("legacy_decay");
  const loader::Plugin* solver = test::registry().find("legacy_euler");
  REQUIRE(problem);
  REQUIRE(solver);
  CHECK(problem->manifest.abi_minor == 1);
  CHECK(solver->manifest.abi_minor == 1);
  {
    const loader::ProblemInstance instance(*problem, {});
    // Its description is the 1.1 size: the 1.2 fields are not there to be read.
    CHECK(instance.info().struct_size == DK_MIN_SIZE_PROBLEM_INFO);
    CHECK(!DK_HAS_FIELD(&instance.info(), dk_problem_info, nroots));
  }
  // The 1.1 solver on the 1.1 problem, and every family of 1.2 solvers on it.
  for (const char* name : {"legacy_euler", "rodas5p", "radau5", "bdf", "cvode", "ida"}) {
    const auto r = test::run(test::spec_for("legacy_decay", name, 1e-6));
    INFO(name << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    CHECK(r.accuracy(1e-6, 1e-6).scd >= 4.0);
    CHECK(r.stats().nevents == 0);
  }
  // The 1.1 solver on a 1.2 problem whose constraints it cannot know: it runs, and the
  // host says the constraints were not enforced.
  std::string out;
  CHECK(test::run_command(test::daekit_binary() + " run --plugin " + test::fixture_dir() +
                              "/fixture_abi_1_1.so --problem rober --solver legacy_euler --rtol 1e-4",
                          &out) == 0);
  CHECK(out.find("constraints not enforced") != std::string::npos);
}

TEST_CASE("a problem built against ABI 1.2 loads in the 1.3 host and its events are found", "[abi][compat]") {
  const loader::Plugin* problem = test::registry().find("legacy_watched_decay");
  REQUIRE(problem);
  CHECK(problem->manifest.abi_minor == 2);
  {
    const loader::ProblemInstance instance(*problem, {});
    // The 1.2 size: the 1.3 root time scales are not there to be read.
    CHECK(DK_HAS_FIELD(&instance.info(), dk_problem_info, output_names));
    CHECK(!DK_HAS_FIELD(&instance.info(), dk_problem_info, root_time_scale));
  }
  for (const char* name : {"rodas5p", "radau5", "bdf", "cvode", "ida"}) {
    const auto r = test::run(test::spec_for("legacy_watched_decay", name, 1e-8));
    INFO(name << ": " << r.message());
    REQUIRE(r.status() == Status::success);
    REQUIRE(r.events.size() == 1);
    CHECK(std::abs(r.events[0].t - std::log(2.0)) < 1e-6);
    CHECK(r.accuracy(1e-8, 1e-8).scd >= 6.0);
  }
}
