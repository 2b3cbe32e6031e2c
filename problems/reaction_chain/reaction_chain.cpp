// A reaction network with as many rate constants as species, for gradients of many
// parameters (adjoints, fits with 100+ parameters): N species in a chain
//   A_i -> A_(i+1)       rate k_i y_i          (i = 1 .. N-1)
//   A_N + A_1 -> 2 A_1   rate k_N y_N y_1      (autocatalytic return)
// from y(0) = (1, 0, ..., 0) on [0, 10]. The total sum y_i is conserved. The nominal
// k_i spread over D decades (parameter decades, 4 by default),
// k_i = 10^(D (((37 i) mod N) / N - 1/4)), so the system is stiff for N of a few tens and
// more. Jacobian and df/dp are given in sparse patterns.
#include <cmath>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>

namespace {

class ReactionChain : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"N", "100", "species and rate constants (3 .. 100000)"},
            {"decades", "4", "decades the nominal rate constants spread over (0 .. 8; 0: all 1)"}};
  }

  explicit ReactionChain(const daekit::Params& params) : n_(static_cast<int>(params.integer("N"))) {
    if (n_ < 3 || n_ > 100000) throw std::invalid_argument("reaction_chain: N must lie in 3 .. 100000");
    const double decades = params.real("decades");
    if (!(decades >= 0 && decades <= 8)) throw std::invalid_argument("reaction_chain: decades must lie in 0 .. 8");
    auto& in = info_;
    in.name = "reaction_chain";
    in.title = "a chain of " + params.text("N") + " reactions with a rate constant each (stiff, nonlinear)";
    in.n = static_cast<std::size_t>(n_);
    in.tend = 10.0;
    in.analytic_jacobian = true;
    in.autonomous = true;
    for (int i = 0; i < n_; ++i) {
      in.component_names.push_back(daekit::numbered("A", static_cast<std::size_t>(i + 1)));
      const double k = std::pow(10.0, decades * (((37 * (i + 1)) % n_) / static_cast<double>(n_) - 0.25));
      in.parameters.push_back({daekit::numbered("k", static_cast<std::size_t>(i + 1)), k, k});
    }
    // df/dy: column j reaches rows j and j+1 (its own reaction), and columns 1 and N
    // rows 1 and N (the return); in CSC, rows sorted.
    in.jac_col_ptr.push_back(0);
    for (int j = 0; j < n_; ++j) {
      if (j == 0) add_rows(in.jac_row_idx, {0, 1, n_ - 1});
      else if (j == n_ - 1) add_rows(in.jac_row_idx, {0, n_ - 1});
      else add_rows(in.jac_row_idx, {j, j + 1});
      in.jac_col_ptr.push_back(static_cast<std::int32_t>(in.jac_row_idx.size()));
    }
    // df/dk: column i rows i and i+1; column N rows 1 and N.
    in.dfdp_col_ptr.push_back(0);
    for (int i = 0; i < n_; ++i) {
      if (i < n_ - 1) add_rows(in.dfdp_row_idx, {i, i + 1});
      else add_rows(in.dfdp_row_idx, {0, n_ - 1});
      in.dfdp_col_ptr.push_back(static_cast<std::int32_t>(in.dfdp_row_idx.size()));
    }
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < n_; ++i) y[i] = i == 0 ? 1.0 : 0.0;
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    for (int i = 0; i < n_; ++i) f[i] = 0.0;
    for (int i = 0; i + 1 < n_; ++i) {
      const double r = p(i) * y[i];
      f[i] -= r, f[i + 1] += r;
    }
    const double back = p(n_ - 1) * y[n_ - 1] * y[0];
    f[0] += back, f[n_ - 1] -= back;
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian_sparse(double, daekit::ConstVector y, daekit::Vector v) override {
    const double kn = p(n_ - 1);
    std::size_t at = 0;
    for (int j = 0; j < n_; ++j) {
      if (j == 0) {  // rows 0, 1, N-1
        v[at++] = -p(0) + kn * y[n_ - 1];
        v[at++] = p(0);
        v[at++] = -kn * y[n_ - 1];
      } else if (j == n_ - 1) {  // rows 0, N-1
        v[at++] = kn * y[0];
        v[at++] = -kn * y[0];
      } else {  // rows j, j+1
        v[at++] = -p(j);
        v[at++] = p(j);
      }
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    for (int i = 0; i + 1 < n_; ++i) j(i, i) -= p(i), j(i + 1, i) += p(i);
    const double kn = p(n_ - 1);
    j(0, 0) += kn * y[n_ - 1], j(n_ - 1, 0) -= kn * y[n_ - 1];
    j(0, n_ - 1) += kn * y[0], j(n_ - 1, n_ - 1) -= kn * y[0];
    return daekit::Eval::ok;
  }

  // The pattern's values: column i (i < N) rows i, i+1; column N rows 1, N.
  daekit::Eval dfdp_sparse(double, daekit::ConstVector y, daekit::Vector v) override {
    for (int i = 0; i + 1 < n_; ++i) v[2 * i] = -y[i], v[2 * i + 1] = y[i];
    v[2 * (n_ - 1)] = y[n_ - 1] * y[0], v[2 * (n_ - 1) + 1] = -y[n_ - 1] * y[0];
    return daekit::Eval::ok;
  }

  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    for (int i = 0; i + 1 < n_; ++i) d(i, i) = -y[i], d(i + 1, i) = y[i];
    d(0, n_ - 1) = y[n_ - 1] * y[0], d(n_ - 1, n_ - 1) = -y[n_ - 1] * y[0];
    return daekit::Eval::ok;
  }

 private:
  static void add_rows(std::vector<std::int32_t>& rows, std::initializer_list<int> list) {
    for (int r : list) rows.push_back(r);
  }
  int n_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(ReactionChain, reaction_chain, "0.1.0",
                      "a reaction chain with a rate constant per species: N parameters for adjoint gradients")
