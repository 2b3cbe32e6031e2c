#include "harness.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>

namespace daekit::test {

std::string plugin_dir() { return DAEKIT_TEST_PLUGIN_DIR; }
std::string fixture_dir() { return DAEKIT_TEST_FIXTURE_DIR; }
std::string testset_dir() { return DAEKIT_TEST_TESTSET_DIR; }
std::string daekit_binary() { return DAEKIT_TEST_BINARY; }
std::string fmu_dir() { return DAEKIT_TEST_FMU_DIR; }

bool sanitized_build() { return DAEKIT_TEST_SANITIZED; }

std::string mpirun(int ranks, const std::string& extra) {
  const std::string env = sanitized_build() ? "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 " : "";
  return env + "mpirun --allow-run-as-root --oversubscribe " + extra + " -n " + std::to_string(ranks) + " " +
         daekit_binary();
}

int fuzz_cases(int full) { return sanitized_build() ? std::max(1, full / 4) : full; }

const loader::Registry& registry() {
  static const loader::Registry r = [] {
    loader::Registry reg;
    reg.add_directory(plugin_dir());
    reg.add_directory(fixture_dir());
    return reg;
  }();
  return r;
}

std::vector<std::string> in_tree_solvers() {
  std::vector<std::string> names;
  for (const auto& plugin : registry().plugins())
    if (plugin.manifest.kind == DK_KIND_SOLVER && plugin.file.parent_path() == plugin_dir())
      names.push_back(plugin.manifest.name);
  return names;
}

std::vector<std::string> event_solvers() {
  std::vector<std::string> names;
  for (const auto& name : in_tree_solvers()) {
    loader::SolverInstance solver(*registry().find(name));
    if (solver.info().flags & DK_SOLVER_EVENTS) names.push_back(name);
  }
  return names;
}

namespace {
std::int32_t collect(void* env, double t, const double* y, std::size_t n) {
  auto* r = static_cast<RunResult*>(env);
  r->t.push_back(t);
  r->y.insert(r->y.end(), y, y + n);
  return 0;
}

const loader::Plugin& find(const std::string& name) {
  const loader::Plugin* p = registry().find(name);
  if (!p) throw std::runtime_error("test needs plugin '" + name + "', which was not found");
  return *p;
}
// A problem from a folder the shared registry leaves out (the broken models).
const loader::Plugin& find_in(const std::string& dir, const std::string& name) {
  static std::map<std::string, loader::Registry> registries;
  auto [it, added] = registries.try_emplace(dir);
  if (added) it->second.add_directory(dir);
  const loader::Plugin* p = it->second.find(name);
  if (!p) throw std::runtime_error("test needs plugin '" + name + "' in " + dir + ", which was not found");
  return *p;
}
}  // namespace

Accuracy RunResult::accuracy(double rtol, double atol) const {
  std::vector<double> ref;
  if (!problem->reference(ref)) throw std::runtime_error("problem has no reference");
  Eigen::VectorXd rt = Eigen::VectorXd::Constant(n, rtol), at = Eigen::VectorXd::Constant(n, atol);
  return score(y_end(), Eigen::Map<const Eigen::VectorXd>(ref.data(), n), problem->info().scored, rt, at, problem->info().index);
}

RunSpec spec_for(const std::string& problem, const std::string& solver, double rtol, double atol) {
  RunSpec s;
  s.problem = problem;
  s.solver = solver;
  s.rtol = rtol;
  s.atol = atol;
  return s;
}

void set_init(RunSpec& spec, dk_init_policy init) {
  auto previous = spec.tweak;
  spec.tweak = [init, previous](dk_solve_options& o, std::vector<double>& y0) {
    if (previous) previous(o, y0);
    o.init = init;
  };
}

void ask_sensitivity(RunSpec& spec) {
  auto previous = spec.tweak;
  spec.tweak = [previous](dk_solve_options& o, std::vector<double>& y0) {
    if (previous) previous(o, y0);
    static const std::int32_t index[] = {0};
    o.nsens = 1;
    o.sens_index = index;
  };
}

namespace {
std::int32_t record_event(void* env, const dk_event* e, std::uint32_t action) {
  auto* out = static_cast<RunResult*>(env);
  if (e->kind != DK_EVENT_ROOT) out->events.push_back({e->t, -1, 0, action});
  for (std::size_t k = 0; e->kind == DK_EVENT_ROOT && k < e->nfired; ++k)
    out->events.push_back({e->t, e->fired[k], e->directions[k], action});
  return 0;
}
std::int32_t record_marked(void* env, double t, const double* y, std::size_t n, std::uint32_t mark) {
  auto* out = static_cast<RunResult*>(env);
  out->marked_t.push_back(t);
  out->marks.push_back(mark);
  out->marked_y.insert(out->marked_y.end(), y, y + n);
  return 0;
}
}  // namespace

RunResult run(const RunSpec& spec) {
  RunResult out;
  out.problem = std::make_shared<loader::ProblemInstance>(
      spec.problem_dir.empty() ? find(spec.problem) : find_in(spec.problem_dir, spec.problem), spec.params);
  loader::SolverInstance solver(find(spec.solver));
  const dk_problem_info& info = out.problem->info();
  out.n = info.n;
  std::vector<double> y0, yp0;
  out.problem->initial_values(y0, yp0);
  // atol as the host sets it: given, else the problem's suggested scale times rtol, else rtol.
  double rtol = spec.rtol;
  std::vector<double> atol(1, spec.atol < 0 ? spec.rtol : spec.atol);
  if (spec.atol < 0 && info.atol_scale) {
    atol.resize(info.n);
    for (std::size_t i = 0; i < info.n; ++i) atol[i] = info.atol_scale[i] * rtol;
  }
  dk_solve_options o{};
  o.struct_size = sizeof o;
  o.t0 = info.t0;
  o.tend = info.tend;
  o.nrtol = 1;
  o.natol = atol.size();
  o.rtol = &rtol;
  o.atol = atol.data();
  o.max_steps = 100000;
  o.output_mode = spec.output;
  o.nsaveat = spec.saveat.size();
  o.saveat = spec.saveat.data();
  o.index_scaling = 1;
  o.ntstops = info.ntstops;  // the breakpoints the problem names, as the host passes them
  o.tstops = info.tstops;
  std::vector<dk_keyval> extra;
  for (const auto& [k, v] : spec.solver_options) extra.push_back({k.c_str(), v.c_str()});
  o.nextra = extra.size();
  o.extra = extra.data();
  if (spec.tweak) spec.tweak(o, y0);
  if (spec.tweak_yp0) spec.tweak_yp0(yp0);
  o.y0 = y0.data();
  o.yp0 = (info.flags & DK_PROBLEM_HAS_YP0) ? yp0.data() : nullptr;
  o.max_events = spec.max_events;
  dk_output_sink sink{&out, &collect};
  const dk_event_sink events{sizeof(dk_event_sink), &out, &record_event, &record_marked};
  o.events = &events;
  out.result.struct_size = sizeof out.result;
  solver.solve(*out.problem, o, sink, out.result);
  return out;
}

int run_command(const std::string& command, std::string* output) {
  std::string full = command + " 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::array<char, 4096> buf;
  output->clear();
  std::size_t got;
  while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) output->append(buf.data(), got);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace daekit::test
