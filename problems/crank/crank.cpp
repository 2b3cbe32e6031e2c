// The slider crank of the IVP Test Set in two formulations:
//  * `crank`: the test set's 24 unknowns y = (x 7 | x' 7 | x'' 7 | lambda 3) with the
//    constant mass matrix diag(I14, 0): x' = v, v' = w, 0 = M(x) w - F + G^T lambda,
//    and the constraints on velocity level (index 2, the tested variant), or on
//    position (index 3) or acceleration level (index 1) with parameter `index`;
//  * `crank17`: the accelerations eliminated, y = (x 7 | v 7 | lambda 3) with the
//    configuration-dependent singular mass matrix diag(I7, M(x), 0):
//    M(x) v' = F - G^T lambda, 0 = G v + dg/dt (index 2).
// Both have the same solution; crank17's reference is crank's components 1-14, 22-24.
// crank's physical constants are real parameters under the test set's names (M2, L1, EE,
// RHO, OMEGA, ...); crank17's are not: its mass matrix depends on them, and df/dp with M
// fixed would leave out dM/dp y'.
// df/dy is exact for both, by the SDK's forward-mode differentiation of the model.
#include <cmath>
#include <daekit/sdk/data_text.hpp>
#include <span>
#include <daekit/sdk/export_problem.hpp>
#include <stdexcept>
#include <type_traits>

#include "crank_initial.inc"
#include "crank_reference.inc"
#include "slider_crank_model.hpp"

namespace {

using namespace daekit::crank;

const char* const coordinate_names[7] = {"phi1", "phi2", "x3", "q1", "q2", "q3", "q4"};

std::vector<daekit::ParamDesc> model_parameters() {
  return {{"nonlinear_stiffness", "0", "1: include the rod's nonlinear stiffness term (no reference then)"},
          {"damping", "0", "1: 0.5 % structural damping of the rod (no reference then)"}};
}

Options model_options(const daekit::Params& params) {
  return {params.flag("nonlinear_stiffness"), params.flag("damping")};
}

daekit::DataFile load(const char* text, const char* file, std::size_t n) {
  auto data = daekit::parse_data_text(text, file);
  if (data.values.size() != n) throw std::runtime_error(std::string(file) + " has the wrong length");
  return data;
}

template <class T>
bool finite(const KinematicsOf<T>& k) {
  if constexpr (std::is_same_v<T, double>) {  // f's path: Eigen's vectorised test
    return k.mass.allFinite() && k.force.allFinite() && k.g.allFinite() && k.velocity.allFinite();
  } else {
    auto all = [](const auto& m) {
      for (Eigen::Index i = 0; i < m.size(); ++i)
        if (!std::isfinite(m.data()[i].v)) return false;
      return true;
    };
    return all(k.mass) && all(k.force) && all(k.g) && all(k.velocity);
  }
}

class Crank : public daekit::AutoDiffProblem<Crank> {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    auto p = model_parameters();
    p.push_back({"index", "2", "level of the constraints: 2 velocity (the test set's), 3 position, 1 acceleration"});
    return p;
  }

  explicit Crank(const daekit::Params& params)
      : options_(model_options(params)), model_(options_), index_(params.integer("index")) {
    if (index_ < 1 || index_ > 3) throw std::invalid_argument("crank: index must be 1, 2 or 3");
    auto& in = info_;
    in.name = "crank";
    in.title = "slider crank with elastic rod, 24 unknowns, index-" + std::to_string(index_) + " formulation";
    in.n = 24;
    in.t0 = 0.0;
    in.tend = 0.1;
    in.mass = daekit::MassKind::constant;
    in.consistent_y0 = false;  // printed to 9 digits: the constraints are violated by up to ~2e-7
    in.has_yp0 = true;
    in.differential.assign(24, 0);
    in.index.assign(24, 1);
    for (int i = 0; i < 14; ++i) in.differential[i] = 1;
    // Index of each component as the test set's IND array gives it for this formulation.
    if (index_ == 2)
      for (int i = 14; i < 24; ++i) in.index[i] = 2;
    if (index_ == 3) {
      for (int i = 7; i < 14; ++i) in.index[i] = 2;
      for (int i = 14; i < 24; ++i) in.index[i] = 3;
    }
    for (const char* stem : {"", "v_", "a_"})
      for (const char* c : coordinate_names) in.component_names.push_back(std::string(stem) + c);
    for (std::size_t i = 1; i <= 3; ++i) in.component_names.push_back(daekit::numbered("lambda", i));
    const Constants nominal;
    for (std::size_t j = 0; j < Constants::count; ++j)
      in.parameters.push_back({Constants::names[j], nominal.values()[j], 0.0});
    const Options o = model_options(params);
    y0_ = load(crank_initial_text, "crank.y0", 24).values;
    if (!o.nonlinear_stiffness && !o.damping) {
      auto ref = load(crank_reference_text, "crank.ref", 24);
      in.reference = ref.values;
      in.reference_t = in.tend;
      in.scored.assign(24, 0);
      for (int i = 0; i < 7; ++i) in.scored[i] = 1;
      for (int i = 21; i < 24; ++i) in.scored[i] = 1;
      in.reference_source = "IVP Test Set 2.4 (" + ref.comment_field("reference computed with") + ")";
    }
    differentiate_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 24; ++i) y[i] = y0_[i];
    yp.setZero();
    yp.head<14>() = y.segment<14>(7);
  }

  template <class T>
  daekit::Eval rhs_of(double t, const T* yp, T* fp) {
    const Eigen::Map<const Eigen::Matrix<T, 24, 1>> y(yp);
    Eigen::Map<Eigen::Matrix<T, 24, 1>> f(fp);
    const Vec7Of<T> x = y.template segment<7>(0), v = y.template segment<7>(7), w = y.template segment<7>(14);
    const Vec3Of<T> lambda = y.template segment<3>(21);
    KinematicsOf<T> k;
    model_.evaluate(t, x, v, k);
    if (!finite(k)) return daekit::Eval::recoverable;
    f.template segment<14>(0) = y.template segment<14>(7);
    f.template segment<7>(14) = k.force - k.mass * w - k.g.transpose() * lambda;
    switch (index_) {
      case 3: f.template segment<3>(21) = -k.position; break;
      case 2: f.template segment<3>(21) = -k.velocity; break;
      default: f.template segment<3>(21) = -(k.g * w + k.curvature); break;
    }
    return daekit::Eval::ok;
  }

  // New constants: the model's matrices built again from them (df/dp: the SDK's differences).
  daekit::Eval set_parameters(std::span<const double> p) override {
    Constants c;
    for (std::size_t j = 0; j < Constants::count; ++j) {
      if (!std::isfinite(p[j]) || (j + 1 < Constants::count && !(p[j] > 0.0)))
        return fail(std::string("crank: ") + Constants::names[j] + " must be a positive number");
      c.values()[j] = p[j];
    }
    if (const daekit::Eval e = daekit::Problem::set_parameters(p); e != daekit::Eval::ok) return e;
    model_ = Model(options_, c);
    return daekit::Eval::ok;
  }

 private:
  Options options_;
  Model model_;
  long index_;
  std::vector<double> y0_;
};

