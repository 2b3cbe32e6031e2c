// An FMU's zip archive unpacked into a private temporary folder that lives as long as
// this object. Entries that would land outside the folder (absolute names, "..") are
// refused, not skipped: such an archive is not a model to be trusted with a file system.
#pragma once

#include <filesystem>
#include <string>

namespace daekit::fmu {

class UnpackedArchive {
 public:
  // Throws std::runtime_error naming the file and the reason (not a zip, unsafe entry,
  // too large, a write that failed).
  explicit UnpackedArchive(const std::filesystem::path& archive);
  ~UnpackedArchive();
  UnpackedArchive(const UnpackedArchive&) = delete;
  UnpackedArchive& operator=(const UnpackedArchive&) = delete;

  const std::filesystem::path& folder() const { return folder_; }

 private:
  void unpack(const std::filesystem::path& archive);
  std::filesystem::path folder_;
};

// Whether a zip entry's name stays inside the folder it is unpacked into: relative, no
// ".." component, no backslash (a Windows separator would hide one).
bool is_safe_entry_name(const std::string& name);

}  // namespace daekit::fmu
