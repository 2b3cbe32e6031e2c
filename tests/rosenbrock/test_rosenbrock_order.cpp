// Measured convergence order of every Rosenbrock method at fixed step sizes on
// smooth problems with known solutions: the order of the step on an ODE (the
// method's classical order) and on an index-1 DAE in mass-matrix form (the
// order the tableau documents, which is lower for some methods), and the order
// of the continuous extension at step midpoints.
#include <catch2/catch.hpp>
#include <cmath>
#include <daekit/numerics/error_norm.hpp>
#include <daekit/numerics/iteration_matrix.hpp>
#include <daekit/numerics/mass_matrix.hpp>
#include <daekit/kits/rosenbrock/stepper.hpp>
#include <daekit/sdk/export_problem.hpp>
#include <daekit/kits/rosenbrock/tableaus/all_rosenbrock.hpp>
#include <functional>
#include <iostream>
#include <memory>

#include "fixed_steps.hpp"
#include "smooth_problems.hpp"

using namespace daekit;
using daekit::test::Errors;
using daekit::test::fixed_step_errors_with;
using daekit::test::observed_order;
using daekit::test::SmoothDae;
using daekit::test::CoupledSmoothOde;
using daekit::test::TransformedLinearOde;
using daekit::test::SmoothOde;

namespace {

template <class P>
Errors fixed_step_errors(const tableaus::RosenbrockTableau& tab, int steps, double tend) {
  return fixed_step_errors_with<P>(
      [&](ProblemView& view, const SolveRequest&, const MassMatrix& mass, IterationMatrix& matrix,
          const ErrorNorm& norm) { return std::make_unique<RosenbrockStepper>(tab, view, mass, matrix, norm); },
      steps, tend);
}

// The same with J replaced by its projection onto exactly `dimension` Arnoldi vectors of
// the Krylov space of f(y_n) (linear_solver=arnoldi with the space held at that size).
template <class P>
Errors projected_fixed_step_errors(const tableaus::RosenbrockTableau& tab, int dimension, int steps, double tend) {
  ArnoldiJacobian arnoldi;
  JacobianProduct product;
  return fixed_step_errors_with<P>(
      [&](ProblemView& view, const SolveRequest& request, const MassMatrix& mass, IterationMatrix& matrix,
          const ErrorNorm& norm) {
        auto stepper = std::make_unique<RosenbrockStepper>(tab, view, mass, matrix, norm);
        product.setup(view, request, true);
        arnoldi.setup(view.size(), {dimension, 1});
        stepper->project_jacobian(&arnoldi, &product, 1e-30);
        return stepper;
      },
      steps, tend);
}

struct Orders {
  double step = 0, dense = 0, algebraic = 0;
};

template <class P, class StepErrors>
Orders measure_with(StepErrors&& step_errors) {
  // Halve the step until the error nears round-off, then fit the last three
  // points: fine enough for the asymptotic range (y' = -y^2 still shows order 4.7
  // with Rodas5P between 8 and 16 steps), clear of round-off (below ~1e-13).
  std::vector<int> steps;
  std::vector<Errors> errors;
  for (int s = 8; s <= 4096; s *= 2) {
    Errors e = step_errors(s, 2.0);
    if (e.at_steps < 1e-13) break;
    steps.push_back(s);
    errors.push_back(e);
  }
  REQUIRE(steps.size() >= 3);
  const std::size_t first = steps.size() - 3;
  std::vector<int> used(steps.begin() + first, steps.end());
  std::vector<double> at, off, alg;
  for (std::size_t k = first; k < steps.size(); ++k) {
    at.push_back(errors[k].at_steps);
    off.push_back(errors[k].off_steps);
    alg.push_back(std::max(errors[k].algebraic, 1e-300));
  }
  return {observed_order(used, at), observed_order(used, off), observed_order(used, alg)};
}

template <class P>
Orders measure(const tableaus::RosenbrockTableau& tab) {
  return measure_with<P>([&](int steps, double tend) { return fixed_step_errors<P>(tab, steps, tend); });
}

// The order the interpolated values converge with: the method's own continuous
// extension, else the cubic Hermite fallback (third order), never above the step's.
int expected_dense_order(const tableaus::RosenbrockTableau& tab, int step_order) {
  return std::min(step_order, tab.dense_rows ? tab.dense_order + 1 : 3);
}

}  // namespace

TEST_CASE("every Rosenbrock method converges with its order on a smooth non-autonomous ODE", "[convergence]") {
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  const Orders o = measure<SmoothOde>(*tab);
  std::cout << tab->name << " ODE: order " << o.step << " at steps, " << o.dense << " by dense output\n";
  INFO(tab->name);
  CHECK(std::abs(o.step - tab->order) <= 0.2);
  CHECK(o.dense >= expected_dense_order(*tab, tab->order) - 0.2);
}

TEST_CASE("every Rosenbrock method converges with its documented order on an index-1 DAE",
          "[convergence][dae]") {
  const auto* tab = GENERATE(from_range(tableaus::all_rosenbrock));
  if (tab->max_dae_index < 1) return;  // claims ODEs only
  const Orders o = measure<SmoothDae>(*tab);
  std::cout << tab->name << " index-1 DAE: order " << o.step << " at steps (algebraic " << o.algebraic << "), "
            << o.dense << " by dense output\n";
  INFO(tab->name);
  CHECK(std::abs(o.step - tab->dae_order) <= 0.2);
  CHECK(o.algebraic >= tab->dae_order - 0.2);
}

TEST_CASE("a Rosenbrock-Krylov method keeps its order with J projected onto a few Arnoldi vectors",
          "[convergence]") {
  // Twelve coupled nonlinear components. Autonomous: the Krylov space of f(y_n) held at
  // four vectors; the K-method keeps order 4, an ordinary method of order 4 with the same
  // projection does not (so the projection is really in effect). Non-autonomous: the block
  // space of f(y_n) and f_t at its least, seven vectors; the K-method keeps order 4 (with
  // the space of f(y_n) alone it fell to 2).
  auto projected = [](const tableaus::RosenbrockTableau& tab, auto problem) {
    using P = decltype(problem);
    return measure_with<P>(
        [&](int steps, double tend) { return projected_fixed_step_errors<P>(tab, 4, steps, tend); });
  };
  for (const auto* tab : tableaus::all_rosenbrock) {
    if (!tab->krylov_method) continue;
    const Orders autonomous = projected(*tab, TransformedLinearOde(Params{}));
    const Orders forced = projected(*tab, CoupledSmoothOde(Params{}));
    std::cout << tab->name << " with J projected: order " << autonomous.step << " (autonomous, 4 vectors), "
              << forced.step << " (non-autonomous, 7 vectors)\n";
    INFO(tab->name);
    CHECK(std::abs(autonomous.step - tab->order) <= 0.2);
    CHECK(std::abs(forced.step - tab->order) <= 0.2);
    CHECK(std::abs(measure<TransformedLinearOde>(*tab).step - tab->order) <= 0.2);
  }
  const Orders rodas4 = projected(tableaus::rodas4, TransformedLinearOde(Params{}));
  std::cout << "rodas4 with J projected onto 4 Arnoldi vectors: order " << rodas4.step << "\n";
  CHECK(rodas4.step < tableaus::rodas4.order - 0.5);
}
