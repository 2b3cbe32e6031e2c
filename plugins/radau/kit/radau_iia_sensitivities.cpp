#include "daekit/kits/radau/radau_iia_sensitivities.hpp"

#include "daekit/kits/radau/linear_stage_rate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace daekit {
namespace {
constexpr int error_slot = SensitivityEquations::slots - 1;  // J at the step's start, after the 7 stages'
}  // namespace

RadauIIASensitivities::RadauIIASensitivities(ProblemView& problem, const SolveRequest& request)
    : problem_(problem), request_(request), equations_(problem, request) {
  const Eigen::Index n = problem.size(), ns = equations_.columns();
  for (Eigen::MatrixXd* m : {&s_n_, &s_new_, &s_stage_, &f0_, &cont_s0_}) m->setZero(n, ns);
  for (Eigen::VectorXd* v : {&stage_, &column_, &work_, &mw_a_, &mw_b_}) v->setZero(n);
  rhs_c_.resize(n);
  sol_c_.resize(n);
  basis_.resize(7);
}

// Storage for a stage count (on a change of order only).
void RadauIIASensitivities::use_tableau(const RadauTableau& tab) {
  tab_ = &tab;
  const Eigen::Index n = problem_.size(), ns = equations_.columns();
  for (auto* v : {&zs_, &ws_, &fs_})
    if (v->size() != static_cast<std::size_t>(tab.stages)) v->assign(static_cast<std::size_t>(tab.stages), Eigen::MatrixXd::Zero(n, ns));
}

void RadauIIASensitivities::to_stages() {
  for (int i = 0; i < tab_->stages; ++i) {
    zs_[i].setZero();
    for (int j = 0; j < tab_->stages; ++j) zs_[i] += tab_->t(i, j) * ws_[j];
  }
}

// Zero on the first step, else s's collocation polynomial of the last step extrapolated
// to this step's nodes (as y's starting values).
void RadauIIASensitivities::start_stages(const RadauIIAStage& step) {
  const int s = tab_->stages;
  if (first_ || !cont_tab_) {
    for (int i = 0; i < s; ++i) zs_[i].setZero(), ws_[i].setZero();
    return;
  }
  const int s_old = cont_tab_->stages;
  for (int i = 0; i < s; ++i) {
    cont_tab_->basis(1.0 + tab_->c[i] * step.h / cont_h_, basis_.data());
    zs_[i] = -cont_z_[static_cast<std::size_t>(s_old - 1)];
    for (int j = 0; j < s_old; ++j) zs_[i] += basis_[static_cast<std::size_t>(j)] * cont_z_[static_cast<std::size_t>(j)];
  }
  for (int i = 0; i < s; ++i) {
    ws_[i].setZero();
    for (int j = 0; j < s; ++j) ws_[i] += tab_->t_inv(i, j) * zs_[j];
  }
}

void RadauIIASensitivities::update_column_scales(const RadauIIAStage& step) {
  if (!column_scale_) column_scale_.emplace(*step.scale);
  if (scaled_for_ != tab_->stages) {  // y's tolerances as transformed for this order
    column_scale_->transform_tolerances((tab_->stages + 1.0) / (2.0 * tab_->stages));
    scaled_for_ = tab_->stages;
  }
  column_scal_.resize(problem_.size(), equations_.columns());
  for (Eigen::Index k = 0; k < equations_.columns(); ++k) {
    column_ = equations_.scales()[static_cast<std::size_t>(k)] * s_n_.col(k);
    column_scale_->update(column_, step.h);
    column_scal_.col(k) = column_scale_->weights();
  }
}

