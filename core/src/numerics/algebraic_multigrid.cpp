#include "algebraic_multigrid.hpp"

#include "core_module.hpp"
#include "daekit/numerics/lapack_backend.hpp"

namespace daekit {
namespace {

// Opened once; hypre's BLAS is then the OpenBLAS the core opened with the kernel it checked.
const daekit_amg_table* amg_module(std::string* why) {
  static std::string failure;
  static const daekit_amg_table* const table = []() -> const daekit_amg_table* {
    lapack_backend();
    auto entry = reinterpret_cast<daekit_amg_entry>(open_core_module("libdaekit_amg.so", "daekit_amg", &failure));
    const daekit_amg_table* t = entry ? entry() : nullptr;
    if (entry && (!t || t->version != DAEKIT_AMG_TABLE_VERSION)) failure = "libdaekit_amg.so is of another version";
    return t && t->version == DAEKIT_AMG_TABLE_VERSION ? t : nullptr;
  }();
  if (!table) *why = "preconditioner=amg: hypre's BoomerAMG is not available (" + failure + ")";
  return table;
}

}  // namespace

AlgebraicMultigrid::~AlgebraicMultigrid() {
  if (self_) table_->destroy(self_);
}

bool AlgebraicMultigrid::open(double strong_threshold, std::string* why) {
  table_ = amg_module(why);
  if (!table_) return false;
  char text[200] = {0};
  self_ = table_->create(strong_threshold, text, static_cast<int>(sizeof text));
  if (!self_) *why = std::string("preconditioner=amg: ") + text;
  return self_ != nullptr;
}

bool AlgebraicMultigrid::setup(const Eigen::SparseMatrix<double>& matrix) {
  csr_ = matrix;
  csr_.makeCompressed();
  return table_->setup(self_, static_cast<int>(csr_.rows()), csr_.outerIndexPtr(), csr_.innerIndexPtr(),
                       csr_.valuePtr()) == 0;
}

bool AlgebraicMultigrid::apply(const double* b, double* x) { return table_->apply(self_, b, x) == 0; }

}  // namespace daekit
