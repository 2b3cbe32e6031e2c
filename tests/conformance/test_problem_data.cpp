// The problems as the test set defines them: analytic Jacobians against finite
// differences, consistent initial values, references of the right size and
// identical to the test set's files.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/sdk/data_text.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness.hpp"

using namespace daekit;

namespace {

struct Evaluator {
  const dk_problem& p;
  Eigen::VectorXd f(const Eigen::VectorXd& y) const {
    Eigen::VectorXd out(y.size());
    REQUIRE(p.vtbl->rhs(p.self, 0.0, y.data(), out.data()) == DK_EVAL_OK);
    return out;
  }
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& y) const {
    Eigen::MatrixXd j(y.size(), y.size());
    REQUIRE(p.vtbl->jacobian);
    REQUIRE(p.vtbl->jacobian(p.self, 0.0, y.data(), j.data(), static_cast<std::size_t>(y.size())) == DK_EVAL_OK);
    return j;
  }
  // Central differences, accurate to ~1e-10 relative for these smooth models.
  Eigen::MatrixXd fd_jacobian(const Eigen::VectorXd& y) const {
    Eigen::MatrixXd j(y.size(), y.size());
    for (Eigen::Index c = 0; c < y.size(); ++c) {
      const double d = 1e-6 * std::max(1.0, std::abs(y[c]));
      Eigen::VectorXd a = y, b = y;
      a[c] += d;
      b[c] -= d;
      j.col(c) = (f(a) - f(b)) / (2 * d);
    }
    return j;
  }
};

void check_jacobian(const std::string& name, std::map<std::string, std::string> params = {}) {
  loader::ProblemInstance problem(*test::registry().find(name), params);
  std::vector<double> y0v, yp0;
  problem.initial_values(y0v, yp0);
  Eigen::VectorXd y0 = Eigen::Map<Eigen::VectorXd>(y0v.data(), y0v.size());
  Evaluator e{problem.handle()};
  Eigen::VectorXd perturbed = y0;
  for (Eigen::Index i = 0; i < y0.size(); ++i) perturbed[i] += 0.01 * std::sin(1.0 + i) * (1.0 + std::abs(y0[i]));
  for (const Eigen::VectorXd& y : {y0, perturbed}) {
    const Eigen::MatrixXd ja = e.jacobian(y), jf = e.fd_jacobian(y);
    const double scale = std::max(1.0, jf.cwiseAbs().maxCoeff());
    INFO(name << ": max |analytic - fd| = " << (ja - jf).cwiseAbs().maxCoeff() << " at scale " << scale);
    CHECK((ja - jf).cwiseAbs().maxCoeff() <= 1e-6 * scale);
  }
}

}  // namespace

TEST_CASE("analytic Jacobians agree with finite differences", "[conformance][problems]") {
  check_jacobian("fekete");
  check_jacobian("fekete", {{"N", "7"}});
  check_jacobian("rober");
  check_jacobian("rober_dae");
  check_jacobian("hires");
  check_jacobian("vdpol");
  check_jacobian("vdpolm");
  check_jacobian("orego");
  check_jacobian("e5");
  check_jacobian("chemakzo");
  check_jacobian("caraxis");
  check_jacobian("transamp");
  check_jacobian("pollu");
  check_jacobian("brusselator", {{"N", "5"}});
  check_jacobian("plei");
  check_jacobian("medakzo");
  check_jacobian("fekete3");
  check_jacobian("fekete3", {{"N", "6"}});
  check_jacobian("ringmod");
  check_jacobian("emep");  // by automatic differentiation of the same equations
}

TEST_CASE("Fekete's initial values satisfy the constraints and the hidden constraint", "[conformance][problems]") {
  for (const char* n : {"20", "5", "40"}) {
    loader::ProblemInstance problem(*test::registry().find("fekete"), {{"N", n}});
    const int N = std::stoi(n);
    std::vector<double> y0, yp0;
    problem.initial_values(y0, yp0);
    Evaluator e{problem.handle()};
    const Eigen::VectorXd f = e.f(Eigen::Map<Eigen::VectorXd>(y0.data(), y0.size()));
    // Position and velocity constraints (the algebraic rows of f) vanish.
    CHECK(f.tail(2 * N).cwiseAbs().maxCoeff() < 1e-12);
    // d/dt (p . q) = p . q' = 0 as well (that is how lambda is chosen).
    for (int i = 0; i < N; ++i) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += y0[3 * i + k] * f[3 * N + 3 * i + k];
      CHECK(std::abs(s) < 1e-12);
    }
    CHECK(problem.info().flags & DK_PROBLEM_CONSISTENT_Y0);
  }
}

