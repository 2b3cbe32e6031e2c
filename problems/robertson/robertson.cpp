// Robertson's chemical kinetics (IVP Test Set `rober`): three species, rate
// constants k1 = 0.04, k2 = 3e7 and k3 = 1e4 (the test set's names; real parameters,
// `--param k2=...`), on [0, 1e11]. Three plugins: the ODE as the test
// set writes it, the index-1 DAE in which the third equation is replaced by the
// conservation law y1 + y2 + y3 = 1, and that DAE as a residual F(t, y, y') = 0.
// All have the same solution, so all are scored against the test set's reference.
#include <daekit/sdk/data_text.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>

#include "rober_initial.inc"
#include "rober_reference.inc"

namespace {

class RobertsonBase : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"nonnegative", "true",
             "declare y >= 0 (sign constraints): at loose tolerances a step may otherwise end just "
             "below the equilibrium (0, 0, 1), from where the ODE diverges while every local error "
             "test passes"}};
  }

 protected:
  void describe(const char* name, const char* title, const daekit::Params& params) {
    auto& in = info_;
    // Concentrations: the solution stays in [0, 1]; the constraint keeps steps there.
    if (params.flag("nonnegative")) in.constraints = {DK_CONSTRAINT_NON_NEGATIVE, DK_CONSTRAINT_NON_NEGATIVE,
                                                       DK_CONSTRAINT_NON_NEGATIVE};
    in.name = name;
    in.title = title;
    in.n = 3;
    // The test set's rate constants, by its names: A -> B (k1), 2B -> B + C (k2), B + C -> A + C (k3).
    in.parameters = {{"k1", 0.04, 0.04}, {"k2", 3e7, 3e7}, {"k3", 1e4, 1e4}};
    in.t0 = 0.0;
    in.tend = 1e11;
    in.analytic_jacobian = true;
    in.autonomous = true;
    in.component_names = {"y1", "y2", "y3"};
    in.atol_scale = {1e-4, 1e-4, 1e-4};  // the test set runs rober with atol = 1e-4 * rtol
    auto ref = daekit::parse_data_text(rober_reference_text, "rober.ref");
    if (ref.values.size() != 3) throw std::runtime_error("rober.ref has the wrong length");
    in.reference = ref.values;
    in.reference_t = in.tend;
    in.reference_source = "IVP Test Set 2.4 (" + ref.comment_field("reference computed with") + ")";
    auto y0 = daekit::parse_data_text(rober_initial_text, "rober.y0");
    if (y0.values.size() != 3) throw std::runtime_error("rober.y0 has the wrong length");
    y0_ = y0.values;
  }

  void initial(daekit::Vector y) {
    for (int i = 0; i < 3; ++i) y[i] = y0_[i];
  }

  void kinetics(daekit::ConstVector y, daekit::Vector f) const {
    const double k1 = p(0), k2 = p(1), k3 = p(2);
    f[0] = -k1 * y[0] + k3 * y[1] * y[2];
    f[1] = k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1];
    f[2] = k2 * y[1] * y[1];
  }

  void kinetics_jacobian(daekit::ConstVector y, daekit::MatrixView J) const {
    const double k1 = p(0), k2 = p(1), k3 = p(2);
    J(0, 0) = -k1, J(0, 1) = k3 * y[2], J(0, 2) = k3 * y[1];
    J(1, 0) = k1, J(1, 1) = -k3 * y[2] - 2 * k2 * y[1], J(1, 2) = -k3 * y[1];
    J(2, 0) = 0, J(2, 1) = 2 * k2 * y[1], J(2, 2) = 0;
  }

  // df/dp: the rates are linear in the constants.
  void kinetics_dfdp(daekit::ConstVector y, daekit::MatrixView d) const {
    d(0, 0) = -y[0], d(1, 0) = y[0];
    d(1, 1) = -y[1] * y[1], d(2, 1) = y[1] * y[1];
    d(0, 2) = y[1] * y[2], d(1, 2) = -y[1] * y[2];
  }

  std::vector<double> y0_;
};

