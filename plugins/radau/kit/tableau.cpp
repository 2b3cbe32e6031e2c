#include "daekit/kits/radau/tableau.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <mutex>
#include <stdexcept>

namespace daekit {
namespace {

using LMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using LVector = Eigen::Matrix<long double, Eigen::Dynamic, 1>;

// g(x) = P_s(2x-1) - P_{s-1}(2x-1) and g'(x), by the Legendre recurrences.
void radau_polynomial(int s, long double x, long double& g, long double& dg) {
  const long double u = 2 * x - 1;
  long double p0 = 1, p1 = u, d0 = 0, d1 = 1;  // P_{n-1}, P_n and their derivatives in u
  for (int n = 1; n < s; ++n) {
    const long double p2 = ((2 * n + 1) * u * p1 - n * p0) / (n + 1);
    const long double d2 = d0 + (2 * n + 1) * p1;
    p0 = p1, p1 = p2, d0 = d1, d1 = d2;
  }
  g = p1 - p0;
  dg = 2 * (d1 - d0);
}

// The s nodes in (0, 1]: Newton with deflation of the roots already found, from the
// Chebyshev-like guesses (1 - cos((2k-1) pi / (2s-1))) / 2.
std::vector<long double> radau_nodes(int s) {
  const long double pi = 3.14159265358979323846264338327950288L;
  std::vector<long double> roots;
  for (int k = 1; k <= s; ++k) {
    long double x = (1 - std::cos((2 * k - 1) * pi / (2 * s - 1))) / 2;
    if (k == s) x = 1;
    for (int it = 0; it < 100; ++it) {
      long double g, dg;
      radau_polynomial(s, x, g, dg);
      if (g == 0) break;
      long double ratio = dg / g;
      for (long double r : roots) ratio -= 1 / (x - r);
      const long double step = 1 / ratio;
      x -= step;
      if (std::fabs(step) < 1e-19L) break;
    }
    roots.push_back(x);
  }
  std::sort(roots.begin(), roots.end());
  return roots;
}

RadauTableau build(int s) {
  RadauTableau tab;
  tab.stages = s;
  const std::vector<long double> nodes = radau_nodes(s);
  LVector c(s);
  for (int i = 0; i < s; ++i) c[i] = nodes[i];
  c[s - 1] = 1;  // exactly
  // A from the collocation conditions sum_j a_ij c_j^(k-1) = c_i^k / k (k = 1..s).
  LMatrix v(s, s), w(s, s);
  for (int j = 0; j < s; ++j)
    for (int k = 0; k < s; ++k) {
      v(j, k) = std::pow(c[j], static_cast<long double>(k));
      w(j, k) = std::pow(c[j], static_cast<long double>(k + 1)) / (k + 1);
    }
  const LMatrix a = v.transpose().partialPivLu().solve(w.transpose()).transpose();  // A V = W
  const LMatrix a_inv = a.inverse();
  tab.c = c.cast<double>();
  tab.a = a.cast<double>();

  // Real block form of A^-1, in long double: the iteration solves the collocation system
  // of T Lambda T^-1, so T must carry A^-1 to well below double precision (in double
  // the 7-stage method stalled at errors of 1e-11).
  Eigen::EigenSolver<LMatrix> eig(a_inv);
  const auto lambda = eig.eigenvalues();
  const auto vectors = eig.eigenvectors();
  LMatrix t(s, s);
  t.setZero();
  int col = 1;
  for (int k = 0; k < s; ++k) {
    if (std::abs(lambda[k].imag()) < 1e-12L) {
      tab.gamma = static_cast<double>(lambda[k].real());
      t.col(0) = vectors.col(k).real();
    } else if (lambda[k].imag() > 0) {
      tab.alpha.push_back(static_cast<double>(lambda[k].real()));
      tab.beta.push_back(static_cast<double>(lambda[k].imag()));
      t.col(col) = vectors.col(k).real();
      t.col(col + 1) = -vectors.col(k).imag();
      col += 2;
    }
  }
  if (col != s || tab.gamma == 0.0) throw std::logic_error("radau tableau: unexpected spectrum of A^-1");
  tab.t = t.cast<double>();
  tab.t_inv = t.inverse().cast<double>();

  // Embedded estimate of order s: weights bhat with bhat_0 = gamma0 = 1/gamma on f(t0, y0),
  // sum_i bhat_i c_i^(k-1) = 1/k - gamma0 [k = 1]; error = h (gamma0 f0 + sum_i (bhat_i - b_i) f_i)
  // and, with h f_i = sum_j (A^-1)_ij Z_j, its weights on Z are d = A^-T (bhat - b).
  const long double gamma0 = 1 / static_cast<long double>(tab.gamma);
  LVector rhs(s);
  for (int k = 0; k < s; ++k) rhs[k] = 1.0L / (k + 1) - (k == 0 ? gamma0 : 0);
  const LVector bhat = v.transpose().partialPivLu().solve(rhs);
  const LVector e = bhat - a.row(s - 1).transpose();
  const LVector d = a_inv.transpose() * e;
  tab.error_weights = (d / gamma0).cast<double>();
  return tab;
}

}  // namespace

void RadauTableau::basis(double theta, double* out) const {
  for (int i = 0; i < stages; ++i) {
    double l = theta / c[i];  // the factor of the node 0
    for (int m = 0; m < stages; ++m)
      if (m != i) l *= (theta - c[m]) / (c[i] - c[m]);
    out[i] = l;
  }
}

// Each method is built when a solve first uses it: most solves never leave 3 stages, and
// the 7-stage eigen-decomposition in long double is most of a short solve's instructions.
const RadauTableau& radau_tableau(int stages) {
  static std::array<std::once_flag, 3> once;
  static std::array<RadauTableau, 3> tableaus;
  if (stages != 3 && stages != 5 && stages != 7) throw std::invalid_argument("Radau IIA: 3, 5 or 7 stages");
  const auto k = static_cast<std::size_t>((stages - 3) / 2);
  std::call_once(once[k], [k, stages] { tableaus[k] = build(stages); });
  return tableaus[k];
}

}  // namespace daekit
