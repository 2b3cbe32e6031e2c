// The bouncing ball x' = v, v' = -g from (x0, v0), v -> -e v at x = 0, in closed form at
// t, in the types of its inputs: with dual numbers its exact derivatives with respect to
// any of them (the reference of the sensitivity tests through events).
#pragma once

#include <array>
#include <cmath>

namespace daekit::test {

template <class T>
std::array<T, 2> ball_at(T x0, T v0, T e, T g, double t) {
  using std::sqrt;
  const T speed = sqrt(v0 * v0 + 2.0 * g * x0);  // at every impact, before e^k
  T t_bounce = (v0 + speed) / g;                  // the first impact
  if (t < t_bounce) return {x0 + v0 * t - 0.5 * g * t * t, v0 - g * t};
  T up = e * speed;
  while (t_bounce + 2.0 * up / g < t) {
    t_bounce = t_bounce + 2.0 * up / g;
    up = up * e;
  }
  const T s = t - t_bounce;
  return {up * s - 0.5 * g * s * s, up - g * s};
}

}  // namespace daekit::test
