// The 2D Brusselator with diffusion on an N x N periodic grid (the sparse benchmark
// of SciMLBenchmarks and DifferentialEquations.jl's documentation):
//   u' = 1 + u^2 v - 4.4 u + alpha Lap(u) + f(x, y, t),   v' = 3.4 u - u^2 v + alpha Lap(v)
// on [0, 1]^2 (grid spacing 1/(N-1), periodic), with the source f = 5 in the disc of
// radius 0.1 around (0.3, 0.6) from t = 1.1 on; t in [0, 11.5]. 2 N^2 unknowns
// interleaved (u, v) per grid point; the analytic Jacobian is given in its sparsity
// pattern (and densely, for small N). With per_cell=true the constant 1 of u' at each grid
// point is a real parameter a<i>_<j> (nominal 1: the same equations), N^2 parameters for
// adjoint gradients; df/dp is then e_(u_ij) for a<i>_<j>, given in its pattern.
// For Krylov solvers it gives J v exactly and a preconditioner for I - gamma J: the
// diffusion solved by multigrid V-cycles (problems/common/grid_multigrid.hpp), then the reaction's
// 2 x 2 block at each point exactly (an operator splitting: P = (I - gamma D)(I - gamma R));
// with matrix_free=true it declares no Jacobian at all (no pattern: memory ~ n).
// Over MPI ranks (mpirun -n R daekit run --solver petsc) each rank owns whole grid lines
// and reads the neighbouring line on either side, across the periodic edge too.
#include <algorithm>
#include <array>
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/parallel_for.hpp"
#include "../common/reaction_diffusion_preconditioner.hpp"