std::optional<StepAttempt> RadauIIASensitivities::solve_stages(const RadauIIAStage& step, double* error) {
  if (tab_ != step.tab) use_tableau(*step.tab);
  const int s = tab_->stages;
  const auto pairs = static_cast<std::size_t>((s - 1) / 2);
  const Eigen::Index n = problem_.size(), ns = equations_.columns();
  const double h = step.h, gamma_h = tab_->gamma / h;
  const auto& pbar = equations_.scales();
  h_ = h;
  update_column_scales(step);
  start_stages(step);
  LinearStageRate rate;
  // Twice y's iterations: linear in s, the iteration cannot diverge for the matrix's sake
  // alone, and a rejected step costs more than a few back-solves.
  for (int iteration = 1; iteration <= 2 * step.max_newton; ++iteration) {
    for (int j = 0; j < s; ++j) {
      stage_ = *step.y + (*step.z)[static_cast<std::size_t>(j)];
      s_stage_ = s_n_ + zs_[j];
      const Eval e = equations_.rhs(step.t + tab_->c[j] * h, stage_, stage_, s_stage_, fs_[j], j);
      if (e != Eval::ok)
        return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                                   problem_.last_message(), 0.5);
    }
    // The transformed right-hand sides (into zs_), less the mass terms of the present iterate.
    for (int a = 0; a < s; ++a) {
      zs_[a].setZero();
      for (int j = 0; j < s; ++j) zs_[a] += tab_->t_inv(a, j) * fs_[j];
    }
    double sum = 0.0;
    for (Eigen::Index k = 0; k < ns; ++k) {
      column_ = ws_[0].col(k);
      step.mass->apply(column_, work_);
      column_ = zs_[0].col(k) - gamma_h * work_;
      step.real->solve(column_, work_);
      zs_[0].col(k) = work_;
      for (std::size_t q = 0; q < pairs; ++q) {
        const int a = 1 + 2 * static_cast<int>(q), b = a + 1;
        const double al = tab_->alpha[q] / h, be = tab_->beta[q] / h;
        column_ = ws_[a].col(k);
        step.mass->apply(column_, mw_a_);
        column_ = ws_[b].col(k);
        step.mass->apply(column_, mw_b_);
        rhs_c_.real() = zs_[a].col(k) - al * mw_a_ + be * mw_b_;
        rhs_c_.imag() = zs_[b].col(k) - al * mw_b_ - be * mw_a_;
        (*step.complex)[q].solve(rhs_c_, sol_c_);
        zs_[a].col(k) = sol_c_.real();
        zs_[b].col(k) = sol_c_.imag();
      }
      // A real back-solve and one per pair (the real one counts itself in nsolve).
      problem_.stats().nsolve_sens += 1 + static_cast<long>(pairs);
      problem_.stats().nsolve += static_cast<long>(pairs);
      const double p = pbar[static_cast<std::size_t>(k)];
      for (int a = 0; a < s; ++a)
        for (Eigen::Index i = 0; i < n; ++i) {
          const double weighted = p * zs_[a](i, k) / column_scal_(i, k);
          sum += weighted * weighted;
        }
    }
    // RADAU's rate test, as for y's stages.
    if (rate.diverges(iteration, std::sqrt(sum / (s * static_cast<double>(n * ns))))) break;
    for (int a = 0; a < s; ++a) ws_[a] += zs_[a];
    to_stages();
    if (rate.converged(column_scale_->newton_tolerance())) {
      s_new_ = s_n_ + zs_[s - 1];
      *error = request_.sens_error_control ? error_estimate(step) : 0.0;
      return std::nullopt;
    }
  }
  return StepAttempt::failed(StepAttempt::Kind::convergence, "the sensitivities' stages did not converge", 0.5);
}

// The embedded estimate for each column, filtered through (gamma/h) M - J: the largest,
// each weighed at pbar s.
double RadauIIASensitivities::error_estimate(const RadauIIAStage& step) {
  stage_ = *step.y;
  if (equations_.rhs(step.t, stage_, stage_, s_n_, f0_, error_slot) != Eval::ok) return 2.0;  // a failed estimate rejects
  double largest = 0.0;
  for (Eigen::Index k = 0; k < equations_.columns(); ++k) {
    column_.setZero();
    for (int j = 0; j < tab_->stages; ++j) column_ += (tab_->error_weights[j] / step.h) * zs_[j].col(k);
    step.mass->apply(column_, work_);
    column_ = work_ + f0_.col(k);
    step.real->solve(column_, work_);
    ++problem_.stats().nsolve_sens;
    work_ *= equations_.scales()[static_cast<std::size_t>(k)];
    largest = std::max(largest, std::max(column_scale_->norm(work_, column_scal_.col(k)), 1e-10));
  }
  return largest;
}

void RadauIIASensitivities::accept(double t_start) {
  cont_tab_ = tab_;
  cont_s0_ = s_n_;
  if (cont_z_.size() != zs_.size()) cont_z_.assign(zs_.size(), Eigen::MatrixXd());
  for (std::size_t i = 0; i < zs_.size(); ++i) cont_z_[i] = zs_[i];
  cont_t0_ = t_start;
  cont_h_ = h_;
  s_n_ = s_new_;
  first_ = false;
}

void RadauIIASensitivities::interpolate(double t, Eigen::MatrixXd& out) const {
  if (first_ || !cont_tab_) {
    out = s_n_;
    return;
  }
  double b[7];
  cont_tab_->basis((t - cont_t0_) / cont_h_, b);
  out = cont_s0_;
  for (int j = 0; j < cont_tab_->stages; ++j) out += b[j] * cont_z_[static_cast<std::size_t>(j)];
}

}  // namespace daekit
