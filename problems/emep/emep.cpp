// The EMEP MSC-W ozone chemistry (IVP Test Set `emep`): 66 species in a box model of
// the boundary layer over four and a half days, t in [4 h, 116 h] in seconds, with
// emissions, deposition and photolysis that switches on at 4 h and off at 20 h every
// day: the 8 breakpoints where the test set restarts its integrators.
// Concentrations span 1e-36 to 1e14 molecules / cm^3; the test set runs with atol = 1.
#include <array>
#include <limits>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "emep_chemistry.hpp"
#include "emep_initial.inc"
#include "emep_reference.inc"

namespace {

constexpr int n = emep::species;
constexpr double hour = 3600.0;

// A value with its derivative in one direction (forward-mode differentiation): the
// rates evaluated on (y, e_j) give column j of the Jacobian exactly, from the same
// equations as f. One direction at a time keeps the type trivial (66 cheap passes);
// Eigen's AutoDiffScalar with all 66 directions at once took over 20 minutes to
// compile under the sanitizers.
struct Dual {
  double v = 0.0, d = 0.0;
};
inline Dual operator+(Dual a, Dual b) { return {a.v + b.v, a.d + b.d}; }
inline Dual operator-(Dual a, Dual b) { return {a.v - b.v, a.d - b.d}; }
inline Dual operator*(Dual a, Dual b) { return {a.v * b.v, a.d * b.v + a.v * b.d}; }
inline Dual operator+(Dual a, double b) { return {a.v + b, a.d}; }
inline Dual operator+(double a, Dual b) { return {a + b.v, b.d}; }
inline Dual operator-(Dual a, double b) { return {a.v - b, a.d}; }
inline Dual operator-(double a, Dual b) { return {a - b.v, -b.d}; }
inline Dual operator*(Dual a, double b) { return {a.v * b, a.d * b}; }
inline Dual operator*(double a, Dual b) { return {a * b.v, a * b.d}; }

class Emep : public daekit::Problem {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Emep(const daekit::Params&) {
    auto& in = info_;
    in.name = "emep";
    in.title = "EMEP MSC-W ozone chemistry: 66 species, diurnal photolysis, stiff ODE";
    in.n = n;
    in.t0 = 4 * hour;
    in.tend = 116 * hour;
    in.analytic_jacobian = true;
    in.component_names = {"NO",     "NO2",    "SO2",    "CO",      "CH4",    "C2H6",   "NC4H10", "C2H4",
                          "C3H6",   "OXYL",   "HCHO",   "CH3CHO",  "MEK",    "O3",     "HO2",    "HNO3",
                          "H2O2",   "H2",     "CH3O2",  "C2H5OH",  "SA",     "CH3O2H", "C2H5O2", "CH3COO",
                          "PAN",    "SECC4H", "MEKO2",  "R2OOH",   "ETRO2",  "MGLYOX", "PRRO2",  "GLYOX",
                          "OXYO2",  "MAL",    "MALO2",  "OP",      "OH",     "OD",     "NO3",    "N2O5",
                          "ISOPRE", "NITRAT", "ISRO2",  "MVK",     "MVKO2",  "CH3OH",  "RCO3H",  "OXYO2H",
                          "BURO2H", "ETRO2H", "PRRO2H", "MEKO2H",  "MALO2H", "MACR",   "ISNI",   "ISRO2H",
                          "MARO2",  "MAPAN",  "CH2CCH3", "ISONO3", "ISNIR",  "MVKO2H", "CH2CHR", "ISNO3H",
                          "ISNIRH", "MARO2H"};
    // Sunset and sunrise: 20 h and 4 h of every day after the first start.
    for (int day = 0; day < 4; ++day) {
      in.tstops.push_back((20 + 24 * day) * hour);
      in.tstops.push_back((28 + 24 * day) * hour);
    }
    daekit::use_testset_reference(info_, emep_reference_text, "emep.ref");
    // Every component but O(3P) and O(1D) (36, 38), whose values are ~1e-36 at night.
    in.scored.assign(n, DK_SCORED_RELATIVE);
    in.scored[35] = in.scored[37] = DK_SCORED_NO;
    y0_ = daekit::testset_data(emep_initial_text, "emep.y0", n).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < n; ++i) y[i] = y0_[i];
  }

  daekit::Eval rhs(double t, daekit::ConstVector y, daekit::Vector f) override {
    emep::rates_of_change(coefficients(t), y.data(), f.data());
    return daekit::Eval::ok;
  }

  daekit::Eval jacobian(double t, daekit::ConstVector y, daekit::MatrixView dfdy) override {
    const emep::Coefficients& c = coefficients(t);
    for (int i = 0; i < n; ++i) x_[i] = {y[i], 0.0};
    for (int j = 0; j < n; ++j) {
      x_[j].d = 1.0;
      emep::rates_of_change(c, x_.data(), r_.data());
      for (int i = 0; i < n; ++i) dfdy(i, j) = r_[i].d;
      x_[j].d = 0.0;
    }
    return daekit::Eval::ok;
  }

 private:
  // The coefficients (about 100 exponentials) depend on t only, and solvers evaluate f
  // many times at one t (stages, differences, the Jacobian): computed once per t.
  const emep::Coefficients& coefficients(double t) {
    if (t != coefficients_t_) coefficients_ = emep::coefficients_at(t), coefficients_t_ = t;
    return coefficients_;
  }

  std::vector<double> y0_;
  emep::Coefficients coefficients_;
  double coefficients_t_ = std::numeric_limits<double>::quiet_NaN();
  std::array<Dual, n> x_, r_;
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Emep, emep, "0.1.0", "EMEP MSC-W ozone chemistry: stiff ODE, n=66, 8 breakpoints (IVP Test Set)")
