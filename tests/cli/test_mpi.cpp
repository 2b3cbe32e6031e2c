// `mpirun -n 3 daekit wpd|ensemble`: the ranks share the runs and rank 0 gathers them into
// the same files as one process; a rank that dies loses its own run only. Run when the
// MPI module is built (scripts/setup.sh installs Open MPI); as root mpirun needs
// --allow-run-as-root, and --oversubscribe lets 3 ranks share this machine's cores.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "harness.hpp"

using daekit::test::mpirun;
using daekit::test::run_command;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("daekit-mpi-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

nlohmann::json json_of(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

// A row without what may differ between runs: the times, and where it ran.
nlohmann::json without_place_and_time(nlohmann::json row) {
  for (const char* k : {"wall_median_s", "wall_min_s", "wall_max_s", "wall_s", "host", "rank"}) row.erase(k);
  return row;
}

bool mpi_available() {
#if DAEKIT_TEST_HAS_MPI
  return true;
#else
  WARN("not run: daekit was built without MPI (install libopenmpi-dev and openmpi-bin)");
  return false;
#endif
}

}  // namespace

TEST_CASE("mpirun -n 3 daekit wpd gathers the rows a single process writes", "[cli][mpi]") {
  if (!mpi_available()) return;
  const fs::path single = fresh_dir("wpd-1"), spread = fresh_dir("wpd-3");
  // Two problems, an L2 reference sent to the ranks once each, and a failing point.
  const std::string sweep = " wpd --quiet --problem rober --problem hires --solvers rodas5p,radau5,ros3p "
                            "--tols 1e-4:1e-6 --error both --max-steps 400 --reference-tol 1e-9 --out ";
  std::string log;
  REQUIRE(run_command(daekit::test::daekit_binary() + sweep + single.string(), &log) == 0);
  // Rank 0 only hands out points: every point crosses to a worker and back.
  REQUIRE(run_command(mpirun(3) + sweep + spread.string() + " --coordinator-jobs 0", &log) == 0);
  const auto a = json_of(single / "results.json"), b = json_of(spread / "results.json");
  CHECK(a["meta"]["mpi_ranks"] == 1);
  CHECK(b["meta"]["mpi_ranks"] == 3);
  REQUIRE(a["rows"].size() == 18);
  REQUIRE(b["rows"].size() == a["rows"].size());
  std::set<int> ranks;
  std::size_t failed = 0;
  for (std::size_t i = 0; i < a["rows"].size(); ++i) {
    INFO("row " << i << ": " << a["rows"][i].dump());
    CHECK(without_place_and_time(a["rows"][i]) == without_place_and_time(b["rows"][i]));
    ranks.insert(b["rows"][i]["rank"].get<int>());
    CHECK(!b["rows"][i]["host"].get<std::string>().empty());
    failed += a["rows"][i]["status"] != "success";
  }
  CHECK(failed > 0);  // ros3p at 400 steps: failures cross the ranks as failures
  CHECK(ranks == std::set<int>{1, 2});
  fs::remove_all(single);
  fs::remove_all(spread);
}

TEST_CASE("a rank that dies loses its point only; the sweep finishes", "[cli][mpi]") {
  if (!mpi_available()) return;
  const fs::path out = fresh_dir("death");
  std::string log;
  // --enable-recovery: Open MPI's mpirun keeps the job when one rank dies.
  const int code = run_command(mpirun(3, "--enable-recovery") + " wpd --quiet --plugin " + daekit::test::fixture_dir() +
                                   "/mpi/fixture_rank_killing.so --problem rank_killing_model --problem rober "
                                   "--solvers rodas5p --tols 1e-4:1e-7 --coordinator-jobs 0 --silence-limit 2 --out " +
                                   out.string(),
                               &log);
  INFO(log);
  REQUIRE(code == 0);
  const auto j = json_of(out / "results.json");
  REQUIRE(j["rows"].size() == 8);
  std::size_t lost = 0;
  for (const auto& row : j["rows"]) {
    INFO(row.dump());
    if (row["status"] == "success") continue;
    // Only the killing model's points can be lost, and at most one per worker rank.
    CHECK(row["problem"] == "rank_killing_model");
    CHECK(row["status"] == "internal_error");
    CHECK_THAT(row["message"].get<std::string>(), Catch::Contains("lost") && Catch::Contains("stopped answering"));
    ++lost;
  }
  CHECK(lost >= 1);
  CHECK(lost <= 2);
  CHECK_THAT(log, Catch::Contains("the other ranks go on"));
  fs::remove_all(out);
}

TEST_CASE("when rank 0 dies the workers leave within the silence limit; finished points stay", "[cli][mpi]") {
  if (!mpi_available()) return;
  const fs::path out = fresh_dir("coordinator-death");
  std::string log;
  // Rank 0 runs points itself (--coordinator-jobs 1): the first rank_killing_model point it
  // takes kills it, after it finished and journaled rober points (they start first: larger).
  // The worker must notice within --silence-limit and leave; `timeout` turns a hang into a
  // failure instead of a stuck test run.
  const auto start = std::chrono::steady_clock::now();
  const int code = run_command("timeout -s KILL 120 " + mpirun(2, "--enable-recovery -x DAEKIT_TEST_KILL_RANK=0") +
                                   " wpd --quiet --plugin " + daekit::test::fixture_dir() +
                                   "/mpi/fixture_rank_killing.so --problem rank_killing_model --problem rober "
                                   "--solvers rodas5p --tols 1e-4:1e-7 --coordinator-jobs 1 --silence-limit 2 --out " +
                                   out.string(),
                               &log);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(log);
  // mpirun --enable-recovery may exit 0 even so (Open MPI 4.1 does): its code says nothing here.
  CHECK(code != 137);  // not ended by `timeout`
  CHECK(seconds < 60);
  CHECK_THAT(log, Catch::Contains("rank 0 has not been heard"));
  // The journal keeps every point rank 0 finished, each line whole.
  std::ifstream journal(out / "results.jsonl");
  std::string line;
  std::size_t rows = 0;
  while (std::getline(journal, line)) {
    INFO(line);
    const auto row = nlohmann::json::parse(line, nullptr, false);
    REQUIRE(row.is_object());
    ++rows;
  }
  CHECK(rows >= 1);
  fs::remove_all(out);
}

TEST_CASE("mpirun -n 3 daekit ensemble gives the members one process gives", "[cli][mpi]") {
  if (!mpi_available()) return;
  const fs::path single = fresh_dir("ens-1"), spread = fresh_dir("ens-3");
  const std::string study = " ensemble --quiet --problem bouncing_ball --solver bdf --tend 0.5 "
                            "--param-grid gravity=9,10 --param-random 'height=normal(10,1)' --samples 4 "
                            "--seed 7 --outputs x --out ";
  std::string log;
  REQUIRE(run_command(daekit::test::daekit_binary() + study + single.string(), &log) == 0);
  REQUIRE(run_command(mpirun(3) + study + spread.string(), &log) == 0);
  const auto a = json_of(single / "results.json"), b = json_of(spread / "results.json");
  REQUIRE(a["members"].size() == 8);
  REQUIRE(b["members"].size() == 8);
  std::set<int> ranks;
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(without_place_and_time(a["members"][i]) == without_place_and_time(b["members"][i]));
    ranks.insert(b["members"][i]["rank"].get<int>());
  }
  CHECK(ranks.size() >= 2);
  CHECK(a["summary"] == b["summary"]);
  CHECK(b["meta"]["mpi_ranks"] == 3);
  fs::remove_all(single);
  fs::remove_all(spread);
}

