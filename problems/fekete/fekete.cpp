// Fekete points on the sphere as the IVP Test Set (release 2.4) poses them: N
// particles on the unit sphere repel each other and settle into a configuration
// that maximises the product of their distances. Stabilised index-2 form
// (Gear-Gupta-Leimkuhler) with 8N unknowns y = (p, q, lambda, mu):
//   p_i' = q_i + 2 mu_i p_i
//   q_i' = -alpha q_i + 2 lambda_i p_i + sum_{j != i} (p_i - p_j) / |p_i - p_j|^2
//   0    = |p_i|^2 - 1
//   0    = 2 p_i . q_i
// with alpha = 1/2; mass matrix diag(I_6N, 0_2N); lambda, mu of index 2.
#include <cmath>
#include <daekit/sdk/data_text.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>
#include <string>

#include "fekete_reference.inc"

namespace {

constexpr double alpha = 0.5;
constexpr double pi = 3.141592653589793238462643383;

class Fekete : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"N", "20", "number of particles (the test set's reference exists for N = 20 only)"},
            {"sparse", "true",
             "give the Jacobian's pattern (sparse LUs: the dense force block is 9N^2 of 64N^2 entries); "
             "false: dense"}};
  }

  explicit Fekete(const daekit::Params& params) : N_(static_cast<int>(params.integer("N"))) {
    if (N_ < 2 || N_ > 1000) throw std::invalid_argument("fekete: N must lie in 2 .. 1000");
    auto& in = info_;
    in.name = "fekete";
    in.title = "Fekete points on the sphere, N=" + std::to_string(N_) + " (stabilised index-2 DAE)";
    in.n = 8 * static_cast<std::size_t>(N_);
    in.t0 = 0.0;
    in.tend = 1000.0;
    in.mass = daekit::MassKind::constant;
    in.analytic_jacobian = true;
    in.autonomous = true;
    in.consistent_y0 = true;
    in.has_yp0 = true;
    in.index.assign(in.n, 1);
    in.differential.assign(in.n, 1);
    for (std::size_t i = 6 * N_; i < in.n; ++i) in.index[i] = 2, in.differential[i] = 0;
    // p1x, p1y, ..., q1x, ..., lambda1, ..., mu1, ...
    auto name = [](const char* stem, int i, const char* axis) {
      return daekit::numbered(stem, static_cast<std::size_t>(i) + 1) + axis;
    };
    const char* axes[] = {"x", "y", "z"};
    for (const char* stem : {"p", "q"})
      for (int i = 0; i < N_; ++i)
        for (const char* axis : axes) in.component_names.push_back(name(stem, i, axis));
    for (const char* stem : {"lambda", "mu"})
      for (int i = 0; i < N_; ++i) in.component_names.push_back(name(stem, i, ""));
    // The test set scores the positions only (also what a reference solver's y(tend) is
    // compared on for other N).
    in.scored.assign(in.n, 0);
    for (int i = 0; i < 3 * N_; ++i) in.scored[i] = 1;
    if (N_ == 20) {
      auto ref = daekit::parse_data_text(fekete_reference_text, "fekete.ref");
      if (ref.values.size() != in.n) throw std::runtime_error("fekete.ref has the wrong length");
      in.reference = ref.values;
      in.reference_t = 1000.0;
      in.reference_source = "IVP Test Set 2.4 (" + ref.comment_field("reference computed with") + ")";
    }
    if (params.flag("sparse")) declare_pattern();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    y.setZero();
    if (N_ == 20)
      test_set_positions(y);
    else
      spiral_positions(y);
    // Velocities and mu are zero; lambda from the hidden constraint d/dt(p.q) = p.q' = 0.
    Eigen::VectorXd f(info_.n);
    rhs(0.0, daekit::ConstVector(y.data(), y.size()), daekit::Vector(f.data(), f.size()));
    for (int i = 0; i < N_; ++i) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += y[3 * i + k] * f[3 * N_ + 3 * i + k];
      y[6 * N_ + i] = -s / 2.0;
    }
    rhs(0.0, daekit::ConstVector(y.data(), y.size()), yp);
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    const int N = N_;
    auto p = [&](int i, int k) { return y[3 * i + k]; };
    auto q = [&](int i, int k) { return y[3 * N + 3 * i + k]; };
    for (int i = 0; i < N; ++i) {
      const double lam = y[6 * N + i], mu = y[7 * N + i];
      double phi = -1.0, gpq = 0.0;
      for (int k = 0; k < 3; ++k) {
        f[3 * i + k] = q(i, k) + 2.0 * mu * p(i, k);
        f[3 * N + 3 * i + k] = -alpha * q(i, k) + 2.0 * lam * p(i, k);
        phi += p(i, k) * p(i, k);
        gpq += 2.0 * p(i, k) * q(i, k);
      }
      f[6 * N + i] = phi;
      f[7 * N + i] = gpq;
    }
    for (int i = 0; i < N; ++i)
      for (int j = i + 1; j < N; ++j) {
        double d[3], r = 0.0;
        for (int k = 0; k < 3; ++k) d[k] = p(i, k) - p(j, k), r += d[k] * d[k];
        for (int k = 0; k < 3; ++k) {
          f[3 * N + 3 * i + k] += d[k] / r;
          f[3 * N + 3 * j + k] -= d[k] / r;
        }
      }
    return daekit::Eval::ok;
  }

  // df/dy in the declared pattern (declare_pattern() gives the rows), column by column.
  daekit::Eval jacobian_sparse(double, daekit::ConstVector y, daekit::Vector values) override {
    if (info_.jac_col_ptr.empty()) return daekit::Eval::not_provided;
    const int N = N_;
    auto p = [&](int i, int k) { return y[3 * i + k]; };
    auto q = [&](int i, int k) { return y[3 * N + 3 * i + k]; };
    // The columns p_a0, p_a1, p_a2 of particle a, each: row p_am (2 mu_a), the 3N rows
    // q_bk (the forces' derivatives; 2 lambda_a more on q_am), row lambda_a (2 p_am), row
    // mu_a (2 q_am). One force block per pair serves the three columns and, summed, their
    // diagonal block.
    const Eigen::Index column_length = 3 * N + 3;
    for (int a = 0; a < N; ++a) {
      const Eigen::Index first = info_.jac_col_ptr[3 * a];
      auto at = [&](int m) { return first + m * column_length; };
      for (int m = 0; m < 3; ++m) {
        values[at(m)] = 2.0 * y[7 * N + a];
        values[at(m) + 1 + 3 * N] = 2.0 * p(a, m);
        values[at(m) + 2 + 3 * N] = 2.0 * q(a, m);
      }
      double diagonal[3][3] = {};
      for (int b = 0; b < N; ++b) {
        if (b == a) continue;
        double g[3][3];
        force_block(y, b, a, g);
        for (int m = 0; m < 3; ++m)
          for (int k = 0; k < 3; ++k) {
            values[at(m) + 1 + 3 * b + k] = -g[k][m];
            diagonal[k][m] += g[k][m];
          }
      }
      for (int m = 0; m < 3; ++m)
        for (int k = 0; k < 3; ++k)
          values[at(m) + 1 + 3 * a + k] = diagonal[k][m] + (k == m ? 2.0 * y[6 * N + a] : 0.0);
    }
    Eigen::Index v = info_.jac_col_ptr[3 * N];
    // Column q_am: row p_am (1), row q_am (-alpha), row mu_a (2 p_am).
    for (int a = 0; a < N; ++a)
      for (int m = 0; m < 3; ++m) {
        values[v++] = 1.0;
        values[v++] = -alpha;
        values[v++] = 2.0 * p(a, m);
      }
    // Column lambda_a: rows q_ak; column mu_a: rows p_ak (2 p_ak each).
    for (int a = 0; a < N; ++a)
      for (int k = 0; k < 3; ++k) values[v++] = 2.0 * p(a, k);
    for (int a = 0; a < N; ++a)
      for (int k = 0; k < 3; ++k) values[v++] = 2.0 * p(a, k);
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView J) override {
    const int N = N_;
    auto p = [&](int i, int k) { return y[3 * i + k]; };
    auto q = [&](int i, int k) { return y[3 * N + 3 * i + k]; };
    const int P = 0, Q = 3 * N, L = 6 * N, M = 7 * N;
    for (int i = 0; i < N; ++i) {
      const double lam = y[L + i], mu = y[M + i];
      for (int k = 0; k < 3; ++k) {
        J(P + 3 * i + k, P + 3 * i + k) = 2.0 * mu;
        J(P + 3 * i + k, Q + 3 * i + k) = 1.0;
        J(P + 3 * i + k, M + i) = 2.0 * p(i, k);
        J(Q + 3 * i + k, P + 3 * i + k) = 2.0 * lam;
        J(Q + 3 * i + k, Q + 3 * i + k) = -alpha;
        J(Q + 3 * i + k, L + i) = 2.0 * p(i, k);
        J(L + i, P + 3 * i + k) = 2.0 * p(i, k);
        J(M + i, P + 3 * i + k) = 2.0 * q(i, k);
        J(M + i, Q + 3 * i + k) = 2.0 * p(i, k);
      }
    }
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        if (i == j) continue;
        double g[3][3];
        force_block(y, i, j, g);
        for (int k = 0; k < 3; ++k)
          for (int m = 0; m < 3; ++m) {
            J(Q + 3 * i + k, P + 3 * i + m) += g[k][m];
            J(Q + 3 * i + k, P + 3 * j + m) -= g[k][m];
          }
      }
    return daekit::Eval::ok;
  }

 protected:
  // The derivative of the force d/|d|^2, d = p_i - p_j, on particle i with respect to p_i:
  // g = I/r - 2 d d^T / r^2 with r = |d|^2 (with respect to p_j it is -g). Symmetric in
  // i and j, since d d^T is.
  void force_block(daekit::ConstVector y, int i, int j, double g[3][3]) const {
    double d[3], r = 0.0;
    for (int c = 0; c < 3; ++c) d[c] = y[3 * i + c] - y[3 * j + c], r += d[c] * d[c];
    for (int k = 0; k < 3; ++k)
      for (int m = 0; m < 3; ++m) g[k][m] = (k == m ? 1.0 / r : 0.0) - 2.0 * d[k] * d[m] / (r * r);
  }

  // The pattern of df/dy (CSC, rows ascending in each column), in the order
  // jacobian_sparse() fills it.
  void declare_pattern() {
    const int N = N_;
    const int P = 0, Q = 3 * N, L = 6 * N, M = 7 * N;
    auto& col = info_.jac_col_ptr;
    auto& row = info_.jac_row_idx;
    col.assign(1, 0);
    auto close_column = [&] { col.push_back(static_cast<std::int32_t>(row.size())); };
    for (int a = 0; a < N; ++a)
      for (int m = 0; m < 3; ++m) {
        row.push_back(P + 3 * a + m);
        for (int r = Q; r < Q + 3 * N; ++r) row.push_back(r);
        row.push_back(L + a);
        row.push_back(M + a);
        close_column();
      }
    for (int a = 0; a < N; ++a)
      for (int m = 0; m < 3; ++m) {
        row.push_back(P + 3 * a + m);
        row.push_back(Q + 3 * a + m);
        row.push_back(M + a);
        close_column();
      }
    for (int a = 0; a < N; ++a) {
      for (int k = 0; k < 3; ++k) row.push_back(Q + 3 * a + k);
      close_column();
    }
    for (int a = 0; a < N; ++a) {
      for (int k = 0; k < 3; ++k) row.push_back(P + 3 * a + k);
      close_column();
    }
  }

  void place(daekit::Vector& y, int i, double a, double b) {
    y[3 * i + 0] = std::cos(a) * std::cos(b);
    y[3 * i + 1] = std::sin(a) * std::cos(b);
    y[3 * i + 2] = std::sin(b);
  }

  // The test set's starting configuration for N = 20: four bands of latitude.
  void test_set_positions(daekit::Vector& y) {
    for (int i = 1; i <= 3; ++i) place(y, i - 1, 2 * pi * i / 3.0 + pi / 13.0, 3 * pi / 8.0);
    for (int i = 4; i <= 10; ++i) place(y, i - 1, 2 * pi * (i - 3) / 7.0 + pi / 29.0, pi / 8.0);
    for (int i = 11; i <= 16; ++i) place(y, i - 1, 2 * pi * (i - 10) / 6.0 + pi / 7.0, -2 * pi / 15.0);
    for (int i = 17; i <= 20; ++i) place(y, i - 1, 2 * pi * (i - 17) / 4.0 + pi / 17.0, -3 * pi / 10.0);
  }

  // Other N: a golden-angle spiral, which keeps every pair of particles apart.
  void spiral_positions(daekit::Vector& y) {
    const double golden = pi * (3.0 - std::sqrt(5.0));
    for (int i = 0; i < N_; ++i) {
      const double z = 1.0 - (2.0 * i + 1.0) / N_;
      place(y, i, golden * i, std::asin(z));
    }
  }

  int N_;
};

}  // namespace

