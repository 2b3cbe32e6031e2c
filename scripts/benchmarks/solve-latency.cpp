// The time of one small solve in this process, as a fit or a Python loop of many small
// solves meets it: the plugins loaded once, then REPEATS calls of daekit::solve (each with
// its own set-up: tolerances expanded, work space allocated, initial values checked), the
// end point only. The peer is CVODE driven from C on the same plugin
// (cvode-reference/cvode_driver.c); scripts/benchmarks/small-solves.sh runs both.
//   build/bin/solve-latency PROBLEM SOLVER REPEATS RTOL ATOL [KEY=VALUE...]
// KEY=VALUE are the problem's parameters (N=10). DAEKIT_REFERENCE=FILE (n numbers, y at tend
// from a tight run) scores against it where the problem has no reference, by the peer's rule
// (the largest relative error). One Markdown row per run, the peer's columns:
// rtol | atol | scd | steps | f | J | LU | microseconds per solve (median) | min.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <daekit/daekit.hpp>
#include <exception>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// The scd of y (the run's end point) against DAEKIT_REFERENCE's values; NaN without the file.
double scd_against_file(const daekit::Solution& s) {
  const char* file = std::getenv("DAEKIT_REFERENCE");
  if (!file || !*file || s.size() == 0) return NAN;
  std::ifstream in(file);
  const double* y = s.point(s.size() - 1);
  double worst = 0.0, ref = 0.0;
  for (std::size_t i = 0; i < s.n; ++i) {
    if (!(in >> ref)) throw std::runtime_error(std::string("DAEKIT_REFERENCE has fewer values than n: ") + file);
    if (std::abs(ref) >= 1e-200) worst = std::max(worst, std::abs(y[i] - ref) / std::abs(ref));
  }
  return -std::log10(worst > 0.0 ? worst : 1e-16);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: solve-latency PROBLEM SOLVER REPEATS RTOL ATOL [KEY=VALUE...]\n");
    return 2;
  }
  const int repeats = std::max(1, std::atoi(argv[3]));
  std::map<std::string, std::string> params;
  for (int i = 6; i < argc; ++i) {
    const std::string item = argv[i];
    const auto eq = item.find('=');
    if (eq == std::string::npos) return std::fprintf(stderr, "solve-latency: %s is not KEY=VALUE\n", argv[i]), 2;
    params[item.substr(0, eq)] = item.substr(eq + 1);
  }
  try {
    const daekit::Registry registry;
    const auto problem = registry.problem(argv[1], params);
    const auto solver = registry.solver(argv[2]);
    daekit::SolveOptions options;
    options.rtol = std::atof(argv[4]);
    options.atol = std::atof(argv[5]);
    options.output = DK_OUTPUT_END;
    daekit::Solution last;
    std::vector<double> took;
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      last = daekit::solve(problem, solver, options);
      took.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      if (!last.success()) break;
    }
    if (!last.success()) {
      std::printf("| %g | %g | fails (%s: %s) | | | | | | |\n", *options.rtol, *options.atol, last.status_name().c_str(),
                  last.message.c_str());
      return 1;
    }
    std::sort(took.begin(), took.end());
    const double scd = last.accuracy ? last.accuracy->scd : scd_against_file(last);
    std::printf("| %g | %g | %.2f | %lld | %lld | %lld | %lld | %.1f | %.1f |\n", *options.rtol, *options.atol, scd,
                static_cast<long long>(last.stats.steps), static_cast<long long>(last.stats.nfev),
                static_cast<long long>(last.stats.njac), static_cast<long long>(last.stats.nlu), took[took.size() / 2],
                took.front());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "solve-latency: %s\n", e.what());
    return 1;
  }
  return 0;
}
