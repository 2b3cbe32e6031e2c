// (I - s L) x = b on an N x N periodic grid, L the 5-point Laplacian stencil (the four
// neighbours minus four times the point), `dof` interleaved values per grid point that
// share the operator: geometric multigrid V-cycles (red-black Gauss-Seidel smoothing,
// full-weighting restriction, bilinear prolongation, the coarse operators rediscretised
// with s / 4 per level). The grid halves while N is even and the coarse grid keeps at least
// 4 points a side; an odd N leaves one level, and the cycle is then Gauss-Seidel sweeps
// alone (a weaker preconditioner, not a wrong one).
#pragma once

#include <cstddef>
#include <vector>

namespace brusselator_detail {

class PeriodicMultigrid {
 public:
  PeriodicMultigrid(int n_side, int dof);
  void set_shift(double s);
  int levels() const { return static_cast<int>(levels_.size()); }
  // x ~ (I - s L)^-1 b by `cycles` V-cycles from x = 0 (b and x: N * N * dof values).
  void solve(const double* b, double* x, int cycles);

 private:
  struct Level {
    int n = 0;
    double s = 0.0;
    std::vector<double> x, b, r;
  };
  void cycle(std::size_t l);
  void smooth(Level& level, int sweeps) const;
  void residual(Level& level) const;
  void restrict_residual(const Level& fine, Level& coarse) const;
  void prolong_add(const Level& coarse, Level& fine) const;

  int dof_;
  std::vector<Level> levels_;
};

}  // namespace brusselator_detail
