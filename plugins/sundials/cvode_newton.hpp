// The Newton iteration's settings with an LU, one place for both CVODE paths (the
// forward solve with its sensitivities, the adjoint's forward pass): options.hpp says
// why they differ from SUNDIALS' defaults.
#pragma once

#include <cvodes/cvodes.h>
#include <cvodes/cvodes_ls.h>

#include "options.hpp"

namespace daekit::plugins {

// SUNDIALS' flag of the first call that refused, 0 when both took.
inline int set_direct_newton(void* cvode_mem, const CvodeOptions& options) {
  if (const int flag = CVodeSetJacEvalFrequency(cvode_mem, options.jac_eval_frequency); flag < 0) return flag;
  return CVodeSetNonlinConvCoef(cvode_mem, options.nonlin_conv_coef);
}

}  // namespace daekit::plugins
