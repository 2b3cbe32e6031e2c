// Time of one f and one Jacobian evaluation of a problem plugin through its C table.
// Built with the project (scripts/benchmarks/CMakeLists.txt):
//   build/bin/jacobian-time build/lib/daekit/abi1/andrews.so andrews
#include <daekit/daekit.hpp>
#include <chrono>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: jacobian-time PLUGIN.so PROBLEM\n");
    return 2;
  }
  daekit::api::PluginSearch search;
  search.default_folders = false;
  search.files = {argv[1]};
  daekit::Registry registry(search);
  auto problem = registry.problem(argv[2]);
  const dk_problem& h = problem.instance().handle();
  std::vector<double> y, yp;
  problem.instance().initial_values(y, yp);
  const std::size_t n = y.size();
  std::vector<double> jacobian(n * n), f(n);
  constexpr int repetitions = 2000;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  for (int r = 0; r < repetitions; ++r) h.vtbl->rhs(h.self, 0.01, y.data(), f.data());
  const auto t1 = clock::now();
  int rc = 0;
  if (h.vtbl->jacobian)
    for (int r = 0; r < repetitions; ++r) rc |= h.vtbl->jacobian(h.self, 0.01, y.data(), jacobian.data(), n);
  const auto t2 = clock::now();
  auto micro = [](auto d) { return std::chrono::duration<double>(d).count() / repetitions * 1e6; };
  std::printf("%s: f %.2f us, J %.2f us (rc %d, has J %d)\n", argv[2], micro(t1 - t0), micro(t2 - t1), rc,
              h.vtbl->jacobian != nullptr);
}
