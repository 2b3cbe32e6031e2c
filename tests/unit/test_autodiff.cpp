// The SDK's forward-mode differentiation: dual arithmetic against differences, and a
// template right-hand side that gets its exact Jacobian, dense and compressed by colour.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/daekit.hpp>
#include <daekit/sdk/autodiff.hpp>
#include <functional>

namespace {

using D = daekit::Dual<3>;

// Central difference of a scalar function, for comparison.
double derivative(const std::function<double(double)>& g, double x) {
  const double h = 1e-6 * std::max(1.0, std::abs(x));
  return (g(x + h) - g(x - h)) / (2 * h);
}

// A 1D reaction-diffusion chain with nonlinear kinetics (tridiagonal df/dy):
//   y_i' = (y_{i-1} - 2 y_i + y_{i+1}) / dx^2 + exp(-y_i) sqrt(1 + y_i^2) - y_i^3 / (1 + y_i^2) + 0.1 sin(t) pow(1.5, y_i)
class Chain : public daekit::AutoDiffProblem<Chain> {
 public:
  explicit Chain(std::size_t n, bool with_pattern) {
    info_.name = with_pattern ? "chain_sparse" : "chain_dense";
    info_.n = n;
    info_.tend = 0.1;
    if (with_pattern) {
      for (std::size_t j = 0; j < n; ++j) {
        info_.jac_col_ptr.push_back(static_cast<std::int32_t>(info_.jac_row_idx.size()));
        for (std::size_t i = j == 0 ? 0 : j - 1; i <= std::min(n - 1, j + 1); ++i)
          info_.jac_row_idx.push_back(static_cast<std::int32_t>(i));
      }
      info_.jac_col_ptr.push_back(static_cast<std::int32_t>(info_.jac_row_idx.size()));
    }
    differentiate_automatically();
  }
  void initial_values(daekit::Vector y, daekit::Vector) override {
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = std::sin(3.0 * static_cast<double>(i) / static_cast<double>(y.size()));
  }
  template <class T>
  daekit::Eval rhs_of(double t, const T* y, T* f) {
    using std::exp, std::sqrt, std::sin, std::pow;
    ++(std::is_same_v<T, double> ? double_passes : dual_passes);
    const std::size_t n = info_.n;
    const double dx2 = 1.0 / static_cast<double>((n + 1) * (n + 1));
    for (std::size_t i = 0; i < n; ++i) {
      const T left = i > 0 ? y[i - 1] : T(0.0), right = i + 1 < n ? y[i + 1] : T(0.0);
      f[i] = (left - 2.0 * y[i] + right) / dx2 + exp(-y[i]) * sqrt(1.0 + y[i] * y[i]) -
             y[i] * y[i] * y[i] / (1.0 + y[i] * y[i]) + 0.1 * sin(t) * pow(1.5, y[i]);
    }
    return daekit::Eval::ok;
  }
  int double_passes = 0, dual_passes = 0;
};

}  // namespace

TEST_CASE("dual numbers differentiate the elementary functions and arithmetic exactly") {
  const double x = 0.7;
  D a(x);
  a.d[1] = 1.0;  // differentiate in direction 1
  const struct {
    const char* name;
    std::function<D(const D&)> dual;
    std::function<double(double)> plain;
  } cases[] = {
      {"exp", [](const D& v) { return exp(v); }, [](double v) { return std::exp(v); }},
      {"log", [](const D& v) { return log(v); }, [](double v) { return std::log(v); }},
      {"log10", [](const D& v) { return log10(v); }, [](double v) { return std::log10(v); }},
      {"sqrt", [](const D& v) { return sqrt(v); }, [](double v) { return std::sqrt(v); }},
      {"sin", [](const D& v) { return sin(v); }, [](double v) { return std::sin(v); }},
      {"cos", [](const D& v) { return cos(v); }, [](double v) { return std::cos(v); }},
      {"tan", [](const D& v) { return tan(v); }, [](double v) { return std::tan(v); }},
      {"atan", [](const D& v) { return atan(v); }, [](double v) { return std::atan(v); }},
      {"tanh", [](const D& v) { return tanh(v); }, [](double v) { return std::tanh(v); }},
      {"pow(x, 2.5)", [](const D& v) { return pow(v, 2.5); }, [](double v) { return std::pow(v, 2.5); }},
      {"pow(2, x)", [](const D& v) { return pow(2.0, v); }, [](double v) { return std::pow(2.0, v); }},
      {"pow(x, x)", [](const D& v) { return pow(v, v); }, [](double v) { return std::pow(v, v); }},
      {"quotient", [](const D& v) { return (3.0 - v) / (v * v + 1.0) - 2.0 / v; },
       [](double v) { return (3.0 - v) / (v * v + 1.0) - 2.0 / v; }},
      {"abs(-x)", [](const D& v) { return abs(-v); }, [](double v) { return std::abs(-v); }},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const D r = c.dual(a);
    CHECK(r.v == Approx(c.plain(x)).epsilon(1e-15));
    CHECK(r.d[1] == Approx(derivative(c.plain, x)).epsilon(1e-7));
    CHECK(r.d[0] == 0.0);
    CHECK(r.d[2] == 0.0);
  }
}

