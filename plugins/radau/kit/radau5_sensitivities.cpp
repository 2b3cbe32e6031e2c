#include "daekit/kits/radau/radau5_sensitivities.hpp"

#include <algorithm>
#include <cmath>

#include "daekit/kits/radau/linear_stage_rate.hpp"
#include "daekit/kits/radau/radau5_coefficients.hpp"

namespace daekit {

using namespace radau5;

Radau5Sensitivities::Radau5Sensitivities(ProblemView& problem, const SolveRequest& request)
    : problem_(problem), request_(request), equations_(problem, request) {
  const Eigen::Index n = problem.size(), ns = equations_.columns();
  for (int i = 0; i < 3; ++i)
    for (Eigen::MatrixXd* m : {&zs_[i], &fs_[i], &g_[i], &mf_[i]}) m->setZero(n, ns);
  for (auto& c : cont_) c.setZero(n, ns);
  s_n_.setZero(n, ns);
  s_new_.setZero(n, ns);
  for (Eigen::VectorXd* v : {&stage_, &column_, &work_}) v->setZero(n);
  rhs_c_.resize(n);
  sol_c_.resize(n);
}

std::string Radau5Sensitivities::refused() const { return equations_.refused_for_ode_family("radau5"); }

// Zero on the first step, else s's collocation polynomial of the last step extrapolated.
void Radau5Sensitivities::start_stages(double h) {
  if (first_) {
    for (int i = 0; i < 3; ++i) zs_[i].setZero(), fs_[i].setZero();
    return;
  }
  const double c3q = h / hold_, q[3] = {c1 * c3q, c2 * c3q, c3q};
  for (int i = 0; i < 3; ++i) zs_[i] = q[i] * (cont_[1] + (q[i] - c2m1) * (cont_[2] + (q[i] - c1m1) * cont_[3]));
  fs_[0] = ti11 * zs_[0] + ti12 * zs_[1] + ti13 * zs_[2];
  fs_[1] = ti21 * zs_[0] + ti22 * zs_[1] + ti23 * zs_[2];
  fs_[2] = ti31 * zs_[0] + ti32 * zs_[1] + ti33 * zs_[2];
}

// J(Y_i) (s_n + ZS_i) + f_q(Y_i) for every column, the Jacobian kept per stage.
Eval Radau5Sensitivities::stage_rhs(const Radau5Stage& step, int stage, Eigen::MatrixXd& out) {
  const double c = stage == 0 ? c1 : stage == 1 ? c2 : 1.0;
  stage_ = *step.y + *step.z[stage];
  s_stage_ = s_n_ + zs_[stage];
  return equations_.rhs(step.t + c * step.h, stage_, stage_, s_stage_, out, stage);
}

std::optional<StepAttempt> Radau5Sensitivities::solve_stages(const Radau5Stage& step, double* error) {
  const Eigen::Index n = problem_.size(), ns = equations_.columns();
  const double h = step.h, fac1 = u1 / h, alphn = alph / h, betan = beta / h;
  const auto& pbar = equations_.scales();
  h_ = h;
  update_column_scales(step);
  start_stages(h);
  Eigen::MatrixXd* f = g_;
  LinearStageRate rate;
  // Twice y's iterations: linear in s, the iteration cannot diverge for the matrix's
  // sake alone, and a rejected step costs more than a few back-solves.
  for (int iteration = 1; iteration <= 2 * step.max_newton; ++iteration) {
    for (int i = 0; i < 3; ++i) {
      const Eval e = stage_rhs(step, i, f[i]);
      if (e != Eval::ok)
        return StepAttempt::failed(e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable,
                                   problem_.last_message(), 0.5);
    }
    // The transformed right-hand sides, less the mass terms of the present iterate.
    zs_[0] = ti11 * f[0] + ti12 * f[1] + ti13 * f[2];
    zs_[1] = ti21 * f[0] + ti22 * f[1] + ti23 * f[2];
    zs_[2] = ti31 * f[0] + ti32 * f[1] + ti33 * f[2];
    double sum = 0.0;
    for (Eigen::Index k = 0; k < ns; ++k) {
      for (int i = 0; i < 3; ++i) {
        column_ = fs_[i].col(k);
        step.mass->apply(column_, work_);
        mf_[i].col(k) = work_;
      }
      column_ = zs_[0].col(k) - fac1 * mf_[0].col(k);
      step.real->solve(column_, work_);
      zs_[0].col(k) = work_;
      rhs_c_.real() = zs_[1].col(k) - alphn * mf_[1].col(k) + betan * mf_[2].col(k);
      rhs_c_.imag() = zs_[2].col(k) - alphn * mf_[2].col(k) - betan * mf_[1].col(k);
      step.complex->solve(rhs_c_, sol_c_);
      zs_[1].col(k) = sol_c_.real();
      zs_[2].col(k) = sol_c_.imag();
      // A real and a complex back-solve (the real one counts itself in nsolve).
      problem_.stats().nsolve_sens += 2;
      ++problem_.stats().nsolve;
      const double p = pbar[static_cast<std::size_t>(k)];
      for (Eigen::Index j = 0; j < n; ++j)
        for (int i = 0; i < 3; ++i) {
          const double weighted = p * zs_[i](j, k) / column_scal_(j, k);
          sum += weighted * weighted;
        }
    }
    // RADAU5's rate test, as for y's stages.
    if (rate.diverges(iteration, std::sqrt(sum / (3.0 * static_cast<double>(n * ns))))) break;
    for (int i = 0; i < 3; ++i) fs_[i] += zs_[i];
    zs_[0] = t11 * fs_[0] + t12 * fs_[1] + t13 * fs_[2];
    zs_[1] = t21 * fs_[0] + t22 * fs_[1] + t23 * fs_[2];
    zs_[2] = t31 * fs_[0] + fs_[1];
    if (rate.converged(step.scale->newton_tolerance())) {
      s_new_ = s_n_ + zs_[2];
      *error = request_.sens_error_control ? error_estimate(step) : 0.0;
      return std::nullopt;
    }
  }
  return StepAttempt::failed(StepAttempt::Kind::convergence, "the sensitivities' stages did not converge", 0.5);
}

// RADAU5's estimate for each column, filtered through (u1/h) M - J: the largest, weighted
// as y's with pbar.
double Radau5Sensitivities::error_estimate(const Radau5Stage& step) {
  const double hee1 = dd1 / step.h, hee2 = dd2 / step.h, hee3 = dd3 / step.h;
  Eigen::MatrixXd& f0 = s_stage_;
  stage_ = *step.y;
  if (equations_.rhs(step.t, stage_, stage_, s_n_, f0, 3) != Eval::ok) return 2.0;  // a failed estimate rejects
  double largest = 0.0;
  for (Eigen::Index k = 0; k < equations_.columns(); ++k) {
    column_ = hee1 * zs_[0].col(k) + hee2 * zs_[1].col(k) + hee3 * zs_[2].col(k);
    step.mass->apply(column_, work_);
    column_ = work_ + f0.col(k);
    step.real->solve(column_, work_);
    ++problem_.stats().nsolve_sens;
    work_ *= equations_.scales()[static_cast<std::size_t>(k)];
    largest = std::max(largest, column_scale_->norm(work_, column_scal_.col(k)));
  }
  return largest;
}

void Radau5Sensitivities::update_column_scales(const Radau5Stage& step) {
  if (!column_scale_) column_scale_.emplace(*step.scale);  // the tolerances as y's stepper transformed them
  column_scal_.resize(problem_.size(), equations_.columns());
  for (Eigen::Index k = 0; k < equations_.columns(); ++k) {
    column_ = equations_.scales()[static_cast<std::size_t>(k)] * s_n_.col(k);
    column_scale_->update(column_, step.h);
    column_scal_.col(k) = column_scale_->weights();
  }
}

void Radau5Sensitivities::accept() {
  cont_[0] = s_new_;
  Eigen::MatrixXd& ak = g_[0];
  Eigen::MatrixXd& acont3 = g_[1];
  ak = (zs_[0] - zs_[1]) / c1mc2;
  acont3 = (ak - zs_[0] / c1) / c2;
  cont_[1] = (zs_[1] - zs_[2]) / c2m1;
  cont_[2] = (ak - cont_[1]) / c1m1;
  cont_[3] = cont_[2] - acont3;
  s_n_ = s_new_;
  hold_ = h_;
  first_ = false;
}

void Radau5Sensitivities::interpolate(double theta, Eigen::MatrixXd& out) const {
  if (first_) {
    out = s_n_;
    return;
  }
  const double s = theta - 1.0;
  out = cont_[0] + s * (cont_[1] + (s - c2m1) * (cont_[2] + (s - c1m1) * cont_[3]));
}

}  // namespace daekit
