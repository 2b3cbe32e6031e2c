// The backward pass of the Rosenbrock adjoint (kits/rosenbrock/adjoint.hpp): lambda = dG/dy
// from tend to t0 through the recorded steps, each replayed for its stages and W, with the
// data terms' jumps at their times and each event's jump transposed; dG/dp gathered on the
// way; a DAE's consistent start differentiated at t0.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "adjoint_forward.hpp"
#include "daekit/kits/rosenbrock/stepper.hpp"
#include "daekit/numerics/adjoint_linear_algebra.hpp"
#include "daekit/numerics/adjoint_terms.hpp"

namespace daekit::rosenbrock_adjoint {

class Backward {
 public:
  Backward(ProblemView& problem, const SolveRequest& request, const tableaus::RosenbrockTableau& tableau,
           FunctionalTerms& terms)
      : p_(problem), req_(request), tab_(tableau), terms_(terms), n_(problem.size()),
        np_(static_cast<Eigen::Index>(problem.np())), norm_(ErrorNorm::for_request(request, problem)) {}

  // The backward pass over the recorded steps; the gradient, dG/dy0 and G into the request.
  SolveOutcome run(const StepRecord& record);

 private:
  Eval setup(const Eigen::VectorXd& y0);
  std::string replay(double t, double h, const Eigen::VectorXd& y);
  // lambda from the step's end back to its start; `event`: the event that cut it short.
  Eval step_back(double t, double h, const Eigen::VectorXd& y, const EventRecord* event);
  double extension_weight(int i, double theta) const;
  std::string check_replay(const StepRecord& record, std::size_t n);
  Eval running_stages(double t, double h, const Eigen::VectorXd& y);
  Eval running_stage_back(int i, double t, double h, const Eigen::VectorXd& y);
  Eval second_derivative_terms(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& k, const Eigen::VectorXd& xi);
  Eval time_terms(double t, double h, const Eigen::VectorXd& y);
  Eval mixed_derivative(double t, const Eigen::VectorXd& y, double dt, double delta, const Eigen::VectorXd& v,
                        const Eigen::VectorXd& xi);
  Eval consistent_start(double t0, const Eigen::VectorXd& y0);
  void data_jump(double t, const Eigen::VectorXd& y);
  // The states at the starts of steps [first, first + count) (the checkpoint, then replays).
  std::string segment_states(const StepRecord& record, std::size_t first, std::size_t count,
                             std::vector<Eigen::VectorXd>& states);
  void stage_value(int i, const Eigen::VectorXd& y, Eigen::VectorXd& u) const;
  Eval vjp(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    return products_.times(t, y, v, out);
  }
  Eval pvjp(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    return p_.dfdp_transpose_times(t, y, v, out);
  }
  // g's gradients at (t, y) into gy, gp.
  Eval running(double t, const Eigen::VectorXd& y, Eigen::VectorXd& gy, Eigen::VectorXd& gp, double* g = nullptr) {
    if (!terms_.running(t, y.data(), g)) return Eval::fatal;
    gy = terms_.g_y(), gp = terms_.g_p();
    return Eval::ok;
  }

  ProblemView& p_;
  const SolveRequest& req_;
  const tableaus::RosenbrockTableau& tab_;
  FunctionalTerms& terms_;
  Eigen::Index n_, np_;
  ErrorNorm norm_;
  MassMatrix mass_;
  IterationMatrix matrix_;
  TransposedIterationMatrix transposed_;
  JacobianTransposeProducts products_;
  std::unique_ptr<RosenbrockStepper> stepper_;
  std::string failure_;
  bool exact_jacobian_ = true;  // the problem's own J (else difference quotients)

  Eigen::VectorXd lambda_, mu_;  // dG/dy at the current point, dG/dp so far
  double value_ = 0;             // G's running integral so far
  double zeta_q_ = 0;            // sum_i h d_i xq_i: the g_t terms' weight
  std::array<Eigen::VectorXd, tableaus::max_rosenbrock_stages> kbar_;
  std::array<double, tableaus::max_rosenbrock_stages> kq_{}, kqbar_{}, weight_{};
  Eigen::VectorXd ybar_, ubar_, u_, xi_, v_, w_, up_, down_, pv_, pup_, pdown_, zeta_, gy0_, gp0_, f_, lambda_minus_;
};

}  // namespace daekit::rosenbrock_adjoint
