#include "grid_multigrid.hpp"

#include <algorithm>

namespace daekit_problems {
namespace {

constexpr int pre_sweeps = 2, post_sweeps = 2, coarsest_sweeps = 30;

// A fine point's place between coarse points, in one dimension: one coarse point (lo = hi,
// half each) or two with 1/2 each; -1 where a Dirichlet grid has none.
struct Between {
  int lo, hi;
};

}  // namespace

GridMultigrid::GridMultigrid(int n_side, int dimensions, int dof, Boundary boundary)
    : dimensions_(dimensions), dof_(dof), boundary_(boundary), offset_(boundary == Boundary::periodic ? 0 : 1) {
  for (int n = n_side;;) {
    Level level;
    level.n = n;
    std::size_t size = static_cast<std::size_t>(dof);
    for (int d = 0; d < dimensions; ++d) size *= static_cast<std::size_t>(n);
    level.x.assign(size, 0.0);
    level.b.assign(size, 0.0);
    level.r.assign(size, 0.0);
    levels_.push_back(std::move(level));
    if (boundary == Boundary::periodic) {
      if (n % 2 != 0 || n / 2 < 4) break;
      n /= 2;
    } else {
      if ((n + 1) % 2 != 0 || (n + 1) / 2 - 1 < 3) break;
      n = (n + 1) / 2 - 1;
    }
  }
}

void GridMultigrid::set_shift(double s) {
  for (auto& level : levels_) {
    level.s = s;
    s /= 4.0;  // the grid spacing doubles
  }
}

std::size_t GridMultigrid::index(int n, const Point& p) const {
  const auto un = static_cast<std::size_t>(n);
  return (static_cast<std::size_t>(p[0]) + un * (static_cast<std::size_t>(p[1]) + un * static_cast<std::size_t>(p[2]))) *
         static_cast<std::size_t>(dof_);
}

double GridMultigrid::value(const std::vector<double>& v, int n, Point p, int c) const {
  for (int d = 0; d < dimensions_; ++d) {
    int& i = p[static_cast<std::size_t>(d)];
    if (i >= 0 && i < n) continue;
    if (boundary_ == Boundary::dirichlet) return 0.0;
    i = i < 0 ? i + n : i - n;
  }
  return v[index(n, p) + static_cast<std::size_t>(c)];
}

inline double GridMultigrid::strided_sum(const std::vector<double>& v, int n, std::size_t at) const {
  const std::size_t sx = static_cast<std::size_t>(dof_), sy = sx * static_cast<std::size_t>(n);
  double sum = v[at - sx] + v[at + sx] + v[at - sy] + v[at + sy];
  if (dimensions_ == 3) sum += v[at - sy * static_cast<std::size_t>(n)] + v[at + sy * static_cast<std::size_t>(n)];
  return sum;
}

double GridMultigrid::neighbour_sum(const std::vector<double>& v, int n, const Point& p, int c) const {
  double sum = 0.0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(dimensions_); ++d)
    for (int step : {-1, 1}) {
      Point q = p;
      q[d] += step;
      sum += value(v, n, q, c);
    }
  return sum;
}

template <class Visit>
void GridMultigrid::for_each_row(int n, Visit visit) const {
  const int nk = dimensions_ == 3 ? n : 1;
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < n; ++j) visit(j, k, j > 0 && j < n - 1 && (dimensions_ == 2 || (k > 0 && k < n - 1)));
}

template <class Visit>
void GridMultigrid::for_each_point(int n, Visit visit) const {
  const int nk = dimensions_ == 3 ? n : 1;
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) visit(Point{i, j, k});
}

void GridMultigrid::solve(const double* b, double* x, int cycles) {
  Level& top = levels_.front();
  std::copy(b, b + top.b.size(), top.b.begin());
  std::fill(top.x.begin(), top.x.end(), 0.0);
  for (int c = 0; c < cycles; ++c) cycle(0);
  std::copy(top.x.begin(), top.x.end(), x);
}

