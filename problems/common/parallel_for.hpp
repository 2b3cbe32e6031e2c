// A loop over grid points or rows spread over `threads` OpenMP threads (an int
// expression) when the plugin is built with OpenMP and more than one is asked for; an
// ordinary loop otherwise. Only for loops whose iterations each write their own values
// and read nothing another iteration writes: the results are then the same, bit for bit,
// for every number of threads.
#pragma once

#ifdef _OPENMP
#include <dlfcn.h>
#include <omp.h>

#define DAEKIT_PROBLEMS_PRAGMA(text) _Pragma(#text)
#define DAEKIT_PROBLEMS_PARALLEL_FOR(threads) \
  DAEKIT_PROBLEMS_PRAGMA(omp parallel for num_threads(threads) schedule(static) if ((threads) > 1))

namespace daekit_problems {
// The host unloads a plugin when it is done with it, and with the plugin the OpenMP
// runtime it brought: its idle worker threads then ran on unmapped code (a SEGV at exit
// under the sanitizer) and its start-up allocation was reported as leaked. The runtime is
// kept loaded for the life of the process instead (whichever runtime this is: found from
// one of its own symbols).
inline const bool openmp_runtime_kept = [] {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&omp_get_max_threads), &info) == 0 || !info.dli_fname) return false;
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != nullptr;
}();
}  // namespace daekit_problems
#else
#define DAEKIT_PROBLEMS_PARALLEL_FOR(threads)
#endif
