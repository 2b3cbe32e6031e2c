// A nonlinear reaction-diffusion system on the unit cube, two species on an N x N x N grid
// of interior points (spacing h = 1/(N+1), zero Dirichlet values outside):
//   u' = D L_h u - k u v + s_u(t),   v' = D L_h v + k u v + s_v(t),
// L_h the 7-point Laplacian. The sources are manufactured so that the semi-discrete system
// has the exact solution u = exp(-t) phi, v = exp(-2 t) phi, phi_ijl = sin(pi x_i)
// sin(pi y_j) sin(pi z_l), an eigenvector of L_h with eigenvalue -mu, mu = (12 / h^2)
// sin^2(pi h / 2): the reference at any time, with no discretisation error to argue about.
// Stiff through the diffusion (its eigenvalues reach -12 D / h^2) and nonlinear through
// the reaction (Newton's iteration has work to do). In 3D a direct LU's fill grows like
// n^(4/3) (nested dissection), faster than n log n: the problem the Krylov path is for.
//
// For Krylov solvers: exact J v, and a preconditioner P = (I - gamma D L_h)(I - gamma R),
// the diffusion by multigrid V-cycles on the grid (problems/common/grid_multigrid.hpp),
// the reaction's 2 x 2 block at each point exactly. Over MPI ranks (mpirun -n R daekit run
// --solver petsc) each rank owns whole planes and reads the plane on either side.
#include <algorithm>
#include <array>
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/reaction_diffusion_preconditioner.hpp"