TEST_CASE("tba starts in the steady state the test set gives: q(0) = g(U0), q'(0) = i(0, U0) = 0",
          "[conformance][problems]") {
  loader::ProblemInstance problem(*test::registry().find("tba"), {});
  std::vector<double> y0, yp0;
  problem.initial_values(y0, yp0);
  REQUIRE(y0.size() == 350);
  const Eigen::VectorXd f = Evaluator{problem.handle()}.f(Eigen::Map<Eigen::VectorXd>(y0.data(), 350));
  // U0 is a DC operating point: every node's currents balance. A wrong wiring or device
  // law leaves O(1) imbalances; measured max |i| 4.1e-7, in the conducting channels
  // (currents ~15 there: the operating point is accurate to ~3e-8 relative).
  CHECK(f.head(175).cwiseAbs().maxCoeff() < 1e-6);
  CHECK(f.tail(175).cwiseAbs().maxCoeff() == 0.0);
  CHECK(y0[175 + 48] == 0.204040692499482);  // U49, the output S0
  for (double v : yp0) CHECK(v == 0.0);
}

TEST_CASE("the embedded references are the test set's data, with the right size", "[conformance][problems]") {
  struct Case {
    const char* problem;
    const char* file;
    std::size_t n;
  };
  for (const Case& c : {Case{"fekete", "fekete.ref", 160}, Case{"rober", "rober.ref", 3},
                        Case{"rober_dae", "rober.ref", 3}, Case{"hires", "hires.ref", 8}, Case{"vdpol", "vdpol.ref", 2},
                        Case{"crank", "crank.ref", 24}, Case{"vdpolm", "vdpolm.ref", 2},
                        Case{"orego", "orego.ref", 3}, Case{"e5", "e5.ref", 4}, Case{"chemakzo", "chemakzo.ref", 6},
                        Case{"andrews", "andrews.ref", 27}, Case{"caraxis", "caraxis.ref", 10},
                        Case{"transamp", "transamp.ref", 8}, Case{"pollu", "pollu.ref", 20},
                        Case{"plei", "plei.ref", 28}, Case{"medakzo", "medakzo.ref", 400},
                        Case{"nand", "nand.ref", 14}, Case{"ringmod", "ringmod.ref", 15},
                        Case{"beam", "beam.ref", 80}, Case{"water", "water.ref", 49},
                        Case{"wheel", "wheel.ref", 17}, Case{"pump", "pump.ref", 9},
                        Case{"tba", "tba.ref", 350}, Case{"emep", "emep.ref", 66}}) {
    loader::ProblemInstance problem(*test::registry().find(c.problem), {});
    std::vector<double> ref;
    REQUIRE(problem.reference(ref));
    CHECK(ref.size() == c.n);
    CHECK(problem.info().reference_t == problem.info().tend);
    CHECK_THAT(std::string(problem.info().reference_source), Catch::Contains("IVP Test Set"));
    // The copy in the repository must equal the catalog's file, where the catalog is present.
    const std::filesystem::path original = std::filesystem::path(test::testset_dir()) / c.file;
    if (!std::filesystem::exists(original)) continue;
    std::ifstream in(original);
    std::stringstream text;
    text << in.rdbuf();
    const auto data = parse_data_text(text.str(), c.file);
    REQUIRE(data.values.size() == c.n);
    for (std::size_t i = 0; i < c.n; ++i) CHECK(ref[i] == data.values[i]);
  }
  loader::ProblemInstance other(*test::registry().find("fekete"), {{"N", "10"}});
  std::vector<double> none;
  CHECK_FALSE(other.reference(none));
}
