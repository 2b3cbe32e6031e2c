// SUNDIALS' return codes as daekit statuses: one table per package, shared by the forward
// adapters and the adjoint drivers.
#pragma once

#include <cvodes/cvodes.h>
#include <idas/idas.h>

#include <daekit/status.hpp>

namespace daekit::plugins::sundials {

inline Status cvode_status(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return Status::too_many_steps;
    case CV_TOO_MUCH_ACC: return Status::tolerances_too_small;
    case CV_ERR_FAILURE: return Status::error_test_failures;
    case CV_CONV_FAILURE:
    case CV_NLS_FAIL:
    case CV_CONSTR_FAIL: return Status::convergence_failures;
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
    case CV_NLS_SETUP_FAIL: return Status::singular_matrix;
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
    case CV_QRHSFUNC_FAIL: return Status::evaluation_failure;
    case CV_ILL_INPUT:
    case CV_TOO_CLOSE: return Status::invalid_input;
    default: return Status::internal_error;
  }
}

inline Status ida_status(int flag) {
  switch (flag) {
    case IDA_TOO_MUCH_WORK: return Status::too_many_steps;
    case IDA_TOO_MUCH_ACC: return Status::tolerances_too_small;
    case IDA_ERR_FAIL: return Status::error_test_failures;
    case IDA_CONV_FAIL:
    case IDA_NLS_FAIL:
    case IDA_CONSTR_FAIL: return Status::convergence_failures;
    case IDA_LSETUP_FAIL:
    case IDA_LSOLVE_FAIL:
    case IDA_NLS_SETUP_FAIL: return Status::singular_matrix;
    case IDA_RES_FAIL:
    case IDA_REP_RES_ERR:
    case IDA_FIRST_RES_FAIL:
    case IDA_QRHS_FAIL: return Status::evaluation_failure;
    case IDA_LINESEARCH_FAIL:
    case IDA_NO_RECOVERY:
    case IDA_BAD_EWT: return Status::inconsistent_initial_values;
    case IDA_ILL_INPUT: return Status::invalid_input;
    default: return Status::internal_error;
  }
}

}  // namespace daekit::plugins::sundials
