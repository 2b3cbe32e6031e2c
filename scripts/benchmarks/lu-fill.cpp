// The fill of the sparse LUs on a problem's Newton matrices, for the memory criterion of
// docs/benchmarks/scaling.md: W = M / (h gamma) - J (Rosenbrock, BDF) and the Radau
// methods' complex (alpha + i beta) M / h - J, factorised as the solvers do (sparse_lu=auto),
// with nnz(J), nnz(L + U) and the bytes each takes.
// Built with the project (scripts/benchmarks/CMakeLists.txt) as build/bin/lu-fill:
//   build/bin/lu-fill build/lib/daekit/abi1/heat2d.so heat2d N=30 N=100 N=300 N=1000
//   DAEKIT_LU_ORDERING=metis build/bin/lu-fill ...   (or colamd: one ordering for every size)
#include <daekit/daekit.hpp>
#include <daekit/numerics/sparse_lu.hpp>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// DAEKIT_LU_ORDERING=colamd|metis (default: automatic, as the solvers choose) fixes the
// ordering, to compare the two at one size (the thresholds of sparse_lu.cpp).
daekit::SparseOrdering ordering_from_environment() {
  const char* v = std::getenv("DAEKIT_LU_ORDERING");
  const std::string name = v ? v : "";
  if (name == "metis") return daekit::SparseOrdering::metis;
  if (name == "colamd") return daekit::SparseOrdering::colamd;
  return daekit::SparseOrdering::automatic;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The first factor() analyses the pattern and factorises; the second only refactorises,
// as every later step of a run does.
template <class Scalar>
void factor_and_print(const char* what, const Eigen::SparseMatrix<Scalar>& w) {
  daekit::SparseLUOf<Scalar> lu;
  lu.set_ordering(ordering_from_environment());
  auto start = std::chrono::steady_clock::now();
  bool ok = lu.factor(w);
  const double first = seconds_since(start);
  start = std::chrono::steady_clock::now();
  ok = lu.factor(w) && ok;
  const double again = seconds_since(start);
  const auto f = lu.footprint();
  std::printf("  %-8s %s/%s: nnz(L+U) %.0f (%.1f per unknown), LU %.1f MB, analyse+factorise %.2f s, "
              "refactorise %.2f s%s\n",
              what, lu.factoriser() == daekit::SparseFactoriser::umfpack ? "umfpack" : "other",
              lu.ordering() == daekit::SparseOrdering::metis ? "metis" : "colamd/amd", f.entries,
              f.entries / static_cast<double>(w.cols()), f.bytes / 1e6, first, again, ok ? "" : " (singular)");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: lu-fill PLUGIN.so PROBLEM KEY=VALUE...\n");
    return 2;
  }
  daekit::api::PluginSearch search;
  search.default_folders = false;
  search.files = {argv[1]};
  daekit::Registry registry(search);
  for (int a = 3; a < argc; ++a) {
    const std::string kv = argv[a];
    auto problem = registry.problem(argv[2], {{kv.substr(0, kv.find('=')), kv.substr(kv.find('=') + 1)}});
    const dk_problem& h = problem.instance().handle();
    const dk_problem_info& info = problem.info();
    const auto n = static_cast<Eigen::Index>(info.n);
    std::vector<double> y, yp;
    problem.instance().initial_values(y, yp);
    const dk_sparsity& p = info.jac_pattern;
    std::vector<double> values(p.nnz), diagonal(info.n, 1.0);
    h.vtbl->jacobian_sparse(h.self, info.t0, y.data(), values.data());
    if (info.mass_storage == DK_MASS_STORAGE_DIAGONAL) h.vtbl->mass_diagonal(h.self, info.t0, y.data(), diagonal.data());
    // Rodas5P's gamma and the 3-stage Radau IIA's complex eigenvalue (alpha, beta) of A^-1,
    // at h = 1e-3: the size of h does not change the pattern, only the numbers.
    const double h_step = 1e-3, gamma = 0.21193756319429014, alpha = 2.6810828736277521, beta = 3.0504301992474105;
    std::vector<Eigen::Triplet<double>> real;
    std::vector<Eigen::Triplet<std::complex<double>>> complex;
    for (Eigen::Index j = 0; j < n; ++j)
      for (int k = p.col_ptr[j]; k < p.col_ptr[j + 1]; ++k) {
        real.emplace_back(p.row_idx[k], j, -values[static_cast<std::size_t>(k)]);
        complex.emplace_back(p.row_idx[k], j, -values[static_cast<std::size_t>(k)]);
      }
    for (Eigen::Index i = 0; i < n; ++i) {
      real.emplace_back(i, i, diagonal[static_cast<std::size_t>(i)] / (h_step * gamma));
      complex.emplace_back(i, i, std::complex<double>(alpha, beta) * diagonal[static_cast<std::size_t>(i)] / h_step);
    }
    Eigen::SparseMatrix<double> w(n, n);
    w.setFromTriplets(real.begin(), real.end());
    Eigen::SparseMatrix<std::complex<double>> wc(n, n);
    wc.setFromTriplets(complex.begin(), complex.end());
    const double j_bytes = static_cast<double>(p.nnz) * 12.0 + static_cast<double>(n + 1) * 4.0;
    std::printf("%s %s: n %ld, nnz(J) %zu, J (values and pattern) %.1f MB, an n-vector %.1f MB\n", argv[2], argv[a],
                static_cast<long>(n), p.nnz, j_bytes / 1e6, static_cast<double>(n) * 8.0 / 1e6);
    factor_and_print("real", w);
    factor_and_print("complex", wc);
  }
}
