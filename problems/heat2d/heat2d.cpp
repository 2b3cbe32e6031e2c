// The heat equation u_t = u_xx + u_yy on the unit square by the method of lines: the
// 5-point stencil on an (N+2) x (N+2) grid (spacing h = 1/(N+1)) whose boundary values
// are algebraic components, 0 = u on the boundary. An index-1 DAE with a singular
// diagonal mass matrix and a sparse Jacobian, linear with constant coefficients.
//
// From u(0) = sin(pi x) sin(pi y) the semi-discrete system's exact solution is
//   u_ij(t) = exp(-2 mu t) sin(pi x_i) sin(pi y_j),   mu = (4 / h^2) sin^2(pi h / 2),
// since sin(pi x_i) is an eigenvector of the discrete second difference with
// eigenvalue -mu: the reference at any tend, with no discretisation error to argue about.
//
// Over MPI ranks (mpirun -n R daekit run --solver petsc) each rank owns whole grid lines
// and reads the line on either side: the 5-point stencil's ghosts.
//
// For Krylov solvers: J v (f is linear: f(v)), and a preconditioner for M - gamma J. Its
// boundary rows are gamma u = r, solved exactly first; their values then move to the
// interior rows' right-hand side, which leaves (I - gamma L_h) on the interior grid with
// zero Dirichlet values: multigrid V-cycles (problems/common/grid_multigrid.hpp).
#include <algorithm>
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/grid_multigrid.hpp"