// The original index-3 formulation (`fekete3`): positions p, velocities q and the
// multipliers lambda of the position constraint, 7N unknowns,
//   p_i' = q_i,   q_i' = -alpha q_i + 2 lambda_i p_i + sum_j (p_i - p_j)/|p_i - p_j|^2,
//   0 = |p_i|^2 - 1,
// with q of index 2 and lambda of index 3. It is the stabilised form without mu (mu is
// zero on the exact solution), so f and df/dy are the 8N problem's at mu = 0 with
// the velocity constraint left out, and its reference is the first 7N values of
// Fekete's.
class Fekete3 : public Fekete {
 public:
  explicit Fekete3(const daekit::Params& params) : Fekete(params), N_(static_cast<int>(params.integer("N"))) {
    auto& in = info_;
    const std::size_t n = 7 * static_cast<std::size_t>(N_);
    in.name = "fekete3";
    // The index-3 form keeps the dense Jacobian (the 8N pattern does not fit its 7N).
    in.jac_col_ptr.clear();
    in.jac_row_idx.clear();
    in.title = "Fekete points on the sphere, N=" + std::to_string(N_) + " (index-3 formulation)";
    in.n = n;
    in.index.resize(n);
    in.differential.resize(n);
    in.component_names.resize(n);
    for (std::size_t i = 3 * N_; i < 6 * static_cast<std::size_t>(N_); ++i) in.index[i] = 2;
    for (std::size_t i = 6 * N_; i < n; ++i) in.index[i] = 3;
    in.scored.resize(n);
    if (!in.reference.empty()) {
      in.reference.resize(n);
      in.reference_source += "; the 7N values of the index-2 formulation's reference without mu";
    }
    y8_.setZero(8 * N_);
    f8_.setZero(8 * N_);
    j8_.setZero(8 * N_, 8 * N_);
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    Fekete::initial_values(daekit::Vector(y8_.data(), y8_.size()), daekit::Vector(f8_.data(), f8_.size()));
    y = y8_.head(7 * N_);
    yp = f8_.head(7 * N_);
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    y8_.head(7 * N_) = y;
    y8_.tail(N_).setZero();
    const daekit::Eval e = Fekete::rhs(t, daekit::ConstVector(y8_.data(), y8_.size()), daekit::Vector(f8_.data(), f8_.size()));
    f = f8_.head(7 * N_);
    return e;
  }

  daekit::Eval jacobian(double t, daekit::ConstVector y, daekit::MatrixView j) override {
    y8_.head(7 * N_) = y;
    y8_.tail(N_).setZero();
    j8_.setZero();
    daekit::MatrixView j8(j8_.data(), j8_.rows(), j8_.cols(), Eigen::OuterStride<>(j8_.rows()));
    const daekit::Eval e = Fekete::jacobian(t, daekit::ConstVector(y8_.data(), y8_.size()), j8);
    j = j8_.topLeftCorner(7 * N_, 7 * N_);
    return e;
  }

 private:
  int N_;
  Eigen::VectorXd y8_, f8_;
  Eigen::MatrixXd j8_;
};

DAEKIT_EXPORT_PROBLEM(Fekete, fekete, "0.1.0", "Fekete points on the sphere: stabilised index-2 DAE, 8N variables (IVP Test Set)")
DAEKIT_EXPORT_PROBLEM(Fekete3, fekete3, "0.1.0",
                      "Fekete points, original index-3 formulation: 7N variables, multipliers of index 3")