TEST_CASE("mpirun of a daekit that cannot join the ranks is refused, not run K times", "[cli][mpi]") {
  if (!mpi_available()) return;
  // srun without an MPI plugin: several tasks that MPI sees as one each.
  std::string log;
  CHECK(run_command("SLURM_STEP_NUM_TASKS=3 " + daekit::test::daekit_binary() +
                        " ensemble --problem vdpol --solver radau5 --param-grid eps=1e-6,1e-5 --out /tmp/never",
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("srun --mpi=pmix"));
}

TEST_CASE("mpirun -n 2 daekit run of a problem without a distributed form is refused, not solved twice",
          "[cli][mpi]") {
  if (!mpi_available()) return;
  // Each rank would solve it again. Rank 0 says why; no result is printed by any rank.
  for (const char* solver : {"petsc", "rodas5p"}) {
    INFO(solver);
    std::string log;
    CHECK(run_command(mpirun(2) + " run --problem hires --solver " + solver, &log) == 2);
    CHECK_THAT(log, Catch::Contains("'hires' has no distributed form, and on the 2 ranks"));
    CHECK_THAT(log, !Catch::Contains("status     success"));
  }
  std::string check_log;
  CHECK(run_command(mpirun(2) + " check --problem hires", &check_log) == 2);
  CHECK_THAT(check_log, Catch::Contains("started as 2 processes by an MPI launcher"));
  // One rank is a plain process; MPI for PETSc then starts in the launched process itself
  // (--in-process), and the solve's child process says so rather than claim the rank.
  std::string log;
  CHECK(run_command(mpirun(1) + " run --problem hires --solver petsc --in-process", &log) == 0);
  CHECK_THAT(log, Catch::Contains("status     success"));
  CHECK(run_command(mpirun(1) + " run --problem hires --solver petsc", &log) != 0);
  CHECK_THAT(log, Catch::Contains("add --in-process"));
  // A wpd worker runs each point in a forked child, which cannot use the rank's MPI: a
  // petsc point fails by name there (it crashed in Open MPI before), the others run.
  const fs::path out = fresh_dir("mpi_wpd_petsc");
  // A failed point is a row of the results, not a failure of the command (wpd exits 1
  // only when a diagram cannot be drawn).
  CHECK(run_command(mpirun(2) + " wpd -p hires --solvers petsc,rodas5p --tols 1e-4 --out " + out.string(), &log) ==
        0);
  std::ifstream results(out / "results.csv");
  const std::string csv((std::istreambuf_iterator<char>(results)), std::istreambuf_iterator<char>());
  CHECK_THAT(csv, Catch::Contains("does not survive fork"));
  CHECK_THAT(csv, Catch::Contains("rodas5p") && Catch::Contains("success"));
  fs::remove_all(out);
  // srun without an MPI plugin, seen from the environment alone.
  CHECK(run_command("SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 " + daekit::test::daekit_binary() +
                        " run --problem hires --solver rodas5p",
                    &log) == 2);
  CHECK_THAT(log, Catch::Contains("srun started 2 tasks without an MPI plugin"));
}
