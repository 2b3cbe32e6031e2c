#include "daekit/rosenbrock/stepper.hpp"

#include "daekit/numerics/finite_difference.hpp"

#include <cmath>
#include <limits>

namespace daekit {

RosenbrockStepper::RosenbrockStepper(const tableaus::RosenbrockTableau& tableau, ProblemView& problem,
                                     const MassMatrix& mass, IterationMatrix& matrix, const ErrorNorm& norm)
    : tab_(tableau), problem_(problem), mass_(mass), matrix_(matrix), norm_(norm) {
  const Eigen::Index n = problem.size();
  for (auto* v : {&f0_, &ft_, &y_old_, &y_new_, &u_, &fu_, &rhs_, &sum_, &msum_, &err_}) v->setZero(n);
  for (int i = 0; i < tab_.stages; ++i) k_[i].setZero(n);
  for (int r = 0; r < tab_.dense_rows; ++r) dense_[r].setZero(n);
}

Eval RosenbrockStepper::start(double t0, const Eigen::VectorXd& y0) {
  Eval e = problem_.rhs(t0, y0, f0_);
  have_f0_ = e == Eval::ok;
  return e;
}

StepAttempt RosenbrockStepper::failure(Eval e) const {
  StepAttempt a;
  a.kind = e == Eval::fatal ? StepAttempt::Kind::fatal : StepAttempt::Kind::recoverable;
  a.message = problem_.last_message();
  return a;
}

Eval RosenbrockStepper::time_derivative(double t, const Eigen::VectorXd& y) {
  if (problem_.autonomous()) {
    ft_.setZero();
    return Eval::ok;
  }
  if (problem_.has_analytic_dfdt()) return problem_.dfdt(t, y, ft_);
  // Time has no tolerance scale: the step size stands in for it.
  const double delta = fd_increment(t, std::abs(h_last_) > 0.0 ? std::abs(h_last_) : 1.0);
  Eval e = problem_.rhs(t + delta, y, fu_, true);
  if (e == Eval::ok) ft_ = (fu_ - f0_) / delta;
  return e;
}

StepAttempt RosenbrockStepper::attempt(double t, double h, const Eigen::VectorXd& y) {
  // After a rejection (t, y) are unchanged: f, J and f_t are reused, only W is refactored.
  if (!have_f0_) {
    Eval e = problem_.rhs(t, y, f0_);
    if (e != Eval::ok) return failure(e);
    have_f0_ = true;
  }
  if (!have_jac_) {
    Eval e = matrix_.evaluate_jacobian(t, y, f0_);
    if (e == Eval::ok) e = time_derivative(t, y);
    if (e != Eval::ok) return failure(e);
    have_jac_ = true;
  }
  if (!matrix_.factor(1.0 / (h * tab_.gamma))) {
    StepAttempt a;
    a.kind = StepAttempt::Kind::singular;
    a.message = "the iteration matrix M/(h*gamma) - J is singular";
    return a;
  }
  y_old_ = y;
  const int s = tab_.stages;
  for (int i = 0; i < s; ++i) {
    const Eigen::VectorXd* fi = &f0_;
    if (i > 0) {
      u_ = y;
      for (int j = 0; j < i; ++j)
        if (tab_.a[i][j] != 0.0) u_.noalias() += tab_.a[i][j] * k_[j];
      Eval e = problem_.rhs(t + tab_.c[i] * h, u_, fu_);
      if (e != Eval::ok) return failure(e);
      fi = &fu_;
    }
    rhs_ = *fi;
    if (tab_.d[i] != 0.0 && !problem_.autonomous()) rhs_.noalias() += (h * tab_.d[i]) * ft_;
    if (i > 0) {
      sum_.setZero();
      for (int j = 0; j < i; ++j)
        if (tab_.C[i][j] != 0.0) sum_.noalias() += (tab_.C[i][j] / h) * k_[j];
      mass_.apply(sum_, msum_);
      rhs_ += msum_;
    }
    matrix_.solve(rhs_, k_[i]);
    if (!k_[i].allFinite()) {
      StepAttempt a;
      a.kind = StepAttempt::Kind::recoverable;
      a.message = "a stage of the step became non-finite";
      return a;
    }
  }
  y_new_ = y;
  err_.setZero();
  for (int i = 0; i < s; ++i) {
    if (tab_.b[i] != 0.0) y_new_.noalias() += tab_.b[i] * k_[i];
    if (tab_.btilde[i] != 0.0) err_.noalias() += tab_.btilde[i] * k_[i];
  }
  h_last_ = h;
  StepAttempt a;
  a.error = norm_.rms(err_, y, y_new_, h);
  return a;
}

void RosenbrockStepper::accept() {
  for (int r = 0; r < tab_.dense_rows; ++r) {
    dense_[r].setZero();
    for (int j = 0; j < tab_.stages; ++j)
      if (tab_.H[r][j] != 0.0) dense_[r].noalias() += tab_.H[r][j] * k_[j];
  }
  have_f0_ = false;
  have_jac_ = false;
}

void RosenbrockStepper::interpolate(double theta, Eigen::VectorXd& out) const {
  if (tab_.dense_rows == 0) {  // no continuous extension: linear between the step ends
    out = (1.0 - theta) * y_old_ + theta * y_new_;
    return;
  }
  // Horner form of y_new + (1 - theta)(h1 + theta (h2 + theta h3))
  out = dense_[tab_.dense_rows - 1];
  for (int r = tab_.dense_rows - 2; r >= 0; --r) out = dense_[r] + theta * out;
  out = (1.0 - theta) * y_old_ + theta * (y_new_ + (1.0 - theta) * out);
}

}  // namespace daekit
