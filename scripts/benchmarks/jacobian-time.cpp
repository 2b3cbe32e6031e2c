// Time of one f (or residual F) and one Jacobian evaluation of a problem plugin through its C table.
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
  // A residual-form problem has no f: F(t, y, y') and dF/dy + cj dF/dy' (cj = 1) instead.
  const bool residual_form = h.vtbl->rhs == nullptr;
  if (residual_form && !h.vtbl->residual) {
    std::fprintf(stderr, "jacobian-time: %s has neither f nor a residual\n", argv[2]);
    return 1;
  }
  const auto t0 = clock::now();
  for (int r = 0; r < repetitions; ++r)
    residual_form ? h.vtbl->residual(h.self, 0.01, y.data(), yp.data(), f.data())
                  : h.vtbl->rhs(h.self, 0.01, y.data(), f.data());
  const auto t1 = clock::now();
  int rc = 0;
  const bool has_jacobian = residual_form ? h.vtbl->residual_jacobian != nullptr : h.vtbl->jacobian != nullptr;
  for (int r = 0; has_jacobian && r < repetitions; ++r)
    rc |= residual_form ? h.vtbl->residual_jacobian(h.self, 0.01, y.data(), yp.data(), 1.0, jacobian.data(), n)
                        : h.vtbl->jacobian(h.self, 0.01, y.data(), jacobian.data(), n);
  const auto t2 = clock::now();
  auto micro = [](auto d) { return std::chrono::duration<double>(d).count() / repetitions * 1e6; };
  std::printf("%s: %s %.2f us, J %.2f us (rc %d, has J %d)\n", argv[2], residual_form ? "F" : "f", micro(t1 - t0),
              micro(t2 - t1), rc, has_jacobian);
}
