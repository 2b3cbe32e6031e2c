#include "unpacked_archive.hpp"

#include <zip.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace daekit::fmu {
namespace fs = std::filesystem;

namespace {

// More than this unpacked is refused: a real model's binaries and resources are far
// smaller, a zip bomb is not.
constexpr std::uint64_t max_unpacked_bytes = 4ull << 30;

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

std::string zip_open_error(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

fs::path make_private_folder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = (tmp && *tmp ? std::string(tmp) : std::string("/tmp")) + "/daekit-fmu-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))  // mode 0700: private to this user
    throw std::runtime_error("cannot create a temporary folder from " + pattern + ": " +
                             std::error_code(errno, std::generic_category()).message());
  return fs::path(buffer.data());
}

}  // namespace

bool is_safe_entry_name(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos) return false;
  for (const auto& part : fs::path(name))
    if (part == "..") return false;
  return true;
}

UnpackedArchive::UnpackedArchive(const fs::path& archive) : folder_(make_private_folder()) {
  try {
    unpack(archive);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(folder_, ignored);
    throw;
  }
}

UnpackedArchive::~UnpackedArchive() {
  std::error_code ignored;  // a destructor cannot report; the folder is in TMPDIR
  fs::remove_all(folder_, ignored);
}

void UnpackedArchive::unpack(const fs::path& archive) {
  int code = 0;
  std::unique_ptr<zip_t, ZipCloser> zip(zip_open(archive.c_str(), ZIP_RDONLY, &code));
  if (!zip) {
    const std::string why = code == ZIP_ER_NOZIP ? "not a zip archive (an FMU is one)" : zip_open_error(code);
    throw std::runtime_error(archive.string() + ": " + why);
  }
  const zip_int64_t entries = zip_get_num_entries(zip.get(), 0);
  std::uint64_t total = 0;
  std::vector<char> buffer(1 << 16);
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t st;
    if (zip_stat_index(zip.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
      throw std::runtime_error(archive.string() + ": cannot read entry " + std::to_string(i) + ": " +
                               zip_strerror(zip.get()));
    const std::string name = st.name;
    if (!is_safe_entry_name(name))
      throw std::runtime_error(archive.string() + ": unsafe entry name '" + name +
                               "' (absolute, or leaving the archive's folder)");
    const fs::path target = folder_ / name;
    if (name.back() == '/') {
      fs::create_directories(target);
      continue;
    }
    fs::create_directories(target.parent_path());
    std::unique_ptr<zip_file_t, ZipFileCloser> in(zip_fopen_index(zip.get(), static_cast<zip_uint64_t>(i), 0));
    if (!in) throw std::runtime_error(archive.string() + ": cannot open entry '" + name + "': " + zip_strerror(zip.get()));
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + target.string());
    for (;;) {
      const zip_int64_t got = zip_fread(in.get(), buffer.data(), buffer.size());
      if (got < 0) throw std::runtime_error(archive.string() + ": entry '" + name + "' is damaged: " + zip_file_strerror(in.get()));
      if (got == 0) break;
      total += static_cast<std::uint64_t>(got);
      if (total > max_unpacked_bytes)
        throw std::runtime_error(archive.string() + ": more than 4 GiB unpacked; refused");
      out.write(buffer.data(), got);
    }
    if (!out.flush()) throw std::runtime_error("cannot write " + target.string() + " (disk full?)");
  }
}

}  // namespace daekit::fmu