TEST_CASE("a template rhs gets its exact Jacobian, dense and compressed by colouring, and solvers use it") {
  const std::size_t n = 50;
  Chain dense(n, false), sparse(n, true);
  Eigen::VectorXd y(n), yp(n), f(n), fp(n), fm(n);
  dense.initial_values(daekit::Vector(y.data(), y.size()), daekit::Vector(yp.data(), yp.size()));
  Eigen::MatrixXd J(n, n);
  daekit::MatrixView view(J.data(), n, n, Eigen::OuterStride<>(n));
  REQUIRE(dense.jacobian(0.3, daekit::ConstVector(y.data(), y.size()), view) == daekit::Eval::ok);
  CHECK(dense.dual_passes == 7);  // 50 columns, 8 at a time
  // Against central differences, column by column.
  double worst = 0;
  for (std::size_t j = 0; j < n; ++j) {
    Eigen::VectorXd yj = y;
    const double h = 1e-6 * std::max(1.0, std::abs(y[j]));
    yj[j] += h;
    dense.rhs(0.3, daekit::ConstVector(yj.data(), yj.size()), daekit::Vector(fp.data(), fp.size()));
    yj[j] -= 2 * h;
    dense.rhs(0.3, daekit::ConstVector(yj.data(), yj.size()), daekit::Vector(fm.data(), fm.size()));
    for (std::size_t i = 0; i < n; ++i)
      worst = std::max(worst, std::abs((fp[i] - fm[i]) / (2 * h) - J(i, j)) / std::max(1.0, std::abs(J(i, j))));
  }
  CHECK(worst < 1e-6);
  // The pattern's three colours cost one pass, and give the same values.
  const auto& info = sparse.info();
  Eigen::VectorXd values(info.jac_row_idx.size());
  REQUIRE(sparse.jacobian_sparse(0.3, daekit::ConstVector(y.data(), y.size()), daekit::Vector(values.data(), values.size())) ==
          daekit::Eval::ok);
  CHECK(sparse.passes() == 1);
  CHECK(sparse.dual_passes == 1);
  for (std::size_t j = 0; j < n; ++j)
    for (auto p = info.jac_col_ptr[j]; p < info.jac_col_ptr[j + 1]; ++p)
      CHECK(values[p] == J(info.jac_row_idx[static_cast<std::size_t>(p)], static_cast<Eigen::Index>(j)));

  // Through the library: solvers take the exact Jacobian and never difference f.
  const daekit::Registry registry;
  for (const bool with_pattern : {false, true}) {
    const auto problem = daekit::ProblemHandle::from(std::make_unique<Chain>(n, with_pattern));
    for (const char* solver : {"radau5", "rodas5p", "bdf", "ida"}) {
      INFO(solver << (with_pattern ? " with the pattern" : " dense"));
      daekit::SolveOptions options;
      options.rtol = options.atol = 1e-8;
      const daekit::Solution s = daekit::solve(problem, registry.solver(solver), options);
      CHECK(s.success());
      CHECK(s.stats.jacobian_used == DK_JACOBIAN_ANALYTIC);
      CHECK(s.stats.njac > 0);
    }
  }
}

TEST_CASE("greedy colouring never gives two columns with a common row the same colour") {
  // A 2D 5-point stencil on a 7 x 6 grid.
  const int nx = 7, ny = 6, n = nx * ny;
  std::vector<std::int32_t> col_ptr{0}, row_idx;
  for (int j = 0; j < n; ++j) {
    const int x = j % nx, y = j / nx;
    for (int i : {j - nx, j - 1, j, j + 1, j + nx}) {
      if (i < 0 || i >= n) continue;
      if ((i == j - 1 && x == 0) || (i == j + 1 && x == nx - 1)) continue;
      row_idx.push_back(i);
    }
    (void)y;
    col_ptr.push_back(static_cast<std::int32_t>(row_idx.size()));
  }
  const daekit::ColumnColouring c = daekit::colour_columns(static_cast<std::size_t>(n), col_ptr.data(), row_idx.data());
  const int colours = c.colours;
  const std::vector<int>& colour = c.colour_of;
  CHECK(colours <= 9);  // distance-2 colouring of the 5-point stencil needs few colours
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (colour[a] != colour[b]) continue;
      for (auto p = col_ptr[a]; p < col_ptr[a + 1]; ++p)
        for (auto q = col_ptr[b]; q < col_ptr[b + 1]; ++q) REQUIRE(row_idx[p] != row_idx[q]);
    }
}

