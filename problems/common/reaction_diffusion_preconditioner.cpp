#include "reaction_diffusion_preconditioner.hpp"

#include "parallel_for.hpp"

namespace daekit_problems {

ReactionDiffusionPreconditioner::ReactionDiffusionPreconditioner(int n_side, int dimensions,
                                                                 GridMultigrid::Boundary boundary, std::size_t points)
    : multigrid_(n_side, dimensions, 2, boundary), reaction_(points), inverse_(points), work_(2 * points) {}

bool ReactionDiffusionPreconditioner::prepare(double gamma, double diffusion) {
  for (std::size_t p = 0; p < reaction_.size(); ++p) {
    const Block& r = reaction_[p];
    const double a = 1.0 - gamma * r[0], b = -gamma * r[1], c = -gamma * r[2], d = 1.0 - gamma * r[3];
    const double det = a * d - b * c;
    if (det == 0.0) return false;
    inverse_[p] = {d / det, -b / det, -c / det, a / det};
  }
  multigrid_.set_shift(gamma * diffusion);
  return true;
}

void ReactionDiffusionPreconditioner::solve(const double* r, double* z, int cycles) {
  multigrid_.solve(r, work_.data(), cycles);
  const auto points = static_cast<std::ptrdiff_t>(inverse_.size());
  DAEKIT_PROBLEMS_PARALLEL_FOR(threads_)
  for (std::ptrdiff_t p = 0; p < points; ++p) {
    const Block& m = inverse_[static_cast<std::size_t>(p)];
    const double u = work_[2 * p], v = work_[2 * p + 1];
    z[2 * p] = m[0] * u + m[1] * v;
    z[2 * p + 1] = m[2] * u + m[3] * v;
  }
}

}  // namespace daekit_problems
