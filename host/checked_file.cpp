#include "checked_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli.hpp"

namespace daekit::host {

bool written_in_place(const std::string& file) {
  std::error_code ec;
  return std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec);
}

void write_file_checked(const std::string& file, const std::function<void(std::ostream&)>& fill) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool in_place = written_in_place(file);
  const std::string target = in_place ? file : file + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(target);
    if (!out) throw UsageError("cannot write " + file + ": " + std::strerror(errno));
    fill(out);
    out.flush();
    const int error = errno;
    if (out) out.close();
    if (!out) {
      if (!in_place) fs::remove(target, ec);
      throw UsageError("writing " + file + " failed: " + std::strerror(error != 0 ? error : EIO));
    }
  }
  if (!in_place) {
    fs::rename(target, file, ec);
    if (ec) {
      fs::remove(target, ec);
      throw UsageError("cannot replace " + file + ": " + ec.message());
    }
  }
}

std::string output_target(const std::string& file, bool success) {
  return success || written_in_place(file) ? file : file + ".partial";
}

void say_where_failed_output_went(std::size_t points, const std::string& file, const std::string& target) {
  std::cerr << "daekit run: the run failed; the " << points << " points it reached are in " << target
            << (target == file ? "\n" : " (" + file + " is left as it was)\n");
}

}  // namespace daekit::host
