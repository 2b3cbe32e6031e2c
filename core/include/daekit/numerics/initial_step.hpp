// Automatic first step in the manner of Hairer, Noersett & Wanner (I, II.4):
// compare the sizes of y, y' and an estimate of y'' in the error norm, and
// choose h so that the first step's leading error term is about the tolerance.
// For DAEs only the differential components are measured.
#pragma once

#include <Eigen/Core>

#include "daekit/status.hpp"

namespace daekit {

class ProblemView;
class ErrorNorm;
class MassMatrix;

// order: the order of the method. Returns the step (positive) or a failure.
Eval initial_step(ProblemView& problem, const ErrorNorm& norm, const MassMatrix& mass, double t0,
                  const Eigen::VectorXd& y0, const Eigen::VectorXd& f0, int order, double hmax,
                  double* h_out);

}  // namespace daekit
