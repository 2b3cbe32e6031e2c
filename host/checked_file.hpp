// Writing a file so that a failed write is never a silent success: the content goes to a
// temporary beside the file, every write and the flush are checked, and the temporary
// replaces the file only when complete. A full disk or a lost folder is a UsageError
// naming the file, and the earlier file (if any) is left as it was. Devices and pipes
// (/dev/stdout) are written in place.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace daekit::host {

void write_file_checked(const std::string& file, const std::function<void(std::ostream&)>& fill);

// A device or a pipe (/dev/null, /dev/stdout, a FIFO): written in place, never replaced,
// and nothing is ever created beside it.
bool written_in_place(const std::string& file);

}  // namespace daekit::host