class Robertson : public RobertsonBase {
 public:
  explicit Robertson(const daekit::Params& params) {
    describe("rober", "Robertson chemical kinetics, stiff ODE on [0, 1e11]", params);
    info_.has_yp0 = true;
  }
  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    initial(y);
    kinetics(daekit::ConstVector(y.data(), 3), yp);
  }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    kinetics(y, f);
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView J) override {
    kinetics_jacobian(y, J);
    return daekit::Eval::ok;
  }
  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    kinetics_dfdp(y, d);
    return daekit::Eval::ok;
  }
};

class RobertsonDae : public RobertsonBase {
 public:
  explicit RobertsonDae(const daekit::Params& params) {
    describe("rober_dae", "Robertson kinetics as an index-1 DAE with the conservation law y1 + y2 + y3 = 1", params);
    info_.mass = daekit::MassKind::constant;
    info_.differential = {1, 1, 0};
    info_.consistent_y0 = true;
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { initial(y); }
  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    kinetics(y, f);
    f[2] = y[0] + y[1] + y[2] - 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView J) override {
    kinetics_jacobian(y, J);
    J(2, 0) = 1, J(2, 1) = 1, J(2, 2) = 1;
    return daekit::Eval::ok;
  }
  daekit::Eval mass(double, daekit::ConstVector, daekit::MatrixView m) override {
    m(0, 0) = 1, m(1, 1) = 1;
    return daekit::Eval::ok;
  }
  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    kinetics_dfdp(y, d);
    d.row(2).setZero();  // the conservation law holds whatever the rates
    return daekit::Eval::ok;
  }
};

// The DAE written as a residual, F(t, y, y') = 0, with its own residual Jacobian:
// the path implicit solvers take for problems that have no mass-matrix form.
class RobertsonResidual : public RobertsonBase {
 public:
  explicit RobertsonResidual(const daekit::Params& params) {
    describe("rober_residual", "Robertson kinetics as an index-1 DAE in residual form F(t, y, y') = 0", params);
    info_.form = daekit::Form::residual_only;
    info_.differential = {1, 1, 0};
    info_.consistent_y0 = true;
    info_.has_yp0 = true;
    info_.analytic_residual_jacobian = true;
  }
  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    initial(y);
    kinetics(daekit::ConstVector(y.data(), 3), yp);
    yp[2] = 0.0;  // not determined by the residual; any value is consistent
  }
  daekit::Eval rhs(double, daekit::ConstVector, daekit::Vector) override { return daekit::Eval::not_provided; }
  daekit::Eval residual(double, daekit::ConstVector y, daekit::ConstVector yp, daekit::Vector r) override {
    kinetics(y, r);
    r[0] = yp[0] - r[0];
    r[1] = yp[1] - r[1];
    r[2] = y[0] + y[1] + y[2] - 1.0;
    return daekit::Eval::ok;
  }
  daekit::Eval residual_jacobian(double, daekit::ConstVector y, daekit::ConstVector, double cj,
                                 daekit::MatrixView j) override {
    kinetics_jacobian(y, j);
    j.topRows(2) *= -1.0;
    j(0, 0) += cj, j(1, 1) += cj;
    j(2, 0) = 1, j(2, 1) = 1, j(2, 2) = 1;
    return daekit::Eval::ok;
  }
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Robertson, rober, "0.1.0", "Robertson chemical kinetics: stiff ODE, n=3 (IVP Test Set)")
DAEKIT_EXPORT_PROBLEM(RobertsonDae, rober_dae, "0.1.0", "Robertson kinetics as an index-1 DAE with conservation law")
DAEKIT_EXPORT_PROBLEM(RobertsonResidual, rober_residual, "0.1.0",
                      "Robertson kinetics as an index-1 DAE in residual form F(t,y,y')=0")