void GridMultigrid::cycle(std::size_t l) {
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

// Red-black Gauss-Seidel: x = (b + s * sum of neighbours) / (1 + 2 d s), one colour at a time.
void GridMultigrid::smooth(Level& level, int sweeps) const {
  const int n = level.n;
  const double s = level.s, inv = 1.0 / (1.0 + 2.0 * dimensions_ * s);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int colour = 0; colour < 2; ++colour)
      for_each_row(n, [&](int j, int k, bool row_inside) {
        const std::size_t row = index(n, {0, j, k});
        const int first = (j + k + colour) % 2;
        auto edge_point = [&](int i) {
          const std::size_t at = row + static_cast<std::size_t>(i * dof_);
          for (int c = 0; c < dof_; ++c)
            level.x[at + c] = (level.b[at + c] + s * neighbour_sum(level.x, n, {i, j, k}, c)) * inv;
        };
        if (!row_inside) {
          for (int i = first; i < n; i += 2) edge_point(i);
          return;
        }
        if (first == 0) edge_point(0);
        for (int i = first == 0 ? 2 : 1; i < n - 1; i += 2) {
          const std::size_t at = row + static_cast<std::size_t>(i * dof_);
          for (int c = 0; c < dof_; ++c)
            level.x[at + c] = (level.b[at + c] + s * strided_sum(level.x, n, at + c)) * inv;
        }
        if ((n - 1 - first) % 2 == 0) edge_point(n - 1);
      });
}

void GridMultigrid::residual(Level& level) const {
  const int n = level.n;
  const double s = level.s, centre = 2.0 * dimensions_;
  for_each_row(n, [&](int j, int k, bool row_inside) {
    const std::size_t row = index(n, {0, j, k});
    for (int i = 0; i < n; ++i) {
      const std::size_t at = row + static_cast<std::size_t>(i * dof_);
      const bool inside = row_inside && i > 0 && i < n - 1;
      for (int c = 0; c < dof_; ++c) {
        const double around = inside ? strided_sum(level.x, n, at + c) : neighbour_sum(level.x, n, {i, j, k}, c);
        level.r[at + c] = level.b[at + c] - (level.x[at + c] - s * (around - centre * level.x[at + c]));
      }
    }
  });
}

// Full weighting onto the coarse points: per dimension 1/2 the point and 1/4 each
// neighbour, the weights of the dimensions multiplied (2D: 1/4, 1/8, 1/16).
void GridMultigrid::restrict_residual(const Level& fine, Level& coarse) const {
  static constexpr double weight[3] = {0.25, 0.5, 0.25};
  const int n = fine.n, dk = dimensions_ == 3 ? 1 : 0;
  for_each_point(coarse.n, [&](const Point& P) {
    const Point centre{2 * P[0] + offset_, 2 * P[1] + offset_, dk ? 2 * P[2] + offset_ : 0};
    const std::size_t at = index(coarse.n, P);
    bool inside = true;  // the whole 3^d neighbourhood on the fine grid
    for (int d = 0; d < dimensions_; ++d) inside = inside && centre[d] > 0 && centre[d] < n - 1;
    for (int c = 0; c < dof_; ++c) {
      double sum = 0.0;
      for (int a = -dk; a <= dk; ++a)
        for (int b = -1; b <= 1; ++b)
          for (int e = -1; e <= 1; ++e) {
            const Point q{centre[0] + e, centre[1] + b, centre[2] + a};
            sum += weight[e + 1] * weight[b + 1] * (dk ? weight[a + 1] : 1.0) *
                   (inside ? fine.r[index(n, q) + static_cast<std::size_t>(c)] : value(fine.r, n, q, c));
          }
      coarse.b[at + c] = sum;
    }
  });
}

// (Bi/tri)linear: each fine point from the coarse points around it, with the product of
// the dimensions' weights (1, or 1/2 and 1/2).
void GridMultigrid::prolong_add(const Level& coarse, Level& fine) const {
  const int nc = coarse.n;
  auto between = [&](int i) {
    const int t = i - offset_;
    if (t % 2 == 0) return Between{t / 2, t / 2};
    return Between{(t - 1) / 2, (t + 1) / 2};  // t - 1 and t + 1 even: exact halves
  };
  const int corners = dimensions_ == 3 ? 8 : 4;
  const double share = dimensions_ == 3 ? 0.125 : 0.25;
  for_each_point(fine.n, [&](const Point& p) {
    const Between b[3] = {between(p[0]), between(p[1]), dimensions_ == 3 ? between(p[2]) : Between{0, 0}};
    const std::size_t at = index(fine.n, p);
    bool inside = true;  // every corner on the coarse grid: indices without wrapping or tests
    for (int d = 0; d < dimensions_; ++d) inside = inside && b[d].lo >= 0 && b[d].hi < nc;
    for (int c = 0; c < dof_; ++c) {
      double sum = 0.0;
      for (int corner = 0; corner < corners; ++corner) {
        const Point q{corner & 1 ? b[0].hi : b[0].lo, corner & 2 ? b[1].hi : b[1].lo, corner & 4 ? b[2].hi : b[2].lo};
        sum += inside ? coarse.x[index(nc, q) + static_cast<std::size_t>(c)] : value(coarse.x, nc, q, c);
      }
      fine.x[at + c] += share * sum;
    }
  });
}

}  // namespace daekit_problems
