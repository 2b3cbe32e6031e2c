// HIRES (IVP Test Set): "High Irradiance RESponse" of photomorphogenesis
// (Schaefer 1975), eight reacting species, a mildly stiff linear system with one
// bilinear reaction (280 y6 y8). Span [0, 321.8122].
#include <daekit/sdk/data_text.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>

#include "hires_initial.inc"
#include "hires_reference.inc"

namespace {

class Hires : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Hires(const daekit::Params&) {
    info_.name = "hires";
    info_.title = "HIRES: high irradiance response of photomorphogenesis, stiff ODE";
    info_.n = 8;
    info_.t0 = 0.0;
    info_.tend = 321.8122;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    for (std::size_t i = 1; i <= 8; ++i) info_.component_names.push_back(daekit::numbered("y", i));
    auto ref = daekit::parse_data_text(hires_reference_text, "hires.ref");
    auto y0 = daekit::parse_data_text(hires_initial_text, "hires.y0");
    if (ref.values.size() != 8 || y0.values.size() != 8) throw std::runtime_error("hires data has the wrong length");
    info_.reference = ref.values;
    info_.reference_t = info_.tend;
    info_.reference_source = "IVP Test Set 2.4 (" + ref.comment_field("reference computed with") + ")";
    y0_ = y0.values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 8; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
    f[1] = 1.71 * y[0] - 8.75 * y[1];
    f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
    f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
    f[4] = -1.745 * y[4] + 0.43 * (y[5] + y[6]);
    f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
    f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
    f[7] = -f[6];
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView j) override {
    j(0, 0) = -1.71, j(0, 1) = 0.43, j(0, 2) = 8.32;
    j(1, 0) = 1.71, j(1, 1) = -8.75;
    j(2, 2) = -10.03, j(2, 3) = 0.43, j(2, 4) = 0.035;
    j(3, 1) = 8.32, j(3, 2) = 1.71, j(3, 3) = -1.12;
    j(4, 4) = -1.745, j(4, 5) = 0.43, j(4, 6) = 0.43;
    j(5, 3) = 0.69, j(5, 4) = 1.71, j(5, 5) = -280.0 * y[7] - 0.43, j(5, 6) = 0.69, j(5, 7) = -280.0 * y[5];
    j(6, 5) = 280.0 * y[7], j(6, 6) = -1.81, j(6, 7) = 280.0 * y[5];
    j(7, 5) = -280.0 * y[7], j(7, 6) = 1.81, j(7, 7) = -280.0 * y[5];
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Hires, hires, "0.1.0", "HIRES photomorphogenesis kinetics: stiff ODE, n=8 (IVP Test Set)")
