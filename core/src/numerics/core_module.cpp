#include "core_module.hpp"

#include <dlfcn.h>

namespace daekit {

void* open_core_module(const char* file, const char* symbol, std::string* why) {
  Dl_info where{};
  if (!dladdr(reinterpret_cast<void*>(&open_core_module), &where) || !where.dli_fname) {
    *why = "the core library's own path is unknown";
    return nullptr;
  }
  std::string path = where.dli_fname;
  path = path.substr(0, path.find_last_of('/') + 1) + file;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* e = dlerror();
    *why = e ? e : "cannot open " + path;
    return nullptr;
  }
  void* entry = dlsym(handle, symbol);
  if (!entry) *why = path + " has no " + symbol;
  return entry;
}

}  // namespace daekit
