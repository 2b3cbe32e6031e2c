// Exact Jacobians for free: write the right-hand side once as a template over the scalar
// type, and derive from daekit::AutoDiffProblem<YourClass>:
//
//   class Brusselator : public daekit::AutoDiffProblem<Brusselator> {
//    public:
//     template <class T> daekit::Eval rhs_of(double t, const T* y, T* f) { ... }
//   };
//
// rhs() evaluates it on doubles; jacobian() on daekit::Dual (sdk/dual.hpp), 8 columns of
// df/dy per pass, dense or, when the problem declares a sparsity pattern
// (jac_col_ptr/jac_row_idx), compressed: columns that share no row get one colour and
// are differentiated together (greedy distance-2 colouring), so a banded or stencil
// Jacobian costs a few passes whatever n is. Exact to rounding: no difference increments,
// no truncation error for Newton's iteration to feel.
//
// Real parameters (ABI 1.3) the same way: read them in rhs_of as param<T>(i) instead of
// p(i), call differentiate_parameters_automatically() in the constructor, and dfdp() is
// the exact df/dp, 8 parameters per pass (without the call the SDK differences in p).
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include "daekit/numerics/column_colouring.hpp"
#include "daekit/sdk/dual.hpp"
#include "daekit/sdk/problem.hpp"

namespace daekit {

inline constexpr int autodiff_directions = 8;
using AutoDiffScalar = Dual<autodiff_directions>;

namespace autodiff_detail {

// A dense Jacobian in passes of 8 columns: seed(j, k, on) puts column j in direction k (or
// takes it out again), evaluate() runs the template function on the seeded duals into r,
// and entry (i, j) is r[i]'s derivative in column j's direction.
template <class Seed, class Evaluate>
Eval dense_passes(Eigen::Index n, Seed seed, Evaluate evaluate, const std::vector<AutoDiffScalar>& r, MatrixView out) {
  for (Eigen::Index j0 = 0; j0 < n; j0 += autodiff_directions) {
    const int width = static_cast<int>(std::min<Eigen::Index>(autodiff_directions, n - j0));
    for (int k = 0; k < width; ++k) seed(static_cast<std::size_t>(j0 + k), static_cast<std::size_t>(k), true);
    const Eval e = evaluate();
    for (int k = 0; k < width; ++k) seed(static_cast<std::size_t>(j0 + k), static_cast<std::size_t>(k), false);
    if (e != Eval::ok) return e;
    for (int k = 0; k < width; ++k)
      for (Eigen::Index i = 0; i < n; ++i) out(i, j0 + k) = r[static_cast<std::size_t>(i)].d[static_cast<std::size_t>(k)];
  }
  return Eval::ok;
}

}  // namespace autodiff_detail

template <class Derived>
class AutoDiffProblem : public Problem {
 public:
  Eval rhs(double t, ConstVector y, Vector f) final { return self().template rhs_of<double>(t, y.data(), f.data()); }

  Eval jacobian(double t, ConstVector y, MatrixView dfdy) final {
    prepare();
    const auto n = static_cast<Eigen::Index>(info_.n);
    for (Eigen::Index i = 0; i < n; ++i) x_[static_cast<std::size_t>(i)] = AutoDiffScalar(y[i]);
    return autodiff_detail::dense_passes(
        n, [&](std::size_t j, std::size_t k, bool on) { x_[j].d[k] = on ? 1.0 : 0.0; },
        [&] { return self().template rhs_of<AutoDiffScalar>(t, x_.data(), r_.data()); }, r_, dfdy);
  }

  Eval jacobian_sparse(double t, ConstVector y, Vector values) final {
    prepare();
    const std::size_t n = info_.n;
    for (std::size_t i = 0; i < n; ++i) x_[i] = AutoDiffScalar(y[static_cast<Eigen::Index>(i)]);
    for (int c0 = 0; c0 < colours_; c0 += autodiff_directions) {
      const int width = std::min(autodiff_directions, colours_ - c0);
      for (int k = 0; k < width; ++k)
        for (const auto j : columns_of_colour_[static_cast<std::size_t>(c0 + k)]) x_[j].d[static_cast<std::size_t>(k)] = 1.0;
      const Eval e = self().template rhs_of<AutoDiffScalar>(t, x_.data(), r_.data());
      for (int k = 0; k < width; ++k)
        for (const auto j : columns_of_colour_[static_cast<std::size_t>(c0 + k)]) x_[j].d[static_cast<std::size_t>(k)] = 0.0;
      if (e != Eval::ok) return e;
      for (int k = 0; k < width; ++k)
        for (const auto j : columns_of_colour_[static_cast<std::size_t>(c0 + k)])
          for (auto p = info_.jac_col_ptr[j]; p < info_.jac_col_ptr[j + 1]; ++p)
            values[p] = r_[static_cast<std::size_t>(info_.jac_row_idx[static_cast<std::size_t>(p)])].d[static_cast<std::size_t>(k)];
    }
    return Eval::ok;
  }

