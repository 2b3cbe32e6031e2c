#include "periodic_multigrid.hpp"

#include <algorithm>

namespace brusselator_detail {
namespace {

constexpr int pre_sweeps = 2, post_sweeps = 2, coarsest_sweeps = 30;

inline int wrap(int i, int n) { return i < 0 ? i + n : i >= n ? i - n : i; }

}  // namespace

PeriodicMultigrid::PeriodicMultigrid(int n_side, int dof) : dof_(dof) {
  for (int n = n_side;; n /= 2) {
    Level level;
    level.n = n;
    const auto size = static_cast<std::size_t>(n) * n * dof;
    level.x.assign(size, 0.0);
    level.b.assign(size, 0.0);
    level.r.assign(size, 0.0);
    levels_.push_back(std::move(level));
    if (n % 2 != 0 || n / 2 < 4) break;
  }
}

void PeriodicMultigrid::set_shift(double s) {
  for (auto& level : levels_) {
    level.s = s;
    s /= 4.0;  // the grid spacing doubles
  }
}

void PeriodicMultigrid::solve(const double* b, double* x, int cycles) {
  Level& top = levels_.front();
  std::copy(b, b + top.b.size(), top.b.begin());
  std::fill(top.x.begin(), top.x.end(), 0.0);
  for (int c = 0; c < cycles; ++c) cycle(0);
  std::copy(top.x.begin(), top.x.end(), x);
}

void PeriodicMultigrid::cycle(std::size_t l) {
  Level& level = levels_[l];
  if (l + 1 == levels_.size()) {
    smooth(level, l == 0 ? pre_sweeps + post_sweeps : coarsest_sweeps);
    return;
  }
  smooth(level, pre_sweeps);
  residual(level);
  Level& coarse = levels_[l + 1];
  restrict_residual(level, coarse);
  std::fill(coarse.x.begin(), coarse.x.end(), 0.0);
  cycle(l + 1);
  prolong_add(coarse, level);
  smooth(level, post_sweeps);
}

// Red-black Gauss-Seidel: x = (b + s * sum of neighbours) / (1 + 4 s), one colour at a time.
void PeriodicMultigrid::smooth(Level& level, int sweeps) const {
  const int n = level.n, d = dof_;
  const double s = level.s, inv = 1.0 / (1.0 + 4.0 * s);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int colour = 0; colour < 2; ++colour)
      for (int j = 0; j < n; ++j) {
        const int up = wrap(j + 1, n), down = wrap(j - 1, n);
        for (int i = (j + colour) % 2; i < n; i += 2) {
          const int left = wrap(i - 1, n), right = wrap(i + 1, n);
          const std::size_t k = static_cast<std::size_t>(i + n * j) * d;
          const std::size_t kl = static_cast<std::size_t>(left + n * j) * d, kr = static_cast<std::size_t>(right + n * j) * d;
          const std::size_t kd = static_cast<std::size_t>(i + n * down) * d, ku = static_cast<std::size_t>(i + n * up) * d;
          for (int c = 0; c < d; ++c)
            level.x[k + c] =
                (level.b[k + c] + s * (level.x[kl + c] + level.x[kr + c] + level.x[kd + c] + level.x[ku + c])) * inv;
        }
      }
}

void PeriodicMultigrid::residual(Level& level) const {
  const int n = level.n, d = dof_;
  const double s = level.s;
  for (int j = 0; j < n; ++j) {
    const int up = wrap(j + 1, n), down = wrap(j - 1, n);
    for (int i = 0; i < n; ++i) {
      const int left = wrap(i - 1, n), right = wrap(i + 1, n);
      const std::size_t k = static_cast<std::size_t>(i + n * j) * d;
      const std::size_t kl = static_cast<std::size_t>(left + n * j) * d, kr = static_cast<std::size_t>(right + n * j) * d;
      const std::size_t kd = static_cast<std::size_t>(i + n * down) * d, ku = static_cast<std::size_t>(i + n * up) * d;
      for (int c = 0; c < d; ++c) {
        const double lap = level.x[kl + c] + level.x[kr + c] + level.x[kd + c] + level.x[ku + c] - 4.0 * level.x[k + c];
        level.r[k + c] = level.b[k + c] - (level.x[k + c] - s * lap);
      }
    }
  }
}

// Full weighting onto the even points: 1/4 the point, 1/8 each edge neighbour, 1/16 each corner.
void PeriodicMultigrid::restrict_residual(const Level& fine, Level& coarse) const {
  const int n = fine.n, nc = coarse.n, d = dof_;
  auto at = [&](int i, int j, int c) {
    return fine.r[static_cast<std::size_t>(wrap(i, n) + n * wrap(j, n)) * d + c];
  };
  for (int J = 0; J < nc; ++J)
    for (int I = 0; I < nc; ++I)
      for (int c = 0; c < d; ++c) {
        const int i = 2 * I, j = 2 * J;
        const double centre = at(i, j, c);
        const double edges = at(i - 1, j, c) + at(i + 1, j, c) + at(i, j - 1, c) + at(i, j + 1, c);
        const double corners = at(i - 1, j - 1, c) + at(i + 1, j - 1, c) + at(i - 1, j + 1, c) + at(i + 1, j + 1, c);
        coarse.b[static_cast<std::size_t>(I + nc * J) * d + c] = 0.25 * centre + 0.125 * edges + 0.0625 * corners;
      }
}

void PeriodicMultigrid::prolong_add(const Level& coarse, Level& fine) const {
  const int n = fine.n, nc = coarse.n, d = dof_;
  auto at = [&](int I, int J, int c) {
    return coarse.x[static_cast<std::size_t>(wrap(I, nc) + nc * wrap(J, nc)) * d + c];
  };
  for (int J = 0; J < nc; ++J)
    for (int I = 0; I < nc; ++I)
      for (int c = 0; c < d; ++c) {
        const double a = at(I, J, c), right = at(I + 1, J, c), up = at(I, J + 1, c), diagonal = at(I + 1, J + 1, c);
        auto add = [&](int i, int j, double v) { fine.x[static_cast<std::size_t>(i + n * j) * d + c] += v; };
        add(2 * I, 2 * J, a);
        add(2 * I + 1, 2 * J, 0.5 * (a + right));
        add(2 * I, 2 * J + 1, 0.5 * (a + up));
        add(2 * I + 1, 2 * J + 1, 0.25 * (a + right + up + diagonal));
      }
}

}  // namespace brusselator_detail