namespace {

// A residual-form index-1 DAE with a state-dependent factor on y0':
//   F0 = (1 + y1) y0' + y0 (1 + y0^2) = 0,   F1 = y1 - y0^2 = 0,
// so (1 + y0^2)(y0' + y0) = 0: y0 = e^-t, y1 = e^-2t from y0(0) = 1.
class Coupled : public daekit::AutoDiffResidualProblem<Coupled> {
 public:
  Coupled() {
    info_.name = "coupled_residual";
    info_.n = 2;
    info_.tend = 1.0;
    info_.form = daekit::Form::residual_only;
    info_.consistent_y0 = true;
    info_.has_yp0 = true;
    info_.differential = {1, 0};
    info_.index = {1, 1};
    differentiate_residual_automatically();
  }
  void initial_values(daekit::Vector y, daekit::Vector yp) override {
    y << 1.0, 1.0;
    yp << -1.0, -2.0;
  }
  template <class T>
  daekit::Eval residual_of(double, const T* y, const T* yp, T* r) {
    r[0] = (1.0 + y[1]) * yp[0] + y[0] * (1.0 + y[0] * y[0]);
    r[1] = y[1] - y[0] * y[0];
    return daekit::Eval::ok;
  }
};

}  // namespace

TEST_CASE("a template residual gets its exact dF/dy + cj dF/dy', and the residual-form solvers use it") {
  Coupled p;
  const Eigen::Vector2d y(0.7, 0.3), yp(-0.4, 0.9);
  const double cj = 25.0;
  Eigen::Matrix2d J;
  daekit::MatrixView view(J.data(), 2, 2, Eigen::OuterStride<>(2));
  REQUIRE(p.residual_jacobian(0.0, daekit::ConstVector(y.data(), 2), daekit::ConstVector(yp.data(), 2), cj, view) ==
          daekit::Eval::ok);
  // By hand: dF0/dy0 = 1 + 3 y0^2 + cj (1 + y1), dF0/dy1 = y0', dF1/dy0 = -2 y0, dF1/dy1 = 1.
  CHECK(J(0, 0) == Approx(1.0 + 3 * 0.49 + cj * 1.3).epsilon(1e-15));
  CHECK(J(0, 1) == Approx(-0.4).epsilon(1e-15));
  CHECK(J(1, 0) == Approx(-1.4).epsilon(1e-15));
  CHECK(J(1, 1) == Approx(1.0).epsilon(1e-15));
  CHECK(p.info().analytic_residual_jacobian);

  const daekit::Registry registry;
  const auto problem = daekit::ProblemHandle::from(std::make_unique<Coupled>());
  for (const char* solver : {"ida", "bdf"}) {
    INFO(solver);
    daekit::SolveOptions options;
    options.rtol = options.atol = 1e-9;
    const daekit::Solution s = daekit::solve(problem, registry.solver(solver), options);
    REQUIRE(s.success());
    CHECK(s.stats.jacobian_used == DK_JACOBIAN_ANALYTIC);
    CHECK(s.stats.nfev_jac == 0);
    const auto end = s.y.size() - 2;
    CHECK(s.y[end] == Approx(std::exp(-1.0)).epsilon(1e-6));
    CHECK(s.y[end + 1] == Approx(std::exp(-2.0)).epsilon(1e-6));
  }
}

namespace {

// A cascade with eleven real parameters read as param<T> (two passes of eight):
//   y_0' = -k_0 y_0,   y_i' = -k_i y_i + c y_{i-1}^2   (i = 1 .. 9)
template <bool automatic>
class Cascade : public daekit::AutoDiffProblem<Cascade<automatic>> {
  using Base = daekit::AutoDiffProblem<Cascade<automatic>>;

