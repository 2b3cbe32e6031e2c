// The air pollution model of Verwer (IVP Test Set `pollu`): the chemistry of the
// Dutch National Institute of Public Health's atmospheric model, 20 species and 25
// reactions, on [0, 60]. The mechanism is data: each reaction's rate constant and
// reactants, and each species' production and consumption; f and its Jacobian are
// computed from it (mass-action kinetics). The 25 rate constants are real parameters,
// k1 .. k25 as the test set names them, with df/dp (each rate is linear in its constant).
#include <array>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>
#include <vector>

#include "pollu_initial.inc"
#include "pollu_reference.inc"

namespace {

struct Reaction {
  double rate;
  std::vector<int> reactants;  // 1-based species, as in the source
};

// Rate constants (the nominal values of k1 .. k25) and reactants of the 25 reactions
// (the test set's pollu.f).
const std::array<Reaction, 25> reactions = {{
    {.35, {1}},          {.266e2, {2, 4}},  {.123e5, {5, 2}},  {.86e-3, {7}},     {.82e-3, {7}},
    {.15e5, {7, 6}},     {.13e-3, {9}},     {.24e5, {9, 6}},   {.165e5, {11, 2}}, {.9e4, {11, 1}},
    {.22e-1, {13}},      {.12e5, {10, 2}},  {.188e1, {14}},    {.163e5, {1, 6}},  {.48e7, {3}},
    {.35e-3, {4}},       {.175e-1, {4}},    {.1e9, {16}},      {.444e12, {16}},   {.124e4, {17, 6}},
    {.21e1, {19}},       {.578e1, {19}},    {.474e-1, {1, 4}}, {.178e4, {19, 1}}, {.312e1, {20}},
}};

// f_s = sum of +-r_j over the signed, 1-based reaction numbers of species s (a
// reaction that makes two molecules appears twice).
const std::array<std::vector<int>, 20> balance = {{
    {-1, -10, -14, -23, -24, 2, 3, 9, 11, 12, 22, 25},
    {-2, -3, -9, -12, 1, 21},
    {-15, 1, 17, 19, 22},
    {-2, -16, -17, -23, 15},
    {-3, 4, 4, 6, 7, 13, 20},
    {-6, -8, -14, -20, 3, 18, 18},
    {-4, -5, -6, 13},
    {4, 5, 6, 7},
    {-7, -8},
    {-12, 7, 9},
    {-9, -10, 8, 11},
    {9},
    {-11, 10},
    {-13, 12},
    {14},
    {-18, -19, 16},
    {-20},
    {20},
    {-21, -22, -24, 23, 25},
    {-25, 24},
}};

class Pollution : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() {
    return {{"nonnegative", "true", "declare the 20 concentrations >= 0 (sign constraints)"}};
  }

  explicit Pollution(const daekit::Params& params) {
    // Concentrations: a step that drives one below zero is rejected or projected (at
    // rtol 1e-1 ndf otherwise ended with relative errors of 3e6).
    if (params.flag("nonnegative")) info_.constraints.assign(20, DK_CONSTRAINT_NON_NEGATIVE);
    info_.name = "pollu";
    info_.title = "air pollution chemistry (Verwer): 20 species, 25 reactions, stiff ODE";
    info_.n = 20;
    info_.tend = 60.0;
    info_.analytic_jacobian = true;
    info_.autonomous = true;
    info_.component_names = daekit::numbered_names("y", 20);
    daekit::use_testset_reference(info_, pollu_reference_text, "pollu.ref");
    y0_ = daekit::testset_data(pollu_initial_text, "pollu.y0", 20).values;
    for (std::size_t j = 0; j < reactions.size(); ++j) {
      std::string name = "k";  // (name + number: gcc 12 warns falsely on "k" + std::string)
      name += std::to_string(j + 1);
      info_.parameters.push_back({name, reactions[j].rate, reactions[j].rate});
    }
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < 20; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double, daekit::ConstVector y, daekit::Vector f) override {
    std::array<double, 25> r;
    for (std::size_t j = 0; j < reactions.size(); ++j) {
      r[j] = p(j);
      for (int s : reactions[j].reactants) r[j] *= y[s - 1];
    }
    for (std::size_t s = 0; s < balance.size(); ++s) {
      f[static_cast<Eigen::Index>(s)] = 0.0;
      for (int term : balance[s]) f[static_cast<Eigen::Index>(s)] += term > 0 ? r[term - 1] : -r[-term - 1];
    }
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double, daekit::ConstVector y, daekit::MatrixView jac) override {
    // d r_j / d y_k for each reactant k: the rate times the other reactants.
    std::array<std::array<double, 2>, 25> dr{};
    for (std::size_t j = 0; j < reactions.size(); ++j) {
      const auto& in = reactions[j].reactants;
      for (std::size_t a = 0; a < in.size(); ++a) {
        dr[j][a] = p(j);
        for (std::size_t b = 0; b < in.size(); ++b)
          if (b != a) dr[j][a] *= y[in[b] - 1];
      }
    }
    for (std::size_t s = 0; s < balance.size(); ++s)
      for (int term : balance[s]) {
        const std::size_t j = static_cast<std::size_t>(std::abs(term) - 1);
        const auto& in = reactions[j].reactants;
        for (std::size_t a = 0; a < in.size(); ++a)
          jac(static_cast<Eigen::Index>(s), in[a] - 1) += term > 0 ? dr[j][a] : -dr[j][a];
      }
    return daekit::Eval::ok;
  }

  // d f_s / d k_j: +- the product of reaction j's reactants, for each of its terms in f_s.
  daekit::Eval dfdp(double, daekit::ConstVector y, daekit::MatrixView d) override {
    for (std::size_t s = 0; s < balance.size(); ++s)
      for (int term : balance[s]) {
        const std::size_t j = static_cast<std::size_t>(std::abs(term) - 1);
        double product = 1.0;
        for (int k : reactions[j].reactants) product *= y[k - 1];
        d(static_cast<Eigen::Index>(s), static_cast<Eigen::Index>(j)) += term > 0 ? product : -product;
      }
    return daekit::Eval::ok;
  }

 private:
  std::vector<double> y0_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Pollution, pollu, "0.1.0", "air pollution chemistry: stiff ODE, n=20 (IVP Test Set)")
