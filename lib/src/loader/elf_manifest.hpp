// Reading a plugin's manifests from its file without loading it: no constructor
// of the plugin runs, so a plugin that crashes or hangs when loaded cannot take
// down a command that does not need it (`daekit list`, `run` naming others).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace daekit::loader::elf {

// One dk_manifest as its bytes lie in the file, pointers resolved to the strings.
struct FileManifest {
  std::string symbol;  // "daekit_v<major>_manifest_<name>"
  std::uint32_t magic = 0, abi_major = 0, abi_minor = 0, struct_size = 0, kind = 0;
  std::string name, version, description, build_id, entry;
  bool entry_exported = false;  // the factory alias is among the exported symbols
};

class Unreadable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The manifests of the exported symbols in `section` whose names `is_manifest` accepts,
// read from the ELF file (64-bit little-endian: x86-64 and AArch64). Throws Unreadable
// where the file is not laid out as a linker lays out such a library.
std::vector<FileManifest> read_manifests(const std::filesystem::path& file,
                                         const std::function<bool(const std::string&)>& is_manifest,
                                         const std::string& section);

}  // namespace daekit::loader::elf
