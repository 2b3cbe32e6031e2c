// The water tube system (IVP Test Set `water`, C. Steinebach): turbulent and laminar
// flow through a network of 18 pipes between 13 nodes, two of them buffers, over
// 17 hours (t in seconds, [0, 61200]). Unknowns: the 18 flows phi, their 18 friction
// coefficients lambda (algebraic: the Colebrook-type resistance law), the pressures
// of the two buffer nodes (differential) and of the 11 normal nodes (index 2).
// Index-2 DAE with the constant diagonal mass matrix
// diag(rho L / A (18), 0 (18), b / (rho g) (2), 0 (11)). f is written once over the
// scalar type: doubles give f, the SDK's duals df/dy exactly (sdk/autodiff.hpp; 49
// columns in 7 passes).
#include <array>
#include <cmath>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>
#include <utility>

#include "water_initial.inc"
#include "water_reference.inc"

namespace {

constexpr double nu = 1.31e-6, g = 9.8, rho = 1.0e3, rcrit = 2.3e3, length = 1.0e3, roughness = 2.0e-4, d = 1.0,
                 b = 2.0e2;
constexpr double pi = 3.141592653589793238462643383;
constexpr double area = pi * d * d / 4.0, mu = nu * rho;
constexpr int nodes = 13, pipes = 18;

// The pipes (from, to), 1-based nodes, in the order of the unknowns.
constexpr std::array<std::pair<int, int>, pipes> pipe = {{{1, 2}, {2, 3}, {2, 6}, {3, 4}, {3, 5}, {4, 5},
                                                          {5, 10}, {6, 5}, {7, 4}, {7, 8}, {8, 5}, {8, 10},
                                                          {9, 8}, {11, 9}, {11, 12}, {12, 7}, {12, 8}, {13, 11}}};
// Node of each pressure unknown 37..49: the buffers 5 and 8 first.
constexpr std::array<int, nodes> pressure_node = {5, 8, 1, 2, 3, 4, 6, 7, 9, 10, 11, 12, 13};

class WaterTube : public daekit::AutoDiffProblem<WaterTube> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit WaterTube(const daekit::Params&) {
    auto& in = info_;
    in.name = "water";
    in.title = "water tube system: turbulent pipe-network flow, index-2 DAE";
    in.n = 49;
    in.tend = 61200.0;
    in.mass = daekit::MassKind::constant;
    in.consistent_y0 = true;
    in.has_yp0 = true;
    in.differential.assign(49, 0);
    in.index.assign(49, 1);
    for (int i = 0; i < 18; ++i) in.differential[i] = 1;
    in.differential[36] = in.differential[37] = 1;
    for (int i = 38; i < 49; ++i) in.index[i] = 2;
    for (const auto& [from, to] : pipe)
      in.component_names.push_back("phi" + std::to_string(from) + "_" + std::to_string(to));
    for (const auto& [from, to] : pipe)
      in.component_names.push_back("lambda" + std::to_string(from) + "_" + std::to_string(to));
    for (int node : pressure_node) in.component_names.push_back(daekit::numbered("p", static_cast<std::size_t>(node)));
    // The test set's tolerances: pressures are O(1e5), so their atol is 1e6 times the flows'.
    in.atol_scale.assign(49, 1.0);
    for (int i = 36; i < 49; ++i) in.atol_scale[i] = 1e6;
    daekit::use_testset_reference(info_, water_reference_text, "water.ref");
    y0_ = daekit::testset_data(water_initial_text, "water.y0", 49).values;
    differentiate_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 49; ++i) y[i] = y0_[i];
    yp.setZero();  // the source's consistent y'(0)
  }

  template <class T>
  daekit::Eval rhs_of(double t, const T* y, T* f) {
    using std::abs, std::log10, std::sqrt;
    std::array<T, nodes + 1> p{}, netflow{};
    for (int k = 0; k < nodes; ++k) p[pressure_node[k]] = y[36 + k];
    // Inflow at nodes 1 and 13, demand at node 10, over the day (t in hours).
    const double hours = t / 3600.0, h2 = hours * hours;
    netflow[1] += (1.0 - std::cos(std::exp(-hours) - 1.0)) / 200.0;
    netflow[13] += (1.0 - std::cos(std::exp(-hours) - 1.0)) / 80.0;
    netflow[10] -= h2 * (3.0 * h2 - 92.0 * hours + 720.0) / 1e6;
    for (int e = 0; e < pipes; ++e) {
      const auto [from, to] = pipe[e];
      const T& phi = y[e];
      const T& lambda = y[18 + e];
      if (lambda < 0.0) return daekit::Eval::recoverable;  // sqrt(lambda)
      const T rtla = sqrt(lambda);
      const T reynolds = abs(phi * d / (nu * area));
      if (reynolds > rcrit) {
        f[18 + e] = 1.0 / rtla - 1.74 + 2.0 * log10(2.0 * roughness / d + 18.7 / (reynolds * rtla));
        f[e] = p[from] - p[to] - lambda * rho * length * phi * phi / (area * area * d);
      } else {
        f[18 + e] = 1.0 / rtla - 1.74 + 2.0 * log10(2.0 * roughness / d + 18.7 / (rcrit * rtla));
        f[e] = p[from] - p[to] - 32.0 * mu * length * phi / (area * d * d);
      }
      netflow[to] += phi;
      netflow[from] -= phi;
    }
    for (int k = 0; k < nodes; ++k) f[36 + k] = netflow[pressure_node[k]];
    return daekit::Eval::ok;
  }

  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    for (int i = 0; i < 18; ++i) m(i, i) = rho * length / area;
    m(36, 36) = m(37, 37) = b / (rho * g);
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(WaterTube, water, "0.1.0", "water tube system: index-2 DAE, n=49 (IVP Test Set)")
