// `daekit fit` from its module, libdaekit_fit_command.so beside libdaekit. The fit uses
// Ceres Solver, which links the system's BLAS and LAPACK: linked into the executable, they
// would be loaded at start-up, before the core opens OpenBLAS itself and checks its
// kernel against the CPU (core/src/numerics/lapack_loader.cpp), and every command would
// lose that check. So the core opens LAPACK first, then the module comes, and Ceres'
// LAPACK binds to the OpenBLAS already chosen.
#include <dlfcn.h>

#include <daekit/numerics/lapack_backend.hpp>
#include <filesystem>

#include "cli.hpp"
#include "commands.hpp"

namespace daekit::host {

int command_fit(int argc, char** argv) {
  (void)lapack_backend();
  Dl_info where{};
  std::filesystem::path path = "libdaekit_fit_command.so";
  if (dladdr(reinterpret_cast<void*>(&api::default_plugin_dirs), &where) && where.dli_fname)
    path = std::filesystem::path(where.dli_fname).parent_path() / path;
  // Never closed: Ceres' and glog's exit handlers may still run.
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module) throw UsageError("this daekit cannot fit: " + std::string(dlerror()));
  using entry_fn = int (*)(int, char**);
  auto entry = reinterpret_cast<entry_fn>(dlsym(module, "daekit_command_fit"));
  if (!entry) throw UsageError(path.string() + " is not daekit's fit module");
  return entry(argc, argv);
}

}  // namespace daekit::host
