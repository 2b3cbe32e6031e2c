// Writing a file so that a failed write is never a silent success: the content goes to a
// temporary beside the file, every write and the flush are checked, and the temporary
// replaces the file only when complete. A full disk or a lost folder is a UsageError
// naming the file, and the earlier file (if any) is left as it was. Devices and pipes
// (/dev/stdout) are written in place.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace daekit::host {

void write_file_checked(const std::string& file, const std::function<void(std::ostream&)>& fill);

// A device or a pipe (/dev/null, /dev/stdout, a FIFO): written in place, never replaced,
// and nothing is ever created beside it.
bool written_in_place(const std::string& file);

// Where a run's output points go: the file after a success (and a device or pipe always),
// FILE.partial beside it after a failure, so that a failed run never replaces a file.
std::string output_target(const std::string& file, bool success);
// On stderr, after a failed run: where the points it reached went (target, from
// output_target), and that the file named was left as it was.
void say_where_failed_output_went(std::size_t points, const std::string& file, const std::string& target);

}  // namespace daekit::host
