// Automatic first step in the manner of Hairer, Noersett & Wanner (I, II.4):
// compare the sizes of y, y' and an estimate of y'' in the error norm, and
// choose h so that the first step's leading error term is about the tolerance.
// For DAEs only the differential components are measured.
#pragma once

#include <Eigen/Core>

#include "daekit/eigen_abi.hpp"
#include "daekit/status.hpp"

namespace daekit {

class ProblemView;
class ErrorNorm;
class MassMatrix;

// order: the order of the method. Returns the step (positive) or a failure.
Eval initial_step(ProblemView& problem, const ErrorNorm& norm, const MassMatrix& mass, double t0,
                  const Eigen::VectorXd& y0, const Eigen::VectorXd& f0, int order, double hmax,
                  double* h_out);

// The first step of a method that starts at order 1 (BDF), chosen as CVODE chooses it:
// the step whose backward-Euler local error h^2/2 |y''| is a quarter of the tolerance,
// with y'' a difference of y' along y'(t0), measured again at the step it selects (up to
// four times; CVODE's CVHin is the model, these bounds and passes our own). Bounded by a
// tenth of the span, by hmax, and by the step that moves no differential component by
// more than a tenth of its size plus its tolerance. *h_out = 0 when it makes no estimate
// (a problem with algebraic components, f not defined along y', no room between the
// bounds), so the caller keeps its own rule.
Eval first_step_order_one(ProblemView& problem, const ErrorNorm& norm, const MassMatrix& mass, double t0,
                          double tend, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0, double hmax,
                          double* h_out);

}  // namespace daekit