namespace {

class Heat2D : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"N", "10", "interior grid points per direction (2 .. 4000); (N+2)^2 unknowns"},
            {"tend", "0.1", "end of the span"},
            {"matrix_free", "false", "declare no Jacobian (no pattern): for Krylov solvers, which use J v and the "
                                     "problem's preconditioner"},
            {"mg_cycles", "1", "multigrid V-cycles per application of the preconditioner (1 .. 20)"},
            {"local_rows", "true", "over MPI ranks, each rank describes its own grid lines alone (no rank holds "
                                   "O(n)); false: every rank the whole grid's data, as before ABI 1.3 part G"}};
  }

  explicit Heat2D(const daekit::Params& params)
      : N_(static_cast<int>(params.integer("N"))), mg_cycles_(static_cast<int>(params.integer("mg_cycles"))) {
    if (N_ < 2 || N_ > 4000) throw std::invalid_argument("heat2d: N must lie in 2 .. 4000");
    if (mg_cycles_ < 1 || mg_cycles_ > 20) throw std::invalid_argument("heat2d: mg_cycles must lie in 1 .. 20");
    const bool matrix_free = params.flag("matrix_free");
    const double tend = params.real("tend");
    if (!(tend > 0.0) || !std::isfinite(tend)) throw std::invalid_argument("heat2d: tend must be positive");
    side_ = N_ + 2;
    h_ = 1.0 / (N_ + 1);
    const double s = std::sin(std::numbers::pi * h_ / 2.0);
    mu_ = 4.0 / (h_ * h_) * s * s;
    auto& in = info_;
    in.name = "heat2d";
    in.title = "heat equation on the unit square, N=" + params.text("N") +
               " (method of lines, boundary values algebraic: index-1 DAE)";
    in.n = static_cast<std::size_t>(side_) * side_;
    in.tend = tend;
    in.mass = daekit::MassKind::constant;
    in.autonomous = true;
    in.consistent_y0 = true;
    in.analytic_jacobian = in.n <= 2500 && !matrix_free;  // the dense form only where it is affordable
    if (const daekit::Params::Ranks ranks = params.ranks(); ranks.size > 1) distribute(ranks, params.flag("local_rows"));
    for (int j = first_line(); j < end_line(); ++j)
      for (int i = 0; i < side_; ++i) in.differential.push_back(interior(i, j) ? 1 : 0);
    if (!info_.distribution.local_rows) {
      // Names up to 10^6 unknowns (packed by the SDK, ~2 doubles each): beyond, no one
      // reads ten million output columns by name.
      if (in.n <= 1000000)
        in.component_name = [side = static_cast<std::size_t>(side_)](std::size_t c) {
          std::string name = daekit::numbered("u", c % side);
          name += '_';
          name += std::to_string(c / side);
          return name;
        };
      if (!matrix_free) declare_pattern();
    }
    in.reference.resize(static_cast<std::size_t>(side_) * static_cast<std::size_t>(end_line() - first_line()));
    exact(tend, in.reference.data());
    in.reference_t = tend;
    in.reference_source = "closed form of the semi-discrete system: exp(-2 mu t) sin(pi x) sin(pi y)";
    in.reference_at_any_time = true;
  }

  // Column k reaches its own row and, for an interior k, the rows of its interior
  // neighbours... and every interior row reads its four neighbours, boundary ones too.
  void declare_pattern() {
    auto& in = info_;
    in.jac_col_ptr.push_back(0);
    for (int j = 0; j < side_; ++j)
      for (int i = 0; i < side_; ++i) {
        // Rows that read u_ij: itself, and each interior neighbour.
        const int k = at(i, j);
        for (int r : {at(i, j - 1), at(i - 1, j), k, at(i + 1, j), at(i, j + 1)}) {
          if (r < 0) continue;
          if (r != k && !interior(r % side_, r / side_)) continue;
          in.jac_row_idx.push_back(r);
        }
        in.jac_col_ptr.push_back(static_cast<int>(in.jac_row_idx.size()));
      }
  }

  // Over MPI ranks: each owns whole grid lines j0 .. j0 + lines - 1 (an even share) and
  // reads the line on either side of its block, its ghosts. A local vector is the owned
  // block, then the line below (if any), then the line above (if any).
  void distribute(const daekit::Params::Ranks& ranks, bool local_rows) {
    const auto [first, lines] = daekit::owned_share(static_cast<std::size_t>(side_), ranks, "heat2d", "grid lines");
    j0_ = static_cast<int>(first);
    j1_ = j0_ + static_cast<int>(lines);
    auto& d = info_.distribution;
    info_.distributed = true;
    d.local_rows = local_rows;
    d.n_local = lines * static_cast<std::size_t>(side_);
    d.first_row = first * static_cast<std::size_t>(side_);
    for (int j : {j0_ - 1, j1_}) {
      if (j < 0 || j >= side_) continue;
      for (int i = 0; i < side_; ++i) d.ghost_rows.push_back(at(i, j));
    }
    d.jac_row_ptr.push_back(0);
    for (int j = j0_; j < j1_; ++j)
      for (int i = 0; i < side_; ++i) {
        for (const auto& [column, value] : local_row(i, j)) {
          d.jac_col_idx.push_back(column);
          local_jacobian_.push_back(value);  // constant: the equation is linear
        }
        d.jac_row_ptr.push_back(static_cast<std::int32_t>(d.jac_col_idx.size()));
      }
  }

  // Where grid point (i, j) of the owned lines or their ghost lines sits in a local vector.
  int local_at(int i, int j) const {
    if (j >= j0_ && j < j1_) return i + side_ * (j - j0_);
    const int owned = side_ * (j1_ - j0_);
    if (j == j0_ - 1) return owned + i;
    return owned + (j0_ > 0 ? side_ : 0) + i;  // j == j1_
  }

  // Row (i, j) of df/dy over local columns, ascending: (column, value) pairs.
  std::vector<std::pair<std::int32_t, double>> local_row(int i, int j) const {
    std::vector<std::pair<std::int32_t, double>> row;
    if (!interior(i, j)) return {{local_at(i, j), -1.0}};
    const double c = 1.0 / (h_ * h_);
    row.emplace_back(local_at(i, j), -4.0 * c);
    for (const auto& [a, b] : {std::pair{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}}) row.emplace_back(local_at(a, b), c);
    std::sort(row.begin(), row.end());
    return row;
  }

  daekit::Eval rhs_local(double, daekit::ConstVector u, daekit::Vector f) override {
    const double c = 1.0 / (h_ * h_);
    for (int j = j0_; j < j1_; ++j)
      for (int i = 0; i < side_; ++i) {
        const int k = local_at(i, j);
        f[k] = !interior(i, j) ? -u[k]
                               : c * (u[local_at(i - 1, j)] + u[local_at(i + 1, j)] + u[local_at(i, j - 1)] +
                                      u[local_at(i, j + 1)] - 4.0 * u[k]);
      }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_local(double, daekit::ConstVector, daekit::Vector values) override {
    values = Eigen::Map<const Eigen::VectorXd>(local_jacobian_.data(), values.size());
    return daekit::Eval::ok;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override { exact(0.0, y.data()); }
  daekit::Eval reference_at(double t, daekit::Vector y) override {
    exact(t, y.data());
    return daekit::Eval::ok;
  }

  daekit::Eval rhs(double, daekit::ConstVector u, daekit::Vector f) override {
    const double c = 1.0 / (h_ * h_);
    for (int j = 0; j < side_; ++j)
      for (int i = 0; i < side_; ++i) {
        const int k = at(i, j);
        if (!interior(i, j)) {
          f[k] = -u[k];  // 0 = u on the boundary
          continue;
        }
        f[k] = c * (u[at(i - 1, j)] + u[at(i + 1, j)] + u[at(i, j - 1)] + u[at(i, j + 1)] - 4.0 * u[k]);
      }
    return daekit::Eval::ok;
  }

  // f is linear in u: J v = f(v).
  daekit::Eval jacobian_vector(double t, daekit::ConstVector, daekit::ConstVector v, daekit::Vector jv) override {
    return rhs(t, v, jv);
  }

  // Nothing depends on y: the shift gamma / h^2 is all a new gamma changes.
  daekit::Eval preconditioner_setup(double, daekit::ConstVector, double gamma, bool& jacobian_current) override {
    if (!multigrid_) {
      multigrid_ = std::make_unique<daekit_problems::GridMultigrid>(N_, 2, 1, daekit_problems::GridMultigrid::Boundary::dirichlet);
      interior_rhs_.resize(static_cast<std::size_t>(N_) * N_);
      interior_x_.resize(interior_rhs_.size());
    }
    jacobian_current = false;  // no Jacobian data to evaluate
    gamma_ = gamma;
    multigrid_->set_shift(gamma / (h_ * h_));
    return daekit::Eval::ok;
  }

  daekit::Eval preconditioner_solve(double, daekit::ConstVector, daekit::ConstVector r, daekit::Vector z, double,
                                    double) override {
    const double c = gamma_ / (h_ * h_);
    for (int j = 0; j < side_; ++j)
      for (int i = 0; i < side_; ++i)
        if (!interior(i, j)) z[at(i, j)] = r[at(i, j)] / gamma_;
    for (int j = 1; j <= N_; ++j)
      for (int i = 1; i <= N_; ++i) {
        double known = 0.0;  // the boundary neighbours' part of the row, moved to the right
        for (int nb : {at(i - 1, j), at(i + 1, j), at(i, j - 1), at(i, j + 1)})
          if (!interior(nb % side_, nb / side_)) known += z[nb];
        interior_rhs_[static_cast<std::size_t>(i - 1 + N_ * (j - 1))] = r[at(i, j)] + c * known;
      }
    multigrid_->solve(interior_rhs_.data(), interior_x_.data(), mg_cycles_);
    for (int j = 1; j <= N_; ++j)
      for (int i = 1; i <= N_; ++i) z[at(i, j)] = interior_x_[static_cast<std::size_t>(i - 1 + N_ * (j - 1))];
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector, daekit::MatrixView jac) override {
    const double c = 1.0 / (h_ * h_);
    for (int j = 0; j < side_; ++j)
      for (int i = 0; i < side_; ++i) {
        const int k = at(i, j);
        if (!interior(i, j)) {
          jac(k, k) = -1.0;
          continue;
        }
        jac(k, k) = -4.0 * c;
        for (int nb : {at(i - 1, j), at(i + 1, j), at(i, j - 1), at(i, j + 1)}) jac(k, nb) = c;
      }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_sparse(double, daekit::ConstVector, daekit::Vector values) override {
    const double c = 1.0 / (h_ * h_);
    const auto n = static_cast<int>(info_.n);
    for (int col = 0; col < n; ++col)
      for (int p = info_.jac_col_ptr[col]; p < info_.jac_col_ptr[col + 1]; ++p) {
        const int row = info_.jac_row_idx[p];
        const bool row_interior = interior(row % side_, row / side_);
        values[p] = row != col ? c : row_interior ? -4.0 * c : -1.0;
      }
    return daekit::Eval::ok;
  }

 private:
  bool interior(int i, int j) const { return i > 0 && j > 0 && i < side_ - 1 && j < side_ - 1; }
  // Index of grid point (i, j), or -1 outside the grid.
  int at(int i, int j) const { return i < 0 || j < 0 || i >= side_ || j >= side_ ? -1 : i + side_ * j; }
  // The grid lines the per-row data (y0, the reference, the flags) describes: the rank's
  // own with local rows, else the whole grid's.
  int first_line() const { return info_.distribution.local_rows ? j0_ : 0; }
  int end_line() const { return info_.distribution.local_rows ? j1_ : side_; }
  // The exact solution at t on those lines.
  void exact(double t, double* u) const {
    const double decay = std::exp(-2.0 * mu_ * t);
    const int first = first_line();
    for (int j = first; j < end_line(); ++j)
      for (int i = 0; i < side_; ++i)
        u[i + side_ * (j - first)] =
            interior(i, j) ? decay * std::sin(std::numbers::pi * i * h_) * std::sin(std::numbers::pi * j * h_) : 0.0;
  }

  int N_, mg_cycles_, side_;
  int j0_ = 0, j1_ = 0;  // the grid lines this rank owns, when distributed (else 0 .. side_)
  double h_, mu_;
  double gamma_ = 0.0;
  std::unique_ptr<daekit_problems::GridMultigrid> multigrid_;
  std::vector<double> interior_rhs_, interior_x_;
  std::vector<double> local_jacobian_;  // df/dy's owned rows in the distribution's pattern
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Heat2D, heat2d, "0.1.0",
                      "Heat equation on the unit square, boundary values algebraic: sparse index-1 DAE, exact solution")