namespace {

constexpr double source_on = 1.1;

class Brusselator2D : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"N", "32", "grid points per direction (3 .. 1024); 2 N^2 unknowns"},
            {"alpha", "10", "diffusion coefficient"},
            {"per_cell", "false", "the constant 1 of u' at each grid point a real parameter a<i>_<j> (N^2 of them)"},
            {"matrix_free", "false", "declare no Jacobian (no pattern): for Krylov solvers, which use J v and the "
                                     "problem's preconditioner"},
            {"mg_cycles", "1", "multigrid V-cycles per application of the preconditioner (1 .. 20)"},
            {"threads", "1", "threads for f, J v and the preconditioner (1 .. 64; OpenMP, where the plugin was "
                             "built with it): the same results for every count"}};
  }

  explicit Brusselator2D(const daekit::Params& params)
      : N_(static_cast<int>(params.integer("N"))), alpha_(params.real("alpha")) {
    if (N_ < 3 || N_ > 1024) throw std::invalid_argument("brusselator: N must lie in 3 .. 1024");
    if (!(alpha_ >= 0.0)) throw std::invalid_argument("brusselator: alpha must be >= 0");
    mg_cycles_ = static_cast<int>(params.integer("mg_cycles"));
    if (mg_cycles_ < 1 || mg_cycles_ > 20) throw std::invalid_argument("brusselator: mg_cycles must lie in 1 .. 20");
    threads_ = static_cast<int>(params.integer("threads"));
    if (threads_ < 1 || threads_ > 64) throw std::invalid_argument("brusselator: threads must lie in 1 .. 64");
    const bool matrix_free = params.flag("matrix_free");
    dx_ = 1.0 / (N_ - 1);
    diffusion_ = alpha_ / (dx_ * dx_);
    auto& in = info_;
    in.name = "brusselator";
    in.title = "2D Brusselator, N=" + params.text("N") + " periodic grid (sparse stiff ODE)";
    in.n = 2 * static_cast<std::size_t>(N_) * N_;
    in.tend = 11.5;
    in.analytic_jacobian = N_ <= 64 && !matrix_free;  // dense Jacobian only where it is affordable
    in.tstops = {source_on};
    if (params.flag("per_cell")) declare_cell_parameters();
    if (const daekit::Params::Ranks ranks = params.ranks(); ranks.size > 1) {
      distribute(ranks);
      return;  // each rank describes its own lines (local rows): no names, no global pattern
    }
    // u<i>_<j>, v<i>_<j> for grid point (i, j), 1-based (packed by the SDK: 2 10^6 strings
    // of their own were 5 doubles per unknown).
    in.component_name = [N = static_cast<std::size_t>(N_)](std::size_t c) {
      const std::size_t k = c / 2;
      std::string name = daekit::numbered(c % 2 == 0 ? "u" : "v", k % N + 1);
      name += '_';
      name += std::to_string(k / N + 1);
      return name;
    };
    if (matrix_free) return;
    // Column 2l (u_l) reaches rows u_l, v_l and the u rows of l's neighbours;
    // column 2l+1 (v_l) rows u_l, v_l and the neighbours' v rows.
    in.jac_col_ptr.push_back(0);
    for (int col = 0; col < static_cast<int>(in.n); ++col) {
      const int l = col / 2, species = col % 2;
      std::vector<int> rows = {2 * l, 2 * l + 1};
      for (int nb : neighbours(l)) rows.push_back(2 * nb + species);
      std::sort(rows.begin(), rows.end());
      in.jac_row_idx.insert(in.jac_row_idx.end(), rows.begin(), rows.end());
      in.jac_col_ptr.push_back(static_cast<int>(in.jac_row_idx.size()));
    }
  }

  // Over MPI ranks: each owns whole grid lines j0 .. j1 - 1 and reads the line below and
  // the line above, across the periodic edge where the block touches it. A local vector is
  // the owned points' (u, v), then the ghost lines' in ascending order.
  void distribute(const daekit::Params::Ranks& ranks) {
    const auto [first_line, lines] = daekit::owned_share(static_cast<std::size_t>(N_), ranks, "brusselator", "grid lines");
    j0_ = static_cast<int>(first_line);
    j1_ = j0_ + static_cast<int>(lines);
    for (int j : {(j0_ + N_ - 1) % N_, j1_ % N_})
      if ((j < j0_ || j >= j1_) && std::find(ghost_lines_.begin(), ghost_lines_.end(), j) == ghost_lines_.end())
        ghost_lines_.push_back(j);
    std::sort(ghost_lines_.begin(), ghost_lines_.end());
    auto& d = info_.distribution;
    info_.distributed = true;
    d.local_rows = true;
    d.n_local = 2 * lines * static_cast<std::size_t>(N_);
    d.first_row = 2 * first_line * static_cast<std::size_t>(N_);
    for (int j : ghost_lines_)
      for (int r = 2 * N_ * j; r < 2 * N_ * (j + 1); ++r) d.ghost_rows.push_back(r);
    // df/dy's owned rows: the point's own (u, v), and the same species at the 4 neighbours.
    d.jac_row_ptr.push_back(0);
    for (int k = j0_ * N_; k < j1_ * N_; ++k)
      for (int species = 0; species < 2; ++species) {
        std::vector<std::pair<int, int>> row{{2 * local_point(k), species * 2}, {2 * local_point(k) + 1, species * 2 + 1}};
        for (int nb : neighbours(k)) row.emplace_back(2 * local_point(nb) + species, diffusion_entry);
        std::sort(row.begin(), row.end());
        for (const auto& [column, kind] : row) {
          d.jac_col_idx.push_back(column);
          local_kind_.push_back(static_cast<std::uint8_t>(kind));
        }
        d.jac_row_ptr.push_back(static_cast<std::int32_t>(d.jac_col_idx.size()));
      }
  }

  // Where grid point k's (u, v) pair sits in a local vector, counted in points.
  int local_point(int k) const {
    const int j = k / N_, i = k % N_;
    if (j >= j0_ && j < j1_) return k - j0_ * N_;
    const int owned = N_ * (j1_ - j0_);
    return owned + N_ * static_cast<int>(std::find(ghost_lines_.begin(), ghost_lines_.end(), j) - ghost_lines_.begin()) + i;
  }

  daekit::Eval rhs_local(double t, daekit::ConstVector y, daekit::Vector f) override {
    for (int k = j0_ * N_; k < j1_ * N_; ++k) {
      const int at = 2 * local_point(k);
      const double u = y[at], v = y[at + 1];
      double lap_u = -4.0 * u, lap_v = -4.0 * v;
      for (int nb : neighbours(k)) lap_u += y[2 * local_point(nb)], lap_v += y[2 * local_point(nb) + 1];
      f[at] = (per_cell_ ? p(k) : 1.0) + u * u * v - 4.4 * u + diffusion_ * lap_u + source(k, t);
      f[at + 1] = 3.4 * u - u * u * v + diffusion_ * lap_v;
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_local(double, daekit::ConstVector y, daekit::Vector values) override {
    Eigen::Index e = 0;
    for (int k = j0_ * N_; k < j1_ * N_; ++k) {
      const int at = 2 * local_point(k);
      const double u = y[at], v = y[at + 1];
      // d(f_u, f_v)/d(u, v) at the point, the diffusion's -4 on the diagonal, row-major
      const double block[4] = {2.0 * u * v - 4.4 - 4.0 * diffusion_, u * u, 3.4 - 2.0 * u * v, -u * u - 4.0 * diffusion_};
      for (int entry = 0; entry < 12; ++entry, ++e) {  // two rows of six
        const std::uint8_t kind = local_kind_[static_cast<std::size_t>(e)];
        values[e] = kind == diffusion_entry ? diffusion_ : block[kind];
      }
    }
    return daekit::Eval::ok;
  }

  // The whole grid's, or over MPI ranks the owned lines' (local rows).
  void initial_values(daekit::Vector y, daekit::Vector) override {
    const int first = info_.distributed ? j0_ * N_ : 0, end = info_.distributed ? j1_ * N_ : N_ * N_;
    for (int k = first; k < end; ++k) {
      const double x = (k % N_) * dx_, yy = (k / N_) * dx_;
      y[2 * (k - first)] = 22.0 * std::pow(yy * (1.0 - yy), 1.5);
      y[2 * (k - first) + 1] = 27.0 * std::pow(x * (1.0 - x), 1.5);
    }
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    DAEKIT_PROBLEMS_PARALLEL_FOR(threads_)
    for (int k = 0; k < N_ * N_; ++k) {
      const double u = y[2 * k], v = y[2 * k + 1];
      double lap_u = -4.0 * u, lap_v = -4.0 * v;
      for (int nb : neighbours(k)) lap_u += y[2 * nb], lap_v += y[2 * nb + 1];
      f[2 * k] = (per_cell_ ? p(k) : 1.0) + u * u * v - 4.4 * u + diffusion_ * lap_u + source(k, t);
      f[2 * k + 1] = 3.4 * u - u * u * v + diffusion_ * lap_v;
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    for (int k = 0; k < N_ * N_; ++k) {
      for (int species = 0; species < 2; ++species) {
        j(2 * k + species, 2 * k) = local(y, 2 * k + species, 2 * k);
        j(2 * k + species, 2 * k + 1) = local(y, 2 * k + species, 2 * k + 1);
        for (int nb : neighbours(k)) j(2 * k + species, 2 * nb + species) += diffusion_;
      }
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_sparse(double, daekit::ConstVector y, daekit::Vector values) override {
    for (int col = 0; col < static_cast<int>(info_.n); ++col)
      for (int p = info_.jac_col_ptr[col]; p < info_.jac_col_ptr[col + 1]; ++p) {
        const int row = info_.jac_row_idx[p];
        values[p] = row / 2 == col / 2 ? local(y, row, col) : diffusion_;
      }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_vector(double, daekit::ConstVector y, daekit::ConstVector w, daekit::Vector jw) override {
    DAEKIT_PROBLEMS_PARALLEL_FOR(threads_)
    for (int k = 0; k < N_ * N_; ++k) {
      double lap_u = -4.0 * w[2 * k], lap_v = -4.0 * w[2 * k + 1];
      for (int nb : neighbours(k)) lap_u += w[2 * nb], lap_v += w[2 * nb + 1];
      const Block r = reaction(y, k);
      jw[2 * k] = r[0] * w[2 * k] + r[1] * w[2 * k + 1] + diffusion_ * lap_u;
      jw[2 * k + 1] = r[2] * w[2 * k] + r[3] * w[2 * k + 1] + diffusion_ * lap_v;
    }
    return daekit::Eval::ok;
  }

  // The reaction blocks at y (re-evaluated when asked, else kept) and the multigrid's shift
  // gamma * alpha / dx^2 (problems/common/reaction_diffusion_preconditioner.hpp).
  daekit::Eval preconditioner_setup(double, daekit::ConstVector y, double gamma, bool& jacobian_current) override {
    const auto cells = static_cast<std::size_t>(N_) * N_;
    if (!preconditioner_) {
      preconditioner_ = std::make_unique<daekit_problems::ReactionDiffusionPreconditioner>(
          N_, 2, daekit_problems::GridMultigrid::Boundary::periodic, cells);
      preconditioner_->set_threads(threads_);
      jacobian_current = true;
    }
    if (jacobian_current) {
      auto& blocks = preconditioner_->reaction_blocks();
      DAEKIT_PROBLEMS_PARALLEL_FOR(threads_)
      for (int k = 0; k < N_ * N_; ++k) blocks[static_cast<std::size_t>(k)] = reaction(y, k);
    }
    return preconditioner_->prepare(gamma, diffusion_) ? daekit::Eval::ok : daekit::Eval::recoverable;
  }

  daekit::Eval preconditioner_solve(double, daekit::ConstVector, daekit::ConstVector r, daekit::Vector z, double,
                                    double) override {
    preconditioner_->solve(r.data(), z.data(), mg_cycles_);
    return daekit::Eval::ok;
  }

  // d f / d a_k = e_(u_k): one value 1 per column of the pattern.
  daekit::Eval dfdp_sparse(double, daekit::ConstVector, daekit::Vector values) override {
    for (int k = 0; k < N_ * N_; ++k) values[k] = 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval dfdp(double, daekit::ConstVector, daekit::MatrixView d) override {
    for (int k = 0; k < N_ * N_; ++k) d(2 * k, k) = 1.0;
    return daekit::Eval::ok;
  }

 private:
  void declare_cell_parameters() {
    per_cell_ = true;
    auto& in = info_;
    in.dfdp_col_ptr.push_back(0);
    for (int k = 0; k < N_ * N_; ++k) {
      std::string name = daekit::numbered("a", static_cast<std::size_t>(k % N_ + 1));
      name += '_';
      name += std::to_string(k / N_ + 1);
      in.parameters.push_back({std::move(name), 1.0, 1.0});
      in.dfdp_row_idx.push_back(2 * k);
      in.dfdp_col_ptr.push_back(k + 1);
    }
  }

  // The four periodic neighbours of grid point k = i + N j.
  std::array<int, 4> neighbours(int k) const {
    const int i = k % N_, j = k / N_;
    const int left = (i + N_ - 1) % N_, right = (i + 1) % N_, down = (j + N_ - 1) % N_, up = (j + 1) % N_;
    return {left + N_ * j, right + N_ * j, i + N_ * down, i + N_ * up};
  }

  // The reaction's Jacobian at grid point k, row-major: d(f_u, f_v)/d(u, v) without diffusion.
  using Block = daekit_problems::ReactionDiffusionPreconditioner::Block;
  Block reaction(daekit::ConstVector y, int k) const {
    const double u = y[2 * k], v = y[2 * k + 1];
    return {2.0 * u * v - 4.4, u * u, 3.4 - 2.0 * u * v, -u * u};
  }

  // d f_row / d y_col for row and col at the same grid point.
  double local(daekit::ConstVector y, int row, int col) const {
    const int k = row / 2;
    const double u = y[2 * k], v = y[2 * k + 1];
    if (row % 2 == 0) return col % 2 == 0 ? 2.0 * u * v - 4.4 - 4.0 * diffusion_ : u * u;
    return col % 2 == 0 ? 3.4 - 2.0 * u * v : -u * u - 4.0 * diffusion_;
  }

  double source(int k, double t) const {
    if (t < source_on) return 0.0;
    const double x = (k % N_) * dx_, yy = (k / N_) * dx_;
    return (x - 0.3) * (x - 0.3) + (yy - 0.6) * (yy - 0.6) <= 0.01 ? 5.0 : 0.0;
  }

  int N_;
  double alpha_, dx_ = 0.0, diffusion_ = 0.0;
  // Over MPI ranks: the owned grid lines, the ghost lines (ascending), and what each entry
  // of the local Jacobian's pattern is: the point's 2 x 2 block (0 .. 3, row-major) or a
  // neighbour's diffusion.
  static constexpr int diffusion_entry = 4;
  int j0_ = 0, j1_ = 0;
  std::vector<int> ghost_lines_;
  std::vector<std::uint8_t> local_kind_;
  bool per_cell_ = false;
  int mg_cycles_ = 1;
  int threads_ = 1;
  // The preconditioner's data, made at its first setup.
  std::unique_ptr<daekit_problems::ReactionDiffusionPreconditioner> preconditioner_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Brusselator2D, brusselator, "0.1.0",
                      "2D Brusselator reaction-diffusion on an NxN periodic grid: sparse stiff ODE, n=2N^2")
