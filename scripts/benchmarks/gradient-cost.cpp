// The cost of dG/dp for many parameters: forward sensitivities (np columns) against the
// adjoint (one backward pass), relative to one plain solve, on reaction_chain (a rate
// constant per species) for N = 10 .. 1000. G = the sum of squares of 1%-off data of every
// species at 5 times. Medians of --runs solves, wall time of the whole daekit::solve.
//   build/bin/gradient-cost [--sizes 10,100,1000] [--runs 3] [--rtol 1e-6] [--forward no]
//                           [--solver cvode|ida]
// With --rober T: G = y1(T) on Robertson (`rober`, with --solver ida its DAE form
// `rober_dae`) by the solver's adjoint (rtol, atol = rtol 1e-4), its time, G and dG/dk, as
// scripts/benchmarks/cvodes-reference/cvodes_rober_adjoint.c and idas_rober_dae_adjoint.c
// print them for CVODES and IDAS driven from C.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <daekit/daekit.hpp>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

double median_seconds(int runs, const std::function<bool()>& run) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    if (!run()) return NAN;
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

std::vector<int> sizes_from(const char* list) {
  std::vector<int> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::atoi(item.c_str()));
  return out;
}

int robertson(double tend, double rtol, int runs, const std::string& solver) {
  const daekit::Registry registry;
  const auto problem = registry.problem(solver == "ida" ? "rober_dae" : "rober");
  daekit::api::Functional f;
  f.terminal = [](const double* y, double* dy, double*) {
    dy[0] = 1;
    return y[0];
  };
  daekit::SolveOptions o;
  o.rtol = rtol;
  o.atol = rtol * 1e-4;
  o.tend = tend;
  o.output = DK_OUTPUT_END;
  o.adjoint = &f;
  daekit::Solution s;
  const double t = median_seconds(runs, [&] {
    s = daekit::solve(problem, registry.solver(solver), o);
    return s.success();
  });
  if (!s.success()) return std::fprintf(stderr, "%s\n", s.message.c_str()), 1;
  std::printf("time= %.9f (daekit::solve, wall_s %.9f)\nG= %.17g\n", t, s.stats.wall_s, *s.functional_value);
  for (std::size_t k = 0; k < s.gradient.size(); ++k) std::printf("dG/dk%zu= %.17g\n", k + 1, s.gradient[k]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes{10, 100, 1000};
  int runs = 3;
  double rtol = 1e-6;
  bool with_forward = true;
  std::string solver = "cvode";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--solver")) solver = argv[i + 1];
    if (!std::strcmp(argv[i], "--sizes")) sizes = sizes_from(argv[i + 1]);
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--rtol")) rtol = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--forward")) with_forward = std::strcmp(argv[i + 1], "no") != 0;
  }
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--rober")) return robertson(std::atof(argv[i + 1]), rtol, runs, solver);
  const daekit::Registry registry;
  const auto chosen = registry.solver(solver);
  std::printf("| N = np | plain solve (s) | forward sens (s) | ratio | adjoint (s) | ratio | max rel. difference |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const int n : sizes) {
    const auto problem = registry.problem("reaction_chain", {{"N", std::to_string(n)}});
    const std::vector<double> times{1, 2, 4, 7, 10};
    daekit::SolveOptions plain;
    plain.rtol = rtol;
    plain.atol = rtol * 1e-3;
    plain.saveat = times;
    const auto truth = daekit::solve(problem, chosen, plain);
    if (!truth.success()) return std::fprintf(stderr, "N = %d: %s\n", n, truth.message.c_str()), 1;
    std::vector<double> data(truth.y.size());
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = 1.01 * truth.y[k];
    const double sigma = 0.01;
    const double t_plain = median_seconds(runs, [&] { return daekit::solve(problem, chosen, plain).success(); });

    daekit::SolveOptions forward = plain;
    forward.sensitivities = {"all"};
    std::vector<double> g_forward(static_cast<std::size_t>(n), 0.0);
    const double t_forward = !with_forward ? NAN : median_seconds(runs, [&] {
      const auto s = daekit::solve(problem, chosen, forward);
      std::fill(g_forward.begin(), g_forward.end(), 0.0);
      for (std::size_t point = 0; point < s.size(); ++point)
        for (std::size_t i = 0; i < s.n; ++i) {
          const double r = (s.point(point)[i] - data[point * s.n + i]) / sigma;
          for (std::size_t q = 0; q < g_forward.size(); ++q) g_forward[q] += r * s.sensitivity(point, i, q) / sigma;
        }
      return s.success();
    });

    daekit::api::Functional f;
    const auto size = static_cast<std::size_t>(n);
    for (const double t : times)
      for (std::size_t i = 0; i < size; ++i) f.data_t.push_back(t);
    f.data_term = [&](std::size_t k, const double* y, double* dy, double*) {
      const std::size_t i = k % size;
      dy[i] = 1.0 / sigma;
      return (y[i] - data[k]) / sigma;
    };
    daekit::SolveOptions adjoint = plain;
    adjoint.saveat.clear();
    adjoint.output = DK_OUTPUT_END;
    adjoint.adjoint = &f;
    std::vector<double> g_adjoint;
    const double t_adjoint = median_seconds(runs, [&] {
      const auto s = daekit::solve(problem, chosen, adjoint);
      g_adjoint = s.gradient;
      return s.success();
    });
    double worst = 0, scale = 0;
    for (std::size_t q = 0; q < g_forward.size() && q < g_adjoint.size(); ++q)
      worst = std::max(worst, std::abs(g_forward[q] - g_adjoint[q])), scale = std::max(scale, std::abs(g_forward[q]));
    std::printf("| %d | %.4f | %.4f | %.1f | %.4f | %.1f | %.1e |\n", n, t_plain, t_forward, t_forward / t_plain,
                t_adjoint, t_adjoint / t_plain, worst / scale);
  }
  return 0;
}
