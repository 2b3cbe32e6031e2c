// Forward-mode automatic differentiation for problem authors: a value with its
// derivatives in N directions at once. A right-hand side written once as a template over
// the scalar type, evaluated on Dual<N>, gives N columns of the exact Jacobian per pass
// (sdk/autodiff.hpp does the seeding, the colouring and the collection).
//
// Our own small type rather than a library (docs/architecture.md, "Libraries", says why):
// plain arithmetic on a std::array, so it compiles in seconds under the sanitizers
// (Eigen's AutoDiffScalar with 66 directions took 20 minutes) and vectorises.
#pragma once

#include <array>
#include <cmath>

#include <Eigen/Core>

namespace daekit {

template <int N>
struct Dual {
  double v = 0.0;
  std::array<double, N> d{};

  Dual() = default;
  Dual(double value) : v(value) {}  // NOLINT: constants mix freely with duals, as in f's formulas

  Dual& operator+=(const Dual& b) {
    v += b.v;
    for (int k = 0; k < N; ++k) d[k] += b.d[k];
    return *this;
  }
  Dual& operator-=(const Dual& b) {
    v -= b.v;
    for (int k = 0; k < N; ++k) d[k] -= b.d[k];
    return *this;
  }
  Dual& operator*=(const Dual& b) {
    for (int k = 0; k < N; ++k) d[k] = d[k] * b.v + v * b.d[k];
    v *= b.v;
    return *this;
  }
  Dual& operator/=(const Dual& b) {
    const double inv = 1.0 / b.v;
    v *= inv;
    for (int k = 0; k < N; ++k) d[k] = (d[k] - v * b.d[k]) * inv;
    return *this;
  }
};

// The chain rule in one place: g(a) with g'(a.v) given.
template <int N>
Dual<N> chain(const Dual<N>& a, double value, double derivative) {
  Dual<N> r(value);
  for (int k = 0; k < N; ++k) r.d[k] = derivative * a.d[k];
  return r;
}

template <int N> Dual<N> operator+(Dual<N> a, const Dual<N>& b) { return a += b; }
template <int N> Dual<N> operator-(Dual<N> a, const Dual<N>& b) { return a -= b; }
template <int N> Dual<N> operator*(Dual<N> a, const Dual<N>& b) { return a *= b; }
template <int N> Dual<N> operator/(Dual<N> a, const Dual<N>& b) { return a /= b; }
template <int N> Dual<N> operator+(Dual<N> a, double b) { a.v += b; return a; }
template <int N> Dual<N> operator+(double a, Dual<N> b) { b.v += a; return b; }
template <int N> Dual<N> operator-(Dual<N> a, double b) { a.v -= b; return a; }
template <int N> Dual<N> operator-(double a, const Dual<N>& b) { return chain(b, a - b.v, -1.0); }
template <int N> Dual<N> operator*(Dual<N> a, double b) {
  a.v *= b;
  for (auto& x : a.d) x *= b;
  return a;
}
template <int N> Dual<N> operator*(double a, Dual<N> b) { return b * a; }
template <int N> Dual<N> operator/(Dual<N> a, double b) { return a * (1.0 / b); }
template <int N> Dual<N> operator/(double a, const Dual<N>& b) { return chain(b, a / b.v, -a / (b.v * b.v)); }
template <int N> Dual<N> operator-(const Dual<N>& a) { return chain(a, -a.v, -1.0); }
template <int N> Dual<N> operator+(const Dual<N>& a) { return a; }

// Comparisons look at values only: branches in f follow the point, as in double.
template <int N> bool operator<(const Dual<N>& a, const Dual<N>& b) { return a.v < b.v; }
template <int N> bool operator>(const Dual<N>& a, const Dual<N>& b) { return a.v > b.v; }
template <int N> bool operator<=(const Dual<N>& a, const Dual<N>& b) { return a.v <= b.v; }
template <int N> bool operator>=(const Dual<N>& a, const Dual<N>& b) { return a.v >= b.v; }
template <int N> bool operator==(const Dual<N>& a, const Dual<N>& b) { return a.v == b.v; }
template <int N> bool operator!=(const Dual<N>& a, const Dual<N>& b) { return a.v != b.v; }
template <int N> bool operator<(const Dual<N>& a, double b) { return a.v < b; }
template <int N> bool operator>(const Dual<N>& a, double b) { return a.v > b; }
template <int N> bool operator<=(const Dual<N>& a, double b) { return a.v <= b; }
template <int N> bool operator>=(const Dual<N>& a, double b) { return a.v >= b; }
template <int N> bool operator<(double a, const Dual<N>& b) { return a < b.v; }
template <int N> bool operator>(double a, const Dual<N>& b) { return a > b.v; }
template <int N> bool operator<=(double a, const Dual<N>& b) { return a <= b.v; }
template <int N> bool operator>=(double a, const Dual<N>& b) { return a >= b.v; }

// The elementary functions models use. Found by argument-dependent lookup: write
// `using std::exp; exp(x)` (or plain `exp(x)` for duals) in a template rhs.
template <int N> Dual<N> sqrt(const Dual<N>& a) {
  const double s = std::sqrt(a.v);
  return chain(a, s, 0.5 / s);
}
template <int N> Dual<N> cbrt(const Dual<N>& a) {
  const double c = std::cbrt(a.v);
  return chain(a, c, 1.0 / (3.0 * c * c));
}
template <int N> Dual<N> exp(const Dual<N>& a) {
  const double e = std::exp(a.v);
  return chain(a, e, e);
}
template <int N> Dual<N> log(const Dual<N>& a) { return chain(a, std::log(a.v), 1.0 / a.v); }
template <int N> Dual<N> log10(const Dual<N>& a) {
  return chain(a, std::log10(a.v), 1.0 / (a.v * 2.302585092994045684));  // ln 10
}
template <int N> Dual<N> sin(const Dual<N>& a) { return chain(a, std::sin(a.v), std::cos(a.v)); }
template <int N> Dual<N> cos(const Dual<N>& a) { return chain(a, std::cos(a.v), -std::sin(a.v)); }
template <int N> Dual<N> tan(const Dual<N>& a) {
  const double t = std::tan(a.v);
  return chain(a, t, 1.0 + t * t);
}
template <int N> Dual<N> atan(const Dual<N>& a) { return chain(a, std::atan(a.v), 1.0 / (1.0 + a.v * a.v)); }
template <int N> Dual<N> sinh(const Dual<N>& a) { return chain(a, std::sinh(a.v), std::cosh(a.v)); }
template <int N> Dual<N> cosh(const Dual<N>& a) { return chain(a, std::cosh(a.v), std::sinh(a.v)); }
template <int N> Dual<N> tanh(const Dual<N>& a) {
  const double t = std::tanh(a.v);
  return chain(a, t, 1.0 - t * t);
}
template <int N> Dual<N> abs(const Dual<N>& a) { return a.v < 0 ? -a : a; }
template <int N> Dual<N> fabs(const Dual<N>& a) { return abs(a); }
template <int N> Dual<N> pow(const Dual<N>& a, double p) {
  if (p == 0.0) return Dual<N>(1.0);
  const double ap1 = std::pow(a.v, p - 1.0);
  return chain(a, ap1 * a.v, p * ap1);
}
template <int N> Dual<N> pow(const Dual<N>& a, int p) { return pow(a, static_cast<double>(p)); }
template <int N> Dual<N> pow(const Dual<N>& a, const Dual<N>& p) { return exp(p * log(a)); }
template <int N> Dual<N> pow(double a, const Dual<N>& p) {
  const double r = std::pow(a, p.v);
  return chain(p, r, r * std::log(a));
}
template <int N> Dual<N> max(const Dual<N>& a, const Dual<N>& b) { return a.v >= b.v ? a : b; }
template <int N> Dual<N> min(const Dual<N>& a, const Dual<N>& b) { return a.v <= b.v ? a : b; }
template <int N> bool isfinite(const Dual<N>& a) { return std::isfinite(a.v); }

// The value of a scalar, double or dual: for code that must leave the template world
// (tables, messages).
inline double value_of(double x) { return x; }
template <int N> double value_of(const Dual<N>& x) { return x.v; }

}  // namespace daekit

// Duals as Eigen scalars, for models written with fixed-size Eigen matrices.
namespace Eigen {
template <int N>
struct NumTraits<daekit::Dual<N>> : NumTraits<double> {
  using Real = daekit::Dual<N>;
  using NonInteger = daekit::Dual<N>;
  using Nested = daekit::Dual<N>;
  using Literal = daekit::Dual<N>;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1 + N,
         AddCost = 1 + N, MulCost = 1 + 2 * N };
};
template <int N, typename BinaryOp>
struct ScalarBinaryOpTraits<daekit::Dual<N>, double, BinaryOp> {
  using ReturnType = daekit::Dual<N>;
};
template <int N, typename BinaryOp>
struct ScalarBinaryOpTraits<double, daekit::Dual<N>, BinaryOp> {
  using ReturnType = daekit::Dual<N>;
};
}  // namespace Eigen
