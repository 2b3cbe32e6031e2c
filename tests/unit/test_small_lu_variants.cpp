// The small LU's loops run as an AVX2 variant where the CPU has one (core/src/numerics/
// small_lu.cpp says why both must give the same bits). This file compiles the same source
// once more with the baseline alone, under another namespace, and requires the same bits
// from the core's variant on random systems of every size up to the limits. On a CPU
// without AVX2 both are the baseline and the test shows nothing; on this project's
// machines it compares the two.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "../../core/src/numerics/small_lu.hpp"

#define DAEKIT_AVX2_CLONE
#define small_lu small_lu_baseline
#include "../../core/src/numerics/small_lu.cpp"
#undef small_lu

namespace {

// A random matrix with about a quarter of its entries zero (the loops skip zero updates).
std::vector<double> random_matrix(int n, std::mt19937& rng) {
  std::normal_distribution<double> value;
  std::bernoulli_distribution zero(0.25);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (double& x : a) x = zero(rng) ? 0.0 : value(rng);
  return a;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("the small LU's AVX2 variant gives the baseline's bits, real and complex, at every size",
          "[unit][linalg]") {
  using namespace daekit;
  std::mt19937 rng(20261207);
  for (int n = 1; n <= small_lu::real_limit; ++n) {
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<double> a = random_matrix(n, rng), b = a, x = random_matrix(1, rng);
      x.resize(static_cast<std::size_t>(n), 1.0);
      std::vector<double> y = x;
      std::vector<int> pa(static_cast<std::size_t>(n)), pb = pa;
      const bool ok = small_lu::factor(n, a.data(), pa.data());
      REQUIRE(ok == small_lu_baseline::factor(n, b.data(), pb.data()));
      if (ok) {
        small_lu::solve(n, a.data(), pa.data(), x.data());
        small_lu_baseline::solve(n, b.data(), pb.data(), y.data());
      }
      INFO("real n = " << n);
      CHECK(same_bits(a, b));
      CHECK(pa == pb);
      CHECK(same_bits(x, y));
    }
  }
  for (int n = 1; n <= small_lu::complex_limit; ++n) {
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<double> re = random_matrix(n, rng), im = random_matrix(n, rng), re2 = re, im2 = im;
      std::vector<double> xr(static_cast<std::size_t>(n), 1.0), xi(static_cast<std::size_t>(n), -0.5);
      std::vector<double> yr = xr, yi = xi;
      std::vector<int> pa(static_cast<std::size_t>(n)), pb = pa;
      const bool ok = small_lu::factor(n, re.data(), im.data(), pa.data());
      REQUIRE(ok == small_lu_baseline::factor(n, re2.data(), im2.data(), pb.data()));
      if (ok) {
        small_lu::solve(n, re.data(), im.data(), pa.data(), xr.data(), xi.data());
        small_lu_baseline::solve(n, re2.data(), im2.data(), pb.data(), yr.data(), yi.data());
      }
      INFO("complex n = " << n);
      CHECK(same_bits(re, re2));
      CHECK(same_bits(im, im2));
      CHECK(pa == pb);
      CHECK(same_bits(xr, yr));
      CHECK(same_bits(xi, yi));
    }
  }
}
