// (I - s L) x = b on an N x N (x N) grid, L the Laplacian stencil (the 2 d neighbours
// minus 2 d times the point, d = 2 or 3 dimensions), `dof` interleaved values per grid
// point that share the operator; the grid periodic, or the interior of a Dirichlet problem
// (values outside are zero). Geometric multigrid V-cycles: red-black Gauss-Seidel
// smoothing, full-weighting restriction, (bi/tri)linear prolongation, the coarse operators
// rediscretised with s / 4 per level. A periodic grid halves while N is even (keeping at
// least 4 points a side), a Dirichlet one while N + 1 is (its coarse points are the odd
// fine ones; at least 3). Where the grid cannot halve, the cycle is Gauss-Seidel sweeps
// alone (a weaker preconditioner, not a wrong one). Shared by the problems that
// precondition with it (brusselator, heat2d, reaction3d).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace daekit_problems {

class GridMultigrid {
 public:
  enum class Boundary { periodic, dirichlet };
  GridMultigrid(int n_side, int dimensions, int dof, Boundary boundary);
  void set_shift(double s);
  // Threads for the sweeps, residuals and restrictions (parallel_for.hpp): the same x for
  // every count; the prolongation, which adds into shared fine points, stays on one.
  void set_threads(int threads) { threads_ = threads; }
  int levels() const { return static_cast<int>(levels_.size()); }
  // x ~ (I - s L)^-1 b by `cycles` V-cycles from x = 0 (b and x: N^d * dof values).
  void solve(const double* b, double* x, int cycles);

 private:
  using Point = std::array<int, 3>;  // (i, j, k); k = 0 in 2D
  struct Level {
    int n = 0;
    double s = 0.0;
    std::vector<double> x, b, r;
  };
  // The value at point p of grid n (0 outside a Dirichlet grid; wrapped on a periodic one).
  double value(const std::vector<double>& v, int n, Point p, int c) const;
  std::size_t index(int n, const Point& p) const;
  // Visits every point of grid n, row by row; `parallel`: the rows over the threads
  // (for visits that write their own point only).
  template <class Visit>
  void for_each_point(int n, bool parallel, Visit visit) const;
  // One dimension's neighbour of i at i + delta: wrapped, or -1 outside a Dirichlet grid.
  int step(int i, int delta, int n) const;
  // Row (j, k)'s flat start and its neighbour rows (j -+ 1, then k -+ 1 in 3D), the zero
  // row where a Dirichlet grid has none: computed once per row, so that the sweeps test
  // nothing per point but its two column ends.
  struct Rows {
    std::size_t centre = 0;
    std::array<const double*, 4> neighbour{};
  };
  Rows rows_around(const std::vector<double>& v, int n, int j, int k) const;
  template <int Dimensions>
  void sum_around(const std::vector<double>& v, int n, const Rows& r, int i, double* out) const;
  template <int Dimensions>
  void smooth_sweep(Level& level, int colour) const;
  template <int Dimensions>
  void residual_of(Level& level) const;
  // A point's 3^d neighbourhood on grid n (x-fastest order): offsets from its flat index,
  // and the products of the dimensions' weights (weight[0] at -1, [1] at 0, [2] at +1).
  struct Neighbourhood {
    std::array<std::ptrdiff_t, 27> offset{};
    std::array<double, 27> weight{};
    int count = 0;
  };
  Neighbourhood neighbourhood(int n, const std::array<double, 3>& weight) const;
  void cycle(std::size_t l);
  void smooth(Level& level, int sweeps) const;
  void residual(Level& level) const;
  void restrict_residual(const Level& fine, Level& coarse) const;
  void prolong_add(const Level& coarse, Level& fine) const;

  int dimensions_, dof_;
  Boundary boundary_;
  int offset_;  // the fine index of coarse point 0: 0 periodic, 1 Dirichlet
  static constexpr int max_dof = 4;
  std::vector<double> zeros_;  // a row of zeros: the neighbours outside a Dirichlet grid
  std::vector<Level> levels_;
  int threads_ = 1;
};

}  // namespace daekit_problems
