#include "grid_multigrid.hpp"

#include <algorithm>
#include <stdexcept>

#include "parallel_for.hpp"

namespace daekit_problems {
namespace {

constexpr int pre_sweeps = 2, post_sweeps = 2, coarsest_sweeps = 30;

}  // namespace

GridMultigrid::GridMultigrid(int n_side, int dimensions, int dof, Boundary boundary)
    : dimensions_(dimensions), dof_(dof), boundary_(boundary), offset_(boundary == Boundary::periodic ? 0 : 1),
      zeros_(static_cast<std::size_t>(n_side) * static_cast<std::size_t>(dof), 0.0) {
  if (dof < 1 || dof > max_dof) throw std::invalid_argument("GridMultigrid: 1 to 4 values per grid point");
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

template <class Visit>
void GridMultigrid::for_each_point(int n, bool parallel, Visit visit) const {
  const int rows = dimensions_ == 3 ? n * n : n;
  [[maybe_unused]] const int team = parallel ? threads_ : 1;
  DAEKIT_PROBLEMS_PARALLEL_FOR(team)
  for (int row = 0; row < rows; ++row)
    for (int i = 0; i < n; ++i) visit(Point{i, row % n, row / n});
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

int GridMultigrid::step(int i, int delta, int n) const {
  i += delta;
  if (i >= 0 && i < n) return i;
  if (boundary_ == Boundary::dirichlet) return -1;
  return i < 0 ? i + n : i - n;
}

GridMultigrid::Rows GridMultigrid::rows_around(const std::vector<double>& v, int n, int j, int k) const {
  const double* zero = zeros_.data();
  auto row = [&](int jj, int kk) { return jj < 0 || kk < 0 ? zero : v.data() + index(n, {0, jj, kk}); };
  Rows r;
  r.centre = index(n, {0, j, k});
  r.neighbour = {row(step(j, -1, n), k), row(step(j, 1, n), k), zero, zero};
  if (dimensions_ == 3) r.neighbour[2] = row(j, step(k, -1, n)), r.neighbour[3] = row(j, step(k, 1, n));
  return r;
}

// The 2 d neighbours of point i of rows r in v, summed into out[0 .. dof) (zero outside a
// Dirichlet grid: those neighbours read the zero row).
template <int Dimensions>
[[gnu::always_inline]] inline void GridMultigrid::sum_around(const std::vector<double>& v, int n, const Rows& r, int i, double* out) const {
  const auto d = static_cast<std::size_t>(dof_), column = static_cast<std::size_t>(i) * d;
  const double *l, *h;
  if (i > 0 && i < n - 1) {  // all but the two column ends
    l = v.data() + r.centre + column - d;
    h = v.data() + r.centre + column + d;
  } else {
    const int left = step(i, -1, n), right = step(i, 1, n);
    l = left < 0 ? zeros_.data() : v.data() + r.centre + static_cast<std::size_t>(left) * d;
    h = right < 0 ? zeros_.data() : v.data() + r.centre + static_cast<std::size_t>(right) * d;
  }
  for (std::size_t c = 0; c < d; ++c) {
    double sum = l[c] + h[c] + r.neighbour[0][column + c] + r.neighbour[1][column + c];
    if constexpr (Dimensions == 3) sum += r.neighbour[2][column + c] + r.neighbour[3][column + c];
    out[c] = sum;
  }
}

template <int Dimensions>
void GridMultigrid::smooth_sweep(Level& level, int colour) const {
  const int n = level.n, rows = Dimensions == 3 ? n * n : n;
  const double s = level.s, inv = 1.0 / (1.0 + 2.0 * Dimensions * s);
  const auto d = static_cast<std::size_t>(dof_);
  // A colour's points read only the other colour's, so its rows are independent; not on a
  // periodic grid of odd side, where the wrap joins two points of one colour (the first
  // and last rows, in the order the serial sweep takes them).
  [[maybe_unused]] const int team = boundary_ == Boundary::dirichlet || n % 2 == 0 ? threads_ : 1;
  DAEKIT_PROBLEMS_PARALLEL_FOR(team)
  for (int row = 0; row < rows; ++row) {
    const int j = row % n, k = row / n;
    std::array<double, max_dof> sum{};
    const Rows r = rows_around(level.x, n, j, k);
    for (int i = (j + k + colour) % 2; i < n; i += 2) {
      sum_around<Dimensions>(level.x, n, r, i, sum.data());
      const std::size_t at = r.centre + static_cast<std::size_t>(i) * d;
      for (std::size_t c = 0; c < d; ++c) level.x[at + c] = (level.b[at + c] + s * sum[c]) * inv;
    }
  }
}

// Red-black Gauss-Seidel: x = (b + s * sum of neighbours) / (1 + 2 d s), one colour at a time.
void GridMultigrid::smooth(Level& level, int sweeps) const {
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int colour = 0; colour < 2; ++colour)
      dimensions_ == 3 ? smooth_sweep<3>(level, colour) : smooth_sweep<2>(level, colour);
}

template <int Dimensions>
void GridMultigrid::residual_of(Level& level) const {
  const int n = level.n, rows = Dimensions == 3 ? n * n : n;
  const double s = level.s, centre = 2.0 * Dimensions;
  const auto d = static_cast<std::size_t>(dof_);
  DAEKIT_PROBLEMS_PARALLEL_FOR(threads_)
  for (int row = 0; row < rows; ++row) {
    std::array<double, max_dof> sum{};
    const Rows r = rows_around(level.x, n, row % n, row / n);
    for (int i = 0; i < n; ++i) {
      sum_around<Dimensions>(level.x, n, r, i, sum.data());
      const std::size_t at = r.centre + static_cast<std::size_t>(i) * d;
      for (std::size_t c = 0; c < d; ++c)
        level.r[at + c] = level.b[at + c] - (level.x[at + c] - s * (sum[c] - centre * level.x[at + c]));
    }
  }
}

void GridMultigrid::residual(Level& level) const {
  dimensions_ == 3 ? residual_of<3>(level) : residual_of<2>(level);
}

GridMultigrid::Neighbourhood GridMultigrid::neighbourhood(int n, const std::array<double, 3>& weight) const {
  const int dk = dimensions_ == 3 ? 1 : 0;
  Neighbourhood hood;
  for (int a = -dk; a <= dk; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int e = -1; e <= 1; ++e, ++hood.count) {
        const auto k = static_cast<std::size_t>(hood.count);
        hood.offset[k] = (e + static_cast<std::ptrdiff_t>(n) * (b + static_cast<std::ptrdiff_t>(n) * a)) * dof_;
        hood.weight[k] = weight[static_cast<std::size_t>(e + 1)] * weight[static_cast<std::size_t>(b + 1)] *
                         (dk ? weight[static_cast<std::size_t>(a + 1)] : 1.0);
      }
  return hood;
}

// Full weighting onto the coarse points: per dimension 1/2 the point and 1/4 each
// neighbour, the weights of the dimensions multiplied (2D: 1/4, 1/8, 1/16).
void GridMultigrid::restrict_residual(const Level& fine, Level& coarse) const {
  const int n = fine.n, dk = dimensions_ == 3 ? 1 : 0;
  const Neighbourhood hood = neighbourhood(n, {0.25, 0.5, 0.25});
  const auto& [offset, w, count] = hood;
  for_each_point(coarse.n, /*parallel=*/true, [&](const Point& P) {
    const Point centre{2 * P[0] + offset_, 2 * P[1] + offset_, dk ? 2 * P[2] + offset_ : 0};
    const std::size_t at = index(coarse.n, P);
    bool inside = true;  // the whole neighbourhood on the fine grid
    for (int d = 0; d < dimensions_; ++d) inside = inside && centre[d] > 0 && centre[d] < n - 1;
    if (inside) {
      const double* r = fine.r.data() + index(n, centre);
      for (int c = 0; c < dof_; ++c) {
        double sum = 0.0;
        for (int k = 0; k < count; ++k) sum += w[static_cast<std::size_t>(k)] * r[offset[static_cast<std::size_t>(k)] + c];
        coarse.b[at + c] = sum;
      }
      return;
    }
    for (int c = 0; c < dof_; ++c) {
      double sum = 0.0;
      int k = 0;
      for (int a = -dk; a <= dk; ++a)
        for (int b = -1; b <= 1; ++b)
          for (int e = -1; e <= 1; ++e, ++k)
            sum += w[static_cast<std::size_t>(k)] * value(fine.r, n, {centre[0] + e, centre[1] + b, centre[2] + a}, c);
      coarse.b[at + c] = sum;
    }
  });
}

// (Bi/tri)linear, as the transpose of full weighting: each coarse point adds itself to
// its fine point and half (a quarter, an eighth) to the fine points around it.
void GridMultigrid::prolong_add(const Level& coarse, Level& fine) const {
  const int n = fine.n, dk = dimensions_ == 3 ? 1 : 0;
  const auto d = static_cast<std::size_t>(dof_);
  const Neighbourhood hood = neighbourhood(n, {0.5, 1.0, 0.5});
  const auto& [offset, w, count] = hood;
  for_each_point(coarse.n, /*parallel=*/false, [&](const Point& P) {
    const Point centre{2 * P[0] + offset_, 2 * P[1] + offset_, dk ? 2 * P[2] + offset_ : 0};
    const double* x = coarse.x.data() + index(coarse.n, P);
    bool inside = true;  // the whole neighbourhood on the fine grid
    for (int dim = 0; dim < dimensions_; ++dim) inside = inside && centre[dim] > 0 && centre[dim] < n - 1;
    if (inside) {
      double* f = fine.x.data() + index(n, centre);
      for (int k = 0; k < count; ++k)
        for (std::size_t c = 0; c < d; ++c) f[offset[static_cast<std::size_t>(k)] + static_cast<std::ptrdiff_t>(c)] += w[static_cast<std::size_t>(k)] * x[c];
      return;
    }
    int k = 0;  // at the grid's edge: wrapped (periodic) or left out (Dirichlet)
    for (int a = -dk; a <= dk; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int e = -1; e <= 1; ++e, ++k) {
          Point q{centre[0] + e, centre[1] + b, centre[2] + a};
          bool on_grid = true;
          for (int dim = 0; dim < dimensions_; ++dim) {
            int& i = q[static_cast<std::size_t>(dim)];
            i = step(i, 0, n);
            on_grid = on_grid && i >= 0;
          }
          if (!on_grid) continue;
          double* f = fine.x.data() + index(n, q);
          for (std::size_t c = 0; c < d; ++c) f[c] += w[static_cast<std::size_t>(k)] * x[c];
        }
  });
}

}  // namespace daekit_problems