 public:
  Cascade() {
    this->info_.name = automatic ? "cascade_ad" : "cascade_differences";
    this->info_.n = 10;
    this->info_.tend = 1.0;
    for (int i = 0; i < 10; ++i) this->info_.parameters.push_back({"k" + std::to_string(i), 0.5 + 0.3 * i, 0.0});
    this->info_.parameters.push_back({"c", 0.8, 0.0});
    this->differentiate_automatically();
    if (automatic) this->differentiate_parameters_automatically();
  }
  void initial_values(daekit::Vector y, daekit::Vector) override { y.setConstant(1.0); }
  template <class T>
  daekit::Eval rhs_of(double, const T* y, T* f) {
    for (std::size_t i = 0; i < 10; ++i) {
      f[i] = -this->template param<T>(i) * y[i];
      if (i > 0) f[i] += this->template param<T>(10) * y[i - 1] * y[i - 1];
    }
    return daekit::Eval::ok;
  }
};

}  // namespace

TEST_CASE("df/dp by forward-mode AD where rhs_of reads param<T>: exact, in passes of eight", "[autodiff]") {
  Cascade<true> problem;
  std::vector<double> nominal;  // as the SDK's export sets them before any evaluation
  for (const auto& parameter : problem.info().parameters) nominal.push_back(parameter.nominal);
  REQUIRE(problem.set_parameters(nominal) == daekit::Eval::ok);
  Eigen::VectorXd y(10);
  for (int i = 0; i < 10; ++i) y[i] = 0.3 + 0.1 * i;
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(10, 11);
  REQUIRE(problem.dfdp(0.0, daekit::ConstVector(y.data(), 10), daekit::MatrixView(d.data(), 10, 11, Eigen::OuterStride<>(10))) ==
          daekit::Eval::ok);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(10, 11);
  for (int i = 0; i < 10; ++i) {
    expected(i, i) = -y[i];
    if (i > 0) expected(i, 10) = y[i - 1] * y[i - 1];
  }
  CHECK((d - expected).cwiseAbs().maxCoeff() == 0.0);
  // Without the call the class gives none, and the SDK differences instead.
  Cascade<false> plain;
  REQUIRE(plain.set_parameters(nominal) == daekit::Eval::ok);
  CHECK(plain.dfdp(0.0, daekit::ConstVector(y.data(), 10), daekit::MatrixView(d.data(), 10, 11, Eigen::OuterStride<>(10))) ==
        daekit::Eval::not_provided);
}

TEST_CASE("sensitivities with AD df/dp agree with those on the SDK's differences in p", "[autodiff][sensitivities]") {
  const daekit::Registry registry;
  daekit::SolveOptions options;
  options.rtol = 1e-10;
  options.atol = 1e-12;
  options.output = DK_OUTPUT_END;
  options.sensitivities = {"all"};
  const auto ad = daekit::solve(daekit::ProblemHandle::from(std::make_unique<Cascade<true>>()), registry.solver("bdf"),
                                options);
  const auto fd = daekit::solve(daekit::ProblemHandle::from(std::make_unique<Cascade<false>>()),
                                registry.solver("bdf"), options);
  REQUIRE(ad.success());
  REQUIRE(fd.success());
  REQUIRE(ad.s.size() == fd.s.size());
  double largest = 0.0;
  for (std::size_t k = 0; k < ad.s.size(); ++k) largest = std::max(largest, std::abs(ad.s[k] - fd.s[k]));
  CHECK(largest < 1e-8);
}

TEST_CASE("an AutoDiffProblem's J v is the exact Jacobian times v, in one pass", "[krylov]") {
  Chain chain(30, false);
  Eigen::VectorXd y(30), v(30), jv(30);
  chain.initial_values(daekit::Vector(y.data(), 30), daekit::Vector(jv.data(), 30));
  for (Eigen::Index i = 0; i < 30; ++i) v[i] = std::cos(0.3 * static_cast<double>(i)) - 0.2;
  Eigen::MatrixXd jac = Eigen::MatrixXd::Zero(30, 30);
  const daekit::ConstVector y_view(y.data(), 30);
  REQUIRE(chain.jacobian(0.4, y_view, daekit::MatrixView(jac.data(), 30, 30, Eigen::OuterStride<>(30))) ==
          daekit::Eval::ok);
  const int passes_before = chain.dual_passes;
  REQUIRE(chain.jacobian_vector(0.4, y_view, daekit::ConstVector(v.data(), 30), daekit::Vector(jv.data(), 30)) ==
          daekit::Eval::ok);
  CHECK(chain.dual_passes == passes_before + 1);
  CHECK((jv - jac * v).cwiseAbs().maxCoeff() <= 1e-12 * (jac * v).cwiseAbs().maxCoeff());
}
