// A plugin file's identity for benchmark records: its SHA-1 (Boost.Uuid's, header-only),
// so results say which build made them without the path of the machine that ran them.
#pragma once

#include <string>

namespace daekit::host {

// Lower-case hex SHA-1 of the file's bytes, or "" when it cannot be read.
std::string file_sha1(const std::string& path);

}  // namespace daekit::host