  // (df/dy) v exactly, in one pass on duals seeded with v (for Krylov solvers).
  Eval jacobian_vector(double t, ConstVector y, ConstVector v, Vector jv) final {
    prepare();
    for (std::size_t i = 0; i < info_.n; ++i) {
      x_[i] = AutoDiffScalar(y[static_cast<Eigen::Index>(i)]);
      x_[i].d[0] = v[static_cast<Eigen::Index>(i)];
    }
    const Eval e = self().template rhs_of<AutoDiffScalar>(t, x_.data(), r_.data());
    for (std::size_t i = 0; i < info_.n; ++i) x_[i].d[0] = 0.0;
    if (e != Eval::ok) return e;
    for (std::size_t i = 0; i < info_.n; ++i) jv[static_cast<Eigen::Index>(i)] = r_[i].d[0];
    return Eval::ok;
  }

  // df/dp: the parameters seeded 8 at a time, y held (exact where rhs_of reads param<T>).
  Eval dfdp(double t, ConstVector y, MatrixView d) override {
    if (!parameters_differentiated_) return Eval::not_provided;
    prepare();
    const auto n = static_cast<Eigen::Index>(info_.n);
    const std::size_t np = p().size();
    for (Eigen::Index i = 0; i < n; ++i) x_[static_cast<std::size_t>(i)] = AutoDiffScalar(y[i]);
    for (std::size_t j0 = 0; j0 < np; j0 += autodiff_directions) {
      seeded_first_ = j0;
      seeded_count_ = std::min<std::size_t>(autodiff_directions, np - j0);
      const Eval e = self().template rhs_of<AutoDiffScalar>(t, x_.data(), r_.data());
      seeded_count_ = 0;
      if (e != Eval::ok) return e;
      for (std::size_t k = 0; k < std::min<std::size_t>(autodiff_directions, np - j0); ++k)
        for (Eigen::Index i = 0; i < n; ++i)
          d(i, static_cast<Eigen::Index>(j0 + k)) = r_[static_cast<std::size_t>(i)].d[k];
    }
    return Eval::ok;
  }

  // Passes of rhs_of on duals per Jacobian (after the first Jacobian).
  int passes() {
    prepare();
    const int columns = info_.jac_col_ptr.empty() ? static_cast<int>(info_.n) : colours_;
    return (columns + autodiff_directions - 1) / autodiff_directions;
  }

 protected:
  // Call in the constructor once n (and the pattern, if any) are known.
  void differentiate_automatically() { info_.analytic_jacobian = true; }
  // Call in the constructor when rhs_of reads every real parameter as param<T>(i).
  void differentiate_parameters_automatically() { parameters_differentiated_ = true; }
  // Real parameter i in rhs_of's scalar type: its value, seeded while dfdp() differentiates.
  template <class T>
  T param(std::size_t i) const {
    if constexpr (std::is_same_v<T, double>) {
      return p(i);
    } else {
      T v(p(i));
      if (i >= seeded_first_ && i < seeded_first_ + seeded_count_) v.d[i - seeded_first_] = 1.0;
      return v;
    }
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  void prepare() {
    if (x_.size() == info_.n) return;
    x_.assign(info_.n, AutoDiffScalar());
    r_.assign(info_.n, AutoDiffScalar());
    if (info_.jac_col_ptr.empty()) return;
    ColumnColouring c = colour_columns(info_.n, info_.jac_col_ptr.data(), info_.jac_row_idx.data());
    colours_ = c.colours;
    columns_of_colour_ = std::move(c.columns_of);
  }

  std::vector<AutoDiffScalar> x_, r_;
  bool parameters_differentiated_ = false;
  std::size_t seeded_first_ = 0, seeded_count_ = 0;  // the parameters dfdp() seeds in this pass
  int colours_ = 0;
  std::vector<std::vector<std::size_t>> columns_of_colour_;
};

template <class Derived>
class AutoDiffResidualProblem : public Problem {
 public:
  // A residual-form problem has no f of its own.
  Eval rhs(double, ConstVector, Vector) override { return Eval::not_provided; }

  Eval residual(double t, ConstVector y, ConstVector yp, Vector r) final {
    return self().template residual_of<double>(t, y.data(), yp.data(), r.data());
  }

  Eval residual_jacobian(double t, ConstVector y, ConstVector yp, double cj, MatrixView jac) final {
    const auto n = static_cast<Eigen::Index>(info_.n);
    if (x_.size() != info_.n) {
      x_.assign(info_.n, AutoDiffScalar());
      xp_.assign(info_.n, AutoDiffScalar());
      r_.assign(info_.n, AutoDiffScalar());
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      x_[static_cast<std::size_t>(i)] = AutoDiffScalar(y[i]);
      xp_[static_cast<std::size_t>(i)] = AutoDiffScalar(yp[i]);
    }
    // y + e_j and y' + cj e_j in one direction: its derivative is dF/dy e_j + cj dF/dy' e_j.
    return autodiff_detail::dense_passes(
        n,
        [&](std::size_t j, std::size_t k, bool on) {
          x_[j].d[k] = on ? 1.0 : 0.0;
          xp_[j].d[k] = on ? cj : 0.0;
        },
        [&] { return self().template residual_of<AutoDiffScalar>(t, x_.data(), xp_.data(), r_.data()); }, r_, jac);
  }

 protected:
  // Call in the constructor, with info().form = Form::residual_only.
  void differentiate_residual_automatically() { info_.analytic_residual_jacobian = true; }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  std::vector<AutoDiffScalar> x_, xp_, r_;
};

}  // namespace daekit
