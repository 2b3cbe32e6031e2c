#include <dlfcn.h>

#include <climits>

#include <cstdlib>
#include <mutex>

#include "daekit/numerics/lapack_backend.hpp"
#include "lapack.hpp"

namespace daekit {
namespace {

// OpenBLAS first (Debian's libopenblas0-serial or -pthread), then whatever LAPACK the
// system's alternatives name.
constexpr const char* candidates[] = {"libopenblas.so.0", "liblapack.so.3"};

struct Loaded {
  void* handle = nullptr;
  lapack::Routines routines{};
  LapackBackend backend;
};

template <class F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

std::string corename(void* handle) {
  using text_fn = char* (*)();
  auto f = symbol<text_fn>(handle, "openblas_get_corename");
  return f ? std::string(f()) : std::string();
}

bool generic(const std::string& kernel) {
  return kernel == "Prescott" || kernel == "Core2" || kernel == "Penryn" || kernel == "Dunnington" ||
         kernel == "Atom" || kernel == "Katmai" || kernel == "Coppermine" || kernel == "Northwood" ||
         kernel == "Banias" || kernel == "Nano";
}

void cpu_features(bool* avx512, bool* avx2_fma, bool* avx) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  *avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  *avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  *avx = __builtin_cpu_supports("avx");
#else
  *avx512 = *avx2_fma = *avx = false;
#endif
}

Loaded open_lapack() {
  Loaded l;
  // An empty OPENBLAS_CORETYPE names nothing (OpenBLAS ignores it too).
  const char* named = std::getenv("OPENBLAS_CORETYPE");
  const bool user_named = named && *named;
  // DAEKIT_SIMULATE_OPENBLAS_GUESS=Prescott makes OpenBLAS choose as it does on a CPU
  // model it does not know, so that the check below can be tested on any machine.
  const char* simulated_guess = std::getenv("DAEKIT_SIMULATE_OPENBLAS_GUESS");
  if (simulated_guess && !user_named) setenv("OPENBLAS_CORETYPE", simulated_guess, 1);
  for (const char* name : candidates) {
    l.handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (l.handle) {
      l.backend.library = name;
      break;
    }
  }
  if (simulated_guess && !user_named) unsetenv("OPENBLAS_CORETYPE");
  if (!l.handle) {
    l.backend.decision = "no LAPACK library could be opened (libopenblas.so.0, liblapack.so.3): Eigen's LU";
    return l;
  }
  l.backend.kernel = corename(l.handle);
  if (l.backend.kernel.empty()) {
    l.backend.decision = "not OpenBLAS";
  } else if (user_named) {
    l.backend.decision = "named by OPENBLAS_CORETYPE";
  } else {
    bool avx512 = false, avx2_fma = false, avx = false;
    cpu_features(&avx512, &avx2_fma, &avx);
    const std::string better = better_kernel(l.backend.kernel, false, avx512, avx2_fma, avx);
    if (better.empty()) {
      l.backend.decision = "OpenBLAS's choice for this CPU";
    } else {
      // OpenBLAS reads OPENBLAS_CORETYPE when it is loaded: close it, name the kernel, open
      // it again. If something else in the process holds it, it stays as it was (said below).
      const std::string generic_one = l.backend.kernel;
      dlclose(l.handle);
      setenv("OPENBLAS_CORETYPE", better.c_str(), 0);
      l.handle = dlopen(l.backend.library.c_str(), RTLD_NOW | RTLD_LOCAL);
      unsetenv("OPENBLAS_CORETYPE");
      if (!l.handle) {
        l.backend = LapackBackend{"", "", "OpenBLAS could not be opened again: Eigen's LU", ""};
        return l;
      }
      l.backend.kernel = corename(l.handle);
      l.backend.decision = l.backend.kernel == better
                               ? "chosen by daekit from the CPU's features (OpenBLAS did not recognise the CPU and "
                                 "chose its generic " + generic_one + " kernels)"
                               : "OpenBLAS chose generic kernels and was already loaded, so " + better +
                                     " could not be chosen";
    }
  }
  l.routines.dgetrf = symbol<decltype(l.routines.dgetrf)>(l.handle, "dgetrf_");
  l.routines.zgetrf = symbol<decltype(l.routines.zgetrf)>(l.handle, "zgetrf_");
  l.routines.dgetrs = symbol<decltype(l.routines.dgetrs)>(l.handle, "dgetrs_");
  l.routines.zgetrs = symbol<decltype(l.routines.zgetrs)>(l.handle, "zgetrs_");
  if (!l.routines.dgetrf || !l.routines.zgetrf || !l.routines.dgetrs || !l.routines.zgetrs) {
    l.backend.decision = l.backend.library + " lacks getrf/getrs: Eigen's LU";
    l.backend.library.clear();
    return l;
  }
  if (auto config = symbol<char* (*)()>(l.handle, "openblas_get_config")) l.backend.config = config();
  // The file the name led to (Debian's alternatives choose it), for the records.
  Dl_info where{};
  char resolved[PATH_MAX];
  if (dladdr(reinterpret_cast<void*>(l.routines.dgetrf), &where) && where.dli_fname && realpath(where.dli_fname, resolved))
    l.backend.library = resolved;
  // One thread: the matrices are small (n up to a few thousand), factorisations happen
  // inside a step loop, and benchmark runs share the machine.
  using threads_fn = void (*)(int);
  if (auto set_threads = symbol<threads_fn>(l.handle, "openblas_set_num_threads")) set_threads(1);
  return l;
}

const Loaded& loaded() {
  static const Loaded l = open_lapack();
  return l;
}

}  // namespace

std::string better_kernel(const std::string& chosen, bool user_named_one, bool avx512, bool avx2_fma, bool avx) {
  if (user_named_one || !generic(chosen)) return "";
  if (avx512) return "SkylakeX";
  if (avx2_fma) return "Haswell";
  if (avx) return "Sandybridge";
  return "";
}

const LapackBackend& lapack_backend() { return loaded().backend; }

const lapack::Routines* lapack::routines() {
  const Loaded& l = loaded();
  return l.backend.library.empty() ? nullptr : &l.routines;
}

}  // namespace daekit