class Crank17 : public daekit::AutoDiffProblem<Crank17> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return model_parameters(); }

  explicit Crank17(const daekit::Params& params) : model_(model_options(params)) {
    auto& in = info_;
    in.name = "crank17";
    in.title = "slider crank with elastic rod, 17 unknowns, state-dependent mass matrix (index 2)";
    in.n = 17;
    in.t0 = 0.0;
    in.tend = 0.1;
    in.mass = daekit::MassKind::state_dependent;
    in.consistent_y0 = false;
    in.has_yp0 = true;
    in.differential.assign(17, 1);
    in.index.assign(17, 1);
    for (int i = 14; i < 17; ++i) in.differential[i] = 0, in.index[i] = 2;
    for (const char* stem : {"", "v_"})
      for (const char* c : coordinate_names) in.component_names.push_back(std::string(stem) + c);
    for (std::size_t i = 1; i <= 3; ++i) in.component_names.push_back(daekit::numbered("lambda", i));
    const Options o = model_options(params);
    auto y24 = load(crank_initial_text, "crank.y0", 24).values;
    y0_.assign(y24.begin(), y24.begin() + 14);
    y0_.insert(y0_.end(), y24.begin() + 21, y24.end());
    // The accelerations are the initial velocity derivatives.
    yp0_.assign(y24.begin() + 7, y24.begin() + 21);
    yp0_.resize(17, 0.0);
    if (!o.nonlinear_stiffness && !o.damping) {
      auto ref = load(crank_reference_text, "crank.ref", 24);
      in.reference.assign(ref.values.begin(), ref.values.begin() + 14);
      in.reference.insert(in.reference.end(), ref.values.begin() + 21, ref.values.end());
      in.reference_t = in.tend;
      in.scored.assign(17, 0);
      for (int i = 0; i < 7; ++i) in.scored[i] = 1;
      for (int i = 14; i < 17; ++i) in.scored[i] = 1;
      in.reference_source = "IVP Test Set 2.4, crank's components 1-14 and 22-24 (" +
                            ref.comment_field("reference computed with") + ")";
    }
    differentiate_automatically();
  }

  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    for (int i = 0; i < 17; ++i) y[i] = y0_[i], yp[i] = yp0_[i];
  }

  template <class T>
  daekit::Eval rhs_of(double t, const T* yp, T* fp) {
    const Eigen::Map<const Eigen::Matrix<T, 17, 1>> y(yp);
    Eigen::Map<Eigen::Matrix<T, 17, 1>> f(fp);
    const Vec7Of<T> x = y.template segment<7>(0), v = y.template segment<7>(7);
    const Vec3Of<T> lambda = y.template segment<3>(14);
    KinematicsOf<T> k;
    model_.evaluate(t, x, v, k);
    if (!finite(k)) return daekit::Eval::recoverable;
    f.template segment<7>(0) = v;
    f.template segment<7>(7) = k.force - k.g.transpose() * lambda;
    f.template segment<3>(14) = -k.velocity;
    return daekit::Eval::ok;
  }

  daekit::Eval mass(double t, daekit::ConstVector y, daekit::MatrixView m) override {
    const Vec7 x = y.segment<7>(0), v = y.segment<7>(7);
    model_.evaluate(t, x, v, k_);
    for (int i = 0; i < 7; ++i) m(i, i) = 1.0;
    m.block<7, 7>(7, 7) = k_.mass;
    return k_.mass.allFinite() ? daekit::Eval::ok : daekit::Eval::recoverable;
  }

 private:
  Model model_;
  Kinematics k_;
  std::vector<double> y0_, yp0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Crank, crank, "0.1.0", "slider crank with elastic rod: index-2 DAE, n=24 (IVP Test Set)")
DAEKIT_EXPORT_PROBLEM(Crank17, crank17, "0.1.0",
                      "slider crank, 17 unknowns with state-dependent mass matrix M(x) (index-2 DAE)")
