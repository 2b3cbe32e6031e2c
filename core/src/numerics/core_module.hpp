// The core's optional modules (UMFPACK, hypre) sit next to the core library and are opened
// on first use, so that their libraries load only into the runs that need them.
#pragma once

#include <string>

namespace daekit {

// The entry point `symbol` of the module `file` next to the core library; nullptr with
// *why (dlopen's or dlsym's message) when it cannot be had.
void* open_core_module(const char* file, const char* symbol, std::string* why);

}  // namespace daekit
