// The Medical Akzo Nobel problem (IVP Test Set `medakzo`): the penetration of
// radio-labelled antibodies into tumour tissue, a reaction-diffusion PDE in one space
// variable discretised by the method of lines on N = 200 points: u (antibody) and
// v (tissue) interleaved, 400 unknowns, on [0, 20]. The boundary input phi = 2 is
// switched off at t = 5 (a breakpoint). Jacobian banded (two diagonals each side).
#include <algorithm>
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "medakzo_initial.inc"
#include "medakzo_reference.inc"

namespace {

constexpr int N = 200;
constexpr double k = 100.0, c = 4.0, dz = 1.0 / N, switch_off = 5.0;

// Coefficients of the transformed diffusion at grid point j (1-based): the
// convection alpha and diffusion beta of the test set's discretisation.
struct Coefficients {
  double alpha, beta;
  explicit Coefficients(int j) {
    const double zeta = j * dz, dum = (zeta - 1.0) * (zeta - 1.0) / c;
    alpha = 2.0 * (zeta - 1.0) * dum / c;
    beta = dum * dum;
  }
};

class MedAkzo : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit MedAkzo(const daekit::Params&) {
    auto& in = info_;
    in.name = "medakzo";
    in.title = "Medical Akzo Nobel: antibody diffusion into tissue, method of lines, stiff ODE";
    in.n = 2 * N;
    in.tend = 20.0;
    in.analytic_jacobian = true;
    in.jac_lower = in.jac_upper = 2;
    in.tstops = {switch_off};
    for (std::size_t j = 1; j <= N; ++j) {
      in.component_names.push_back(daekit::numbered("u", j));
      in.component_names.push_back(daekit::numbered("v", j));
    }
    // The pentadiagonal pattern, column by column.
    in.jac_col_ptr.push_back(0);
    for (int col = 0; col < 2 * N; ++col) {
      for (int row = std::max(0, col - 2); row <= std::min(2 * N - 1, col + 2); ++row)
        if (structural(row, col)) in.jac_row_idx.push_back(row);
      in.jac_col_ptr.push_back(static_cast<int>(in.jac_row_idx.size()));
    }
    daekit::use_testset_reference(info_, medakzo_reference_text, "medakzo.ref");
    in.scored.assign(in.n, DK_SCORED_ABSOLUTE);  // the test set scores medakzo by absolute error
    y0_ = daekit::testset_data(medakzo_initial_text, "medakzo.y0", in.n).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 2 * N; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    const double phi = t <= switch_off ? 2.0 : 0.0;
    for (int j = 1; j <= N; ++j) {
      const int u = 2 * (j - 1), v = u + 1;
      const double reaction = k * y[u] * y[v];
      if (j == N) {
        f[u] = f[v] = -reaction;
        continue;
      }
      const Coefficients co(j);
      const double left = j == 1 ? phi : y[u - 2], right = y[u + 2];
      f[u] = (left - 2.0 * y[u] + right) * co.beta / (dz * dz) + co.alpha * (right - left) / (2.0 * dz) - reaction;
      f[v] = -reaction;
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView jac) override {
    for (int row = 0; row < 2 * N; ++row)
      for (int col = std::max(0, row - 2); col <= std::min(2 * N - 1, row + 2); ++col) jac(row, col) = entry(y, row, col);
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_sparse(double, daekit::ConstVector y, daekit::Vector values) override {
    for (int col = 0; col < 2 * N; ++col)
      for (int p = info_.jac_col_ptr[col]; p < info_.jac_col_ptr[col + 1]; ++p)
        values[p] = entry(y, info_.jac_row_idx[p], col);
    return daekit::Eval::ok;
  }

 private:
  // Which entries can be nonzero: u rows see u_{j-1}, u_j, v_j, u_{j+1} (the last
  // point only u_j, v_j); v rows see u_j and v_j.
  static bool structural(int row, int col) {
    const int j = row / 2 + 1;
    if (col / 2 == row / 2) return true;
    return row % 2 == 0 && col % 2 == 0 && j < N && std::abs(col - row) == 2;
  }

  static double entry(daekit::ConstVector y, int row, int col) {
    if (!structural(row, col)) return 0.0;
    const int j = row / 2 + 1, u = 2 * (j - 1), v = u + 1;
    if (row == v) return col == u ? -k * y[v] : -k * y[u];
    if (col == v) return -k * y[u];
    if (j == N) return -k * y[v];
    const Coefficients co(j);
    const double bz = co.beta / (dz * dz);
    if (col == u) return -2.0 * bz - k * y[v];
    return col < u ? bz - co.alpha / (2.0 * dz) : bz + co.alpha / (2.0 * dz);
  }

  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(MedAkzo, medakzo, "0.1.0", "Medical Akzo Nobel reaction-diffusion: stiff banded ODE, n=400 (IVP Test Set)")
