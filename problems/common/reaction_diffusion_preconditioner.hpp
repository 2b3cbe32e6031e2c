// The preconditioner of a two-species reaction-diffusion grid problem, M - gamma J with
// J = D L + R (L the grid Laplacian for both species, R the reaction's 2 x 2 block at each
// point): P = (I - gamma D L)(I - gamma R), the diffusion by multigrid V-cycles
// (grid_multigrid.hpp), each point's I - gamma R inverted exactly. The brusselator and
// reaction3d use it; their values are interleaved (u, v) per grid point.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "grid_multigrid.hpp"

namespace daekit_problems {

class ReactionDiffusionPreconditioner {
 public:
  using Block = std::array<double, 4>;  // row-major 2 x 2: d(u', v') / d(u, v)

  ReactionDiffusionPreconditioner(int n_side, int dimensions, GridMultigrid::Boundary boundary, std::size_t points);
  // The reaction blocks at the present state: the problem fills them when its Jacobian
  // data are to be re-evaluated.
  std::vector<Block>& reaction_blocks() { return reaction_; }
  // Ready for gamma, the diffusion's coefficient over h^2 being `diffusion`; false when an
  // I - gamma R is singular.
  bool prepare(double gamma, double diffusion);
  // z = P^-1 r with `cycles` V-cycles.
  void solve(const double* r, double* z, int cycles);
  // Threads for solve() (parallel_for.hpp): the same z for every count.
  void set_threads(int threads) {
    threads_ = threads;
    multigrid_.set_threads(threads);
  }

 private:
  GridMultigrid multigrid_;
  std::vector<Block> reaction_, inverse_;
  std::vector<double> work_;
  int threads_ = 1;
};

}  // namespace daekit_problems
