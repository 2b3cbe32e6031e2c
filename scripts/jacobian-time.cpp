// Time of one f and one Jacobian evaluation of a problem plugin through its C table.
//   g++ -std=c++20 -O2 -Icore/include -I/usr/include/eigen3 scripts/jacobian-time.cpp -Lbuild/lib -ldaekit \
//       -ldaekit_core -Wl,-rpath,$PWD/build/lib -o /tmp/jacobian-time && /tmp/jacobian-time build/lib/daekit/abi1/andrews.so andrews
#include <daekit/daekit.hpp>
#include <chrono>
#include <cstdio>
int main(int argc, char** argv) {
  daekit::api::PluginSearch s; s.default_folders = false; s.files = {argv[1]};
  daekit::Registry reg(s);
  auto p = reg.problem(argv[2]);
  const dk_problem& h = p.instance().handle();
  std::vector<double> y, yp; p.instance().initial_values(y, yp);
  size_t n = y.size(); std::vector<double> J(n*n), f(n);
  int reps = 2000;
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) h.vtbl->rhs(h.self, 0.01, y.data(), f.data());
  auto t1 = std::chrono::steady_clock::now();
  int rc = 0;
  if (h.vtbl->jacobian) for (int r = 0; r < reps; ++r) rc |= h.vtbl->jacobian(h.self, 0.01, y.data(), J.data(), n);
  auto t2 = std::chrono::steady_clock::now();
  printf("%s: f %.2f us, J %.2f us (rc %d, has J %d)\n", argv[2], std::chrono::duration<double>(t1-t0).count()/reps*1e6,
         std::chrono::duration<double>(t2-t1).count()/reps*1e6, rc, h.vtbl->jacobian != nullptr);
}
