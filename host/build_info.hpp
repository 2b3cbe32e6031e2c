// What a published figure must say about the program that made it: version, commit,
// compiler and build type, the BLAS/LAPACK the process actually runs and which of
// its kernels, and the CPU. `daekit --version --verbose` prints it; wpd records it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace daekit::host {

struct BuildInfo {
  std::string version, commit, compiler, build_type;
  std::string lapack_library;  // the file that provides dgetrf_ in this process
  std::string blas_kernel;     // OpenBLAS's core in use ("Haswell", "Prescott" = generic), or "" if not OpenBLAS
  std::string blas_config;     // OpenBLAS's build configuration, or ""
  std::string kernel_decision; // how the kernel was chosen (OpenBLAS, the user, or daekit from the CPU's features)
  std::string coretype_env;    // OPENBLAS_CORETYPE as set, or ""
  std::string cpu_model;
  std::string cpu_flags;       // the vector extensions that matter to the kernels
};

BuildInfo build_info();
nlohmann::json to_json(const BuildInfo& b);
void print(const BuildInfo& b, std::ostream& out);

}  // namespace daekit::host
