// Colours of problems' Jacobian patterns: the core's colour_columns against ColPack's
// partial distance-2 colouring under its four orderings (docs/benchmarks/scaling.md and
// docs/architecture.md say why the core keeps its own). Needs ColPack:
//   apt-get install libcolpack-dev
// Built with the project (scripts/benchmarks/CMakeLists.txt) as build/bin/colouring-compare:
//   build/bin/colouring-compare build/lib/daekit/abi1 tba medakzo brusselator:256 heat2d:300 fekete
// (PROBLEM:N sets the parameter N.)
#include <ColPack/ColPackHeaders.h>
#include <daekit/loader/registry.hpp>
#include <daekit/numerics/column_colouring.hpp>
#include <chrono>
#include <iostream>
using namespace ColPack;
int main(int argc, char** argv) {
  daekit::loader::Registry reg;
  reg.add_directory(argv[1]);
  for (int a = 2; a < argc; ++a) {
    std::string spec = argv[a], name = spec, N;
    std::map<std::string, std::string> params;
    if (auto c = spec.find(':'); c != std::string::npos) { name = spec.substr(0, c); params["N"] = spec.substr(c + 1); }
    daekit::loader::ProblemInstance p(*reg.find(name), params);
    const auto& info = p.info();
    const auto& pat = info.jac_pattern;
    const std::size_t n = info.n;
    auto t0 = std::chrono::steady_clock::now();
    auto ours = daekit::colour_columns(n, pat.col_ptr, pat.row_idx);
    double t_ours = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // ColPack wants rows: uip[i] = {count, columns...}
    std::vector<std::vector<unsigned>> rows(n);
    for (std::size_t j = 0; j < n; ++j) for (auto k = pat.col_ptr[j]; k < pat.col_ptr[j + 1]; ++k) rows[pat.row_idx[k]].push_back(j);
    std::vector<unsigned*> uip(n);
    std::vector<std::vector<unsigned>> store(n);
    for (std::size_t i = 0; i < n; ++i) { store[i].push_back(rows[i].size()); store[i].insert(store[i].end(), rows[i].begin(), rows[i].end()); uip[i] = store[i].data(); }
    std::cout << spec << " n=" << n << " nnz=" << pat.nnz << " daekit=" << ours.colours << " (" << t_ours * 1e3 << " ms)";
    for (const char* order : {"NATURAL", "LARGEST_FIRST", "SMALLEST_LAST", "INCIDENCE_DEGREE"}) {
      BipartiteGraphPartialColoringInterface g(SRC_MEM_ADOLC, uip.data(), (int)n, (int)n);
      auto t1 = std::chrono::steady_clock::now();
      g.PartialDistanceTwoColoring(order, "COLUMN_PARTIAL_DISTANCE_TWO");
      double tc = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
      std::cout << " " << order << "=" << g.GetVertexColorCount() << " (" << tc * 1e3 << " ms)";
    }
    std::cout << "\n";
  }
}
