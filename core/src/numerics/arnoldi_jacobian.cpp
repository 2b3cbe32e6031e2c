#include "daekit/numerics/arnoldi_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "small_lu.hpp"

namespace daekit {
namespace {

// A new vector this much smaller after its orthogonalisation than before lies in the
// space already built (to round-off): it adds nothing, and where no vector is left to
// apply J to, the space is invariant under J and A = J on it. Larger remainders are kept:
// with a stiff J a genuine new direction can be 1e-10 of J v (Robertson's), and leaving it
// out makes the stages explicit in it.
constexpr double breakdown_ratio = 64 * std::numeric_limits<double>::epsilon();
// Gram-Schmidt again only where it removed all but this fraction of the vector: then the
// rest has lost digits to cancellation. (Daniel et al.'s 1/sqrt(2) repeated nearly every
// pass on the brusselator and cost 1.8x the run at 57 vectors a step.)
constexpr double reorthogonalise_below = 1e-3;

}  // namespace

void ArnoldiJacobian::setup(Eigen::Index n, Dimensions dimensions) {
  // Room for the block space's 2 min - 1 vectors, which a non-autonomous problem needs.
  const int largest = std::max({dimensions.max, dimensions.min, 2 * dimensions.min - 1});
  dimensions_.max = static_cast<int>(std::min<Eigen::Index>(largest, n));
  dimensions_.min = std::min(dimensions.min, dimensions_.max);
  requested_max_ = std::min(std::max(dimensions.max, dimensions.min), dimensions_.max);
  const auto max = static_cast<std::size_t>(dimensions_.max);
  h_.setZero(dimensions_.max + 2, dimensions_.max);
  lu_.assign(max * max, 0.0);
  rhs_.assign(max, 0.0);
  coefficients_.assign(max, 0.0);
  pivots_.assign(max, 0);
  w2_.resize(n);
  work_.resize(n);
  basis_.clear();
  restart();
}

double ArnoldiJacobian::dot(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const {
  return (w2_.array() * a.array() * b.array()).sum();
}

ArnoldiJacobian::Outcome ArnoldiJacobian::prepare(Product product, const Eigen::VectorXd& f0,
                                                  const Eigen::VectorXd* f_t, const Eigen::VectorXd& w,
                                                  double h_gamma, double tol) {
  added_ = 0;
  if (!started_) {
    w2_ = w.cwiseAbs2();
    start(f0, f_t);
  }
  const int least = std::min(starts_ == 2 ? 2 * dimensions_.min - 1 : dimensions_.min, dimensions_.max);
  const int most = std::max(starts_ == 2 ? dimensions_.max : requested_max_, least);
  const double residual_bound = tol * std::sqrt(static_cast<double>(f0.size())) / h_gamma;
  while (!invariant() && p_ < least)
    if (!extend(product)) return Outcome::model_failed;
  for (;;) {
    if (!factor(h_gamma)) return Outcome::singular;
    if (invariant() || first_stage_residual() <= residual_bound) return Outcome::converged;
    if (p_ >= most) return Outcome::limited;
    if (!extend(product)) return Outcome::model_failed;
  }
}

double ArnoldiJacobian::orthogonalise_and_add(Eigen::VectorXd& v, int column) {
  if (column >= 0) h_.col(column).setZero();
  const double original = std::sqrt(dot(v, v));
  double before = original, after = original;
  // Modified Gram-Schmidt, repeated while it removes nearly all of what is left: a vector
  // that loses its digits to cancellation is orthogonalised again rather than let into
  // the basis skewed, or taken for nothing.
  for (int pass = 0; pass < 3; ++pass) {
    for (int i = 0; i < m_; ++i) {
      const Eigen::VectorXd& b = basis_[static_cast<std::size_t>(i)];
      const double c = dot(b, v);
      if (column >= 0) h_(i, column) += c;
      v.noalias() -= c * b;
    }
    before = after;
    after = std::sqrt(dot(v, v));
    if (after > reorthogonalise_below * before) break;
  }
  if (!(after > breakdown_ratio * original) || m_ == static_cast<int>(v.size()) || m_ == dimensions_.max + 2)
    return 0.0;
  if (column >= 0) h_(m_, column) = after;
  if (basis_.size() == static_cast<std::size_t>(m_)) basis_.emplace_back(v.size());
  std::swap(basis_[static_cast<std::size_t>(m_)], v);
  basis_[static_cast<std::size_t>(m_)] /= after;
  ++m_;
  return after;
}

void ArnoldiJacobian::start(const Eigen::VectorXd& f0, const Eigen::VectorXd* f_t) {
  work_ = f0;
  beta_ = orthogonalise_and_add(work_, -1);  // 0: f0 = 0, the first stage's system is solved exactly
  if (f_t) {
    work_ = *f_t;
    orthogonalise_and_add(work_, -1);
  }
  starts_ = m_;
  started_ = true;
}

bool ArnoldiJacobian::extend(Product product) {
  const int j = p_;
  model_failure_ = product(basis_[static_cast<std::size_t>(j)], work_);
  if (model_failure_ != Eval::ok) return false;
  orthogonalise_and_add(work_, j);
  ++p_;
  ++added_;
  return true;
}

bool ArnoldiJacobian::factor(double h_gamma) {
  h_gamma_ = h_gamma;
  const auto p = static_cast<std::size_t>(p_);
  for (std::size_t j = 0; j < p; ++j)
    for (std::size_t i = 0; i < p; ++i)
      lu_[i + j * p] = (i == j ? 1.0 / h_gamma : 0.0) - h_(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  return p_ == 0 || small_lu::factor(p_, lu_.data(), pivots_.data());
}

double ArnoldiJacobian::first_stage_residual() {
  // The Galerkin solution x of (I / (h gamma) - H_p) x = V_p^T D^2 f0 = beta e_1 leaves
  // the residual J V_p x - V_p H_p x: the rows of H below p (at most the block size).
  if (p_ == 0) return 0.0;
  std::fill(rhs_.begin(), rhs_.begin() + p_, 0.0);
  rhs_[0] = beta_;
  small_lu::solve(p_, lu_.data(), pivots_.data(), rhs_.data());
  double sum = 0.0;
  for (int i = p_; i < m_; ++i) {
    double row = 0.0;
    for (int j = 0; j < p_; ++j) row += h_(i, j) * rhs_[static_cast<std::size_t>(j)];
    sum += row * row;
  }
  return std::sqrt(sum);
}

void ArnoldiJacobian::solve(const Eigen::VectorXd& r, Eigen::VectorXd& u) {
  u = h_gamma_ * r;
  for (int i = 0; i < p_; ++i) {
    const auto k = static_cast<std::size_t>(i);
    coefficients_[k] = dot(basis_[k], r);
    rhs_[k] = coefficients_[k];
  }
  if (p_ > 0) small_lu::solve(p_, lu_.data(), pivots_.data(), rhs_.data());
  for (int i = 0; i < p_; ++i) {
    const auto k = static_cast<std::size_t>(i);
    u.noalias() += (rhs_[k] - h_gamma_ * coefficients_[k]) * basis_[k];
  }
}

}  // namespace daekit