namespace {

using Block = daekit_problems::ReactionDiffusionPreconditioner::Block;

class Reaction3D : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"N", "8", "interior grid points per direction (2 .. 256); 2 N^3 unknowns"},
            {"D", "1", "diffusion coefficient (> 0)"},
            {"k", "10", "reaction rate (>= 0)"},
            {"tend", "0.5", "end of the span"},
            {"matrix_free", "false", "declare no Jacobian (no pattern): for Krylov solvers, which use J v and the "
                                     "problem's preconditioner"},
            {"mg_cycles", "1", "multigrid V-cycles per application of the preconditioner (1 .. 20)"}};
  }

  explicit Reaction3D(const daekit::Params& params)
      : N_(static_cast<int>(params.integer("N"))), D_(params.real("D")), k_(params.real("k")),
        mg_cycles_(static_cast<int>(params.integer("mg_cycles"))) {
    if (N_ < 2 || N_ > 256) throw std::invalid_argument("reaction3d: N must lie in 2 .. 256");
    if (!(D_ > 0.0) || !std::isfinite(D_)) throw std::invalid_argument("reaction3d: D must be positive");
    if (!(k_ >= 0.0) || !std::isfinite(k_)) throw std::invalid_argument("reaction3d: k must be >= 0");
    if (mg_cycles_ < 1 || mg_cycles_ > 20) throw std::invalid_argument("reaction3d: mg_cycles must lie in 1 .. 20");
    const double tend = params.real("tend");
    if (!(tend > 0.0) || !std::isfinite(tend)) throw std::invalid_argument("reaction3d: tend must be positive");
    h_ = 1.0 / (N_ + 1);
    const double s = std::sin(std::numbers::pi * h_ / 2.0);
    mu_ = 12.0 / (h_ * h_) * s * s;
    diffusion_ = D_ / (h_ * h_);
    points_ = static_cast<std::size_t>(N_) * N_ * N_;
    auto& in = info_;
    in.name = "reaction3d";
    in.title = "reaction-diffusion u, v on the unit cube, N=" + params.text("N") +
               " (7-point stencil, manufactured exact solution)";
    in.n = 2 * points_;
    in.tend = tend;
    l1_ = N_;  // the planes phi_ and the per-row data describe: all, or over MPI ranks the owned ones
    if (const daekit::Params::Ranks ranks = params.ranks(); ranks.size > 1) distribute(ranks);
    else if (!params.flag("matrix_free")) declare_pattern();  // over ranks the local pattern serves
    const std::size_t plane = static_cast<std::size_t>(N_) * N_;
    phi_.resize(plane * static_cast<std::size_t>(l1_ - l0_));
    for (int l = l0_; l < l1_; ++l)
      for (int j = 0; j < N_; ++j)
        for (int i = 0; i < N_; ++i)
          phi(point(i, j, l)) = std::sin(std::numbers::pi * (i + 1) * h_) * std::sin(std::numbers::pi * (j + 1) * h_) *
                                std::sin(std::numbers::pi * (l + 1) * h_);
    in.reference.resize(2 * phi_.size());
    exact(tend, in.reference.data());
    in.reference_t = tend;
    in.reference_source = "manufactured solution of the semi-discrete system: u = exp(-t) phi, v = exp(-2t) phi";
    in.reference_at_any_time = true;
  }

  // Over MPI ranks: each owns whole planes l0 .. l1 - 1 of the grid and reads the plane
  // below and the plane above its block, its ghosts. A local vector is the owned points'
  // (u, v), then the plane below (if any), then the plane above (if any).
  void distribute(const daekit::Params::Ranks& ranks) {
    const auto [first_plane, planes] = daekit::owned_share(static_cast<std::size_t>(N_), ranks, "reaction3d", "planes");
    l0_ = static_cast<int>(first_plane);
    l1_ = l0_ + static_cast<int>(planes);
    const std::size_t plane = static_cast<std::size_t>(N_) * N_;
    auto& d = info_.distribution;
    info_.distributed = true;
    d.local_rows = true;  // y0, the reference and phi_ on the owned planes alone
    d.n_local = 2 * planes * plane;
    d.first_row = 2 * first_plane * plane;
    for (int l : {l0_ - 1, l1_}) {
      if (l < 0 || l >= N_) continue;
      for (std::size_t r = 2 * plane * static_cast<std::size_t>(l); r < 2 * plane * static_cast<std::size_t>(l + 1); ++r)
        d.ghost_rows.push_back(static_cast<std::int64_t>(r));
    }
    // df/dy's owned rows: the point's own (u, v), the same species at its neighbours.
    d.jac_row_ptr.push_back(0);
    for (int l = l0_; l < l1_; ++l)
      for (int j = 0; j < N_; ++j)
        for (int i = 0; i < N_; ++i)
          for (int species = 0; species < 2; ++species) {
            const int at = 2 * local_point(i, j, l);
            std::vector<std::pair<int, int>> row{{at, 2 * species}, {at + 1, 2 * species + 1}};
            for_each_neighbour(i, j, l, [&](int a, int b, int c) { row.emplace_back(2 * local_point(a, b, c) + species, diffusion_entry); });
            std::sort(row.begin(), row.end());
            for (const auto& [column, kind] : row) {
              d.jac_col_idx.push_back(column);
              local_kind_.push_back(static_cast<std::uint8_t>(kind));
            }
            d.jac_row_ptr.push_back(static_cast<std::int32_t>(d.jac_col_idx.size()));
          }
  }

  daekit::Eval rhs_local(double t, daekit::ConstVector y, daekit::Vector f) override {
    const double eu = std::exp(-t), ev = std::exp(-2.0 * t), euv = std::exp(-3.0 * t);
    for (int l = l0_; l < l1_; ++l)
      for (int j = 0; j < N_; ++j)
        for (int i = 0; i < N_; ++i) {
          const int at = 2 * local_point(i, j, l);
          const double u = y[at], v = y[at + 1], ph = phi(point(i, j, l));
          double lap_u = -6.0 * u, lap_v = -6.0 * v;
          for_each_neighbour(i, j, l, [&](int a, int b, int c) {
            const int nb = 2 * local_point(a, b, c);
            lap_u += y[nb], lap_v += y[nb + 1];
          });
          const double reaction = k_ * u * v, reaction_exact = k_ * euv * ph * ph;
          f[at] = diffusion_ * lap_u - reaction + (D_ * mu_ - 1.0) * eu * ph + reaction_exact;
          f[at + 1] = diffusion_ * lap_v + reaction + (D_ * mu_ - 2.0) * ev * ph - reaction_exact;
        }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_local(double, daekit::ConstVector y, daekit::Vector values) override {
    const auto& ptr = info_.distribution.jac_row_ptr;
    for (Eigen::Index row = 0; row + 1 < static_cast<Eigen::Index>(ptr.size()); ++row) {
      const Eigen::Index at = 2 * (row / 2);  // the point's u in the local vector: rows are local too
      const double u = y[at], v = y[at + 1];
      // d(f_u, f_v)/d(u, v) at the point with the Laplacian's -6 on the diagonal, row-major
      const double block[4] = {-k_ * v - 6.0 * diffusion_, -k_ * u, k_ * v, k_ * u - 6.0 * diffusion_};
      for (auto e = ptr[static_cast<std::size_t>(row)]; e < ptr[static_cast<std::size_t>(row) + 1]; ++e) {
        const std::uint8_t kind = local_kind_[static_cast<std::size_t>(e)];
        values[e] = kind == diffusion_entry ? diffusion_ : block[kind];
      }
    }
    return daekit::Eval::ok;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { exact(0.0, y.data()); }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    exact(t, y.data());
    return daekit::Eval::ok;
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    const double eu = std::exp(-t), ev = std::exp(-2.0 * t), euv = std::exp(-3.0 * t);
    for_each_point([&](int i, int j, int l, std::size_t p) {
      const double u = y[2 * p], v = y[2 * p + 1], ph = phi(p);
      const double reaction = k_ * u * v, reaction_exact = k_ * euv * ph * ph;
      f[2 * p] = diffusion_ * laplacian(y, i, j, l, 0) - reaction + (D_ * mu_ - 1.0) * eu * ph + reaction_exact;
      f[2 * p + 1] = diffusion_ * laplacian(y, i, j, l, 1) + reaction + (D_ * mu_ - 2.0) * ev * ph - reaction_exact;
    });
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_vector(double, daekit::ConstVector y, daekit::ConstVector w, daekit::Vector jw) override {
    for_each_point([&](int i, int j, int l, std::size_t p) {
      const Block r = reaction(y, p);
      jw[2 * p] = diffusion_ * laplacian(w, i, j, l, 0) + r[0] * w[2 * p] + r[1] * w[2 * p + 1];
      jw[2 * p + 1] = diffusion_ * laplacian(w, i, j, l, 1) + r[2] * w[2 * p] + r[3] * w[2 * p + 1];
    });
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_sparse(double, daekit::ConstVector y, daekit::Vector values) override {
    const auto n = static_cast<int>(info_.n);
    for (int col = 0; col < n; ++col) {
      const std::size_t p = static_cast<std::size_t>(col / 2);
      const int species = col % 2;
      const Block r = reaction(y, p);
      for (int e = info_.jac_col_ptr[col]; e < info_.jac_col_ptr[col + 1]; ++e) {
        const int row = info_.jac_row_idx[e];
        if (row / 2 != col / 2) values[e] = diffusion_;  // a neighbour, same species
        else values[e] = r[static_cast<std::size_t>(2 * (row % 2) + species)] - (row == col ? 6.0 * diffusion_ : 0.0);
      }
    }
    return daekit::Eval::ok;
  }

  // The reaction blocks at y (re-evaluated when asked, else kept) and the multigrid's
  // shift gamma D / h^2 (problems/common/reaction_diffusion_preconditioner.hpp).
  daekit::Eval preconditioner_setup(double, daekit::ConstVector y, double gamma, bool& jacobian_current) override {
    if (!preconditioner_) {
      preconditioner_ = std::make_unique<daekit_problems::ReactionDiffusionPreconditioner>(
          N_, 3, daekit_problems::GridMultigrid::Boundary::dirichlet, points_);
      jacobian_current = true;
    }
    if (jacobian_current)
      for (std::size_t p = 0; p < points_; ++p) preconditioner_->reaction_blocks()[p] = reaction(y, p);
    return preconditioner_->prepare(gamma, diffusion_) ? daekit::Eval::ok : daekit::Eval::recoverable;
  }

  daekit::Eval preconditioner_solve(double, daekit::ConstVector, daekit::ConstVector r, daekit::Vector z, double,
                                    double) override {
    preconditioner_->solve(r.data(), z.data(), mg_cycles_);
    return daekit::Eval::ok;
  }

 private:
  // Where point (i, j, l) of the owned planes or their ghost planes sits in a local vector,
  // counted in points.
  int local_point(int i, int j, int l) const {
    const int in_plane = i + N_ * j, plane = N_ * N_;
    if (l >= l0_ && l < l1_) return in_plane + plane * (l - l0_);
    const int owned = plane * (l1_ - l0_);
    return owned + (l == l0_ - 1 || l0_ == 0 ? 0 : plane) + in_plane;
  }
  // visit(a, b, c) for each grid neighbour of (i, j, l) (the zero Dirichlet values outside are none).
  template <class Visit>
  void for_each_neighbour(int i, int j, int l, Visit visit) const {
    if (i > 0) visit(i - 1, j, l);
    if (i < N_ - 1) visit(i + 1, j, l);
    if (j > 0) visit(i, j - 1, l);
    if (j < N_ - 1) visit(i, j + 1, l);
    if (l > 0) visit(i, j, l - 1);
    if (l < N_ - 1) visit(i, j, l + 1);
  }
  std::size_t point(int i, int j, int l) const {
    return static_cast<std::size_t>(i) + static_cast<std::size_t>(N_) * (static_cast<std::size_t>(j) + static_cast<std::size_t>(N_) * l);
  }
  template <class Visit>
  void for_each_point(Visit visit) const {
    for (int l = 0; l < N_; ++l)
      for (int j = 0; j < N_; ++j)
        for (int i = 0; i < N_; ++i) visit(i, j, l, point(i, j, l));
  }
  // The 7-point Laplacian (without 1/h^2) of species s at (i, j, l), zero outside the grid.
  double laplacian(daekit::ConstVector y, int i, int j, int l, int s) const {
    const std::size_t p = point(i, j, l);
    double sum = -6.0 * y[2 * p + s];
    if (i > 0) sum += y[2 * (p - 1) + s];
    if (i < N_ - 1) sum += y[2 * (p + 1) + s];
    const std::size_t row = static_cast<std::size_t>(N_), plane = row * row;
    if (j > 0) sum += y[2 * (p - row) + s];
    if (j < N_ - 1) sum += y[2 * (p + row) + s];
    if (l > 0) sum += y[2 * (p - plane) + s];
    if (l < N_ - 1) sum += y[2 * (p + plane) + s];
    return sum;
  }
  // d(reaction)/d(u, v) at point p: rows u', v'; columns u, v.
  Block reaction(daekit::ConstVector y, std::size_t p) const {
    const double u = y[2 * p], v = y[2 * p + 1];
    return {-k_ * v, -k_ * u, k_ * v, k_ * u};
  }
  // phi at grid point p of the planes l0_ .. l1_ - 1 that phi_ holds.
  double& phi(std::size_t p) { return phi_[p - static_cast<std::size_t>(l0_) * N_ * N_]; }
  double phi(std::size_t p) const { return phi_[p - static_cast<std::size_t>(l0_) * N_ * N_]; }
  // The exact solution at t on the planes phi_ holds (the per-row data's).
  void exact(double t, double* y) const {
    const double eu = std::exp(-t), ev = std::exp(-2.0 * t);
    for (std::size_t p = 0; p < phi_.size(); ++p) {
      y[2 * p] = eu * phi_[p];
      y[2 * p + 1] = ev * phi_[p];
    }
  }
  // Column c (point p, species s) reaches row c, the other species' row at p, and the
  // same species' rows at p's neighbours; sorted, as CSC asks.
  void declare_pattern() {
    auto& in = info_;
    in.jac_col_ptr.reserve(info_.n + 1);
    in.jac_row_idx.reserve(8 * info_.n);
    in.jac_col_ptr.push_back(0);
    const long row = N_, plane = static_cast<long>(N_) * N_;
    for_each_point([&](int i, int j, int l, std::size_t p) {
      for (int s = 0; s < 2; ++s) {
        std::vector<long> rows;
        const long q = static_cast<long>(p);
        if (l > 0) rows.push_back(2 * (q - plane) + s);
        if (j > 0) rows.push_back(2 * (q - row) + s);
        if (i > 0) rows.push_back(2 * (q - 1) + s);
        rows.push_back(2 * q);
        rows.push_back(2 * q + 1);
        if (i < N_ - 1) rows.push_back(2 * (q + 1) + s);
        if (j < N_ - 1) rows.push_back(2 * (q + row) + s);
        if (l < N_ - 1) rows.push_back(2 * (q + plane) + s);
        for (long r : rows) in.jac_row_idx.push_back(static_cast<int>(r));
        in.jac_col_ptr.push_back(static_cast<int>(in.jac_row_idx.size()));
      }
    });
  }

  int N_;
  double D_, k_;
  int mg_cycles_;
  double h_ = 0.0, mu_ = 0.0, diffusion_ = 0.0;
  std::size_t points_ = 0;
  std::vector<double> phi_;
  std::unique_ptr<daekit_problems::ReactionDiffusionPreconditioner> preconditioner_;
  // Over MPI ranks: the owned planes, and what each entry of the local Jacobian's pattern
  // is: the point's 2 x 2 block (0 .. 3, row-major) or a neighbour's diffusion.
  static constexpr int diffusion_entry = 4;
  int l0_ = 0, l1_ = 0;
  std::vector<std::uint8_t> local_kind_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Reaction3D, reaction3d, "0.1.0",
                      "Nonlinear reaction-diffusion on the unit cube (N^3 grid, 2 species): manufactured exact solution")
