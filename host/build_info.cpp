#include "build_info.hpp"

#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>

#include <daekit/numerics/lapack_backend.hpp>

#include "commit.hpp"
#include "version.hpp"

namespace daekit::host {
namespace {

std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) return line.substr(line.find(':') + 2);
  return "";
}

std::string vector_flags() {
  std::istringstream all(cpuinfo_field("flags"));
  std::string out;
  for (std::string f; all >> f;)
    for (const char* wanted : {"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512vl", "asimd", "sve"})
      if (f == wanted) {
        if (!out.empty()) out += ' ';
        out += f;
      }
  return out;
}

}  // namespace

BuildInfo build_info() {
  BuildInfo b;
  b.version = DAEKIT_VERSION;
  b.commit = DAEKIT_COMMIT;
#if defined(__clang__)
  b.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  b.compiler = std::string("gcc ") + __VERSION__;
#endif
  b.build_type = DAEKIT_BUILD_TYPE;
  // The LAPACK the core's dense LU opened, and which kernel it runs (numerics/lapack_backend.hpp).
  const LapackBackend& lapack = lapack_backend();
  b.lapack_library = lapack.library.empty() ? "none (Eigen's LU)" : lapack.library;
  b.blas_kernel = lapack.kernel;
  b.kernel_decision = lapack.decision;
  b.blas_config = lapack.config;
  if (const char* env = std::getenv("OPENBLAS_CORETYPE")) b.coretype_env = env;
  b.cpu_model = cpuinfo_field("model name");
  b.cpu_flags = vector_flags();
  return b;
}

nlohmann::json to_json(const BuildInfo& b) {
  return {{"version", b.version},
          {"commit", b.commit},
          {"compiler", b.compiler},
          {"build_type", b.build_type},
          {"lapack", b.lapack_library},
          {"blas_kernel", b.blas_kernel},
          {"blas_config", b.blas_config},
          {"blas_kernel_decision", b.kernel_decision},
          {"OPENBLAS_CORETYPE", b.coretype_env},
          {"cpu", b.cpu_model},
          {"cpu_flags", b.cpu_flags}};
}

void print(const BuildInfo& b, std::ostream& out) {
  out << "commit      " << b.commit << "\n"
      << "compiler    " << b.compiler << " (" << b.build_type << ")\n"
      << "LAPACK      " << (b.lapack_library.empty() ? "not loaded" : b.lapack_library) << "\n"
      << "BLAS kernel " << (b.blas_kernel.empty() ? "(not OpenBLAS)" : b.blas_kernel)
      << (b.kernel_decision.empty() ? "" : ": " + b.kernel_decision)
      << (b.coretype_env.empty() ? "" : " (OPENBLAS_CORETYPE=" + b.coretype_env + ")") << "\n";
  if (!b.blas_config.empty()) out << "BLAS build  " << b.blas_config << "\n";
  out << "CPU         " << b.cpu_model << " [" << b.cpu_flags << "]\n";
}

}  // namespace daekit::host
