// The EMEP MSC-W ozone chemistry (IVP Test Set `emep`): 66 species in a box model of
// the boundary layer over four and a half days, t in [4 h, 116 h] in seconds, with
// emissions, deposition and photolysis that switches on at 4 h and off at 20 h every
// day: the 8 breakpoints where the test set restarts its integrators.
// Concentrations span 1e-36 to 1e14 molecules / cm^3; the test set runs with atol = 1.
#include <array>
#include <limits>
#include <daekit/sdk/autodiff.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/sdk/testset.hpp>

#include "emep_chemistry.hpp"
#include "emep_initial.inc"
#include "emep_reference.inc"

namespace {

constexpr int n = emep::species;
constexpr double hour = 3600.0;

// The rates are one template (emep_chemistry.hpp): on doubles they are f, on the SDK's
// dual numbers (sdk/autodiff.hpp) they give df/dy exactly, 8 columns per pass.
class Emep : public daekit::AutoDiffProblem<Emep> {
 public:
  static std::vector<daekit::ParamDesc> parameters() { return {}; }

  explicit Emep(const daekit::Params&) {
    auto& in = info_;
    in.name = "emep";
    in.title = "EMEP MSC-W ozone chemistry: 66 species, diurnal photolysis, stiff ODE";
    in.n = n;
    in.t0 = 4 * hour;
    in.tend = 116 * hour;
    differentiate_automatically();
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
    // The test set runs with atol = 1 (molecules / cm^3, whatever rtol). The suggestion
    // is that at rtol 1e-6 (atol moves with rtol, from 1e4 at 1e-2 to 1e-3 at 1e-9): at
    // rtol = atol = 1e-6 the fast species' rise at sunrise asked for steps below t's
    // resolution (rodas5p, radau5 and bdf failed at 28 h, 52 h and at the start).
    in.atol_scale.assign(n, 1.0 / 1e-6);
    in.rtol_hint = 1e-6;
    daekit::use_testset_reference(info_, emep_reference_text, "emep.ref");
    // Every component but O(3P) and O(1D) (36, 38), whose values are ~1e-36 at night.
    in.scored.assign(n, DK_SCORED_RELATIVE);
    in.scored[35] = in.scored[37] = DK_SCORED_NO;
    y0_ = daekit::testset_data(emep_initial_text, "emep.y0", n).values;
  }

  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (int i = 0; i < n; ++i) y[i] = y0_[i];
  }

  template <class T>
  daekit::Eval rhs_of(double t, const T* y, T* f) {
    emep::rates_of_change(coefficients(t), y, f);
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
};

}  // namespace

DAEKIT_EXPORT_PROBLEM(Emep, emep, "0.1.0", "EMEP MSC-W ozone chemistry: stiff ODE, n=66, 8 breakpoints (IVP Test Set)")
