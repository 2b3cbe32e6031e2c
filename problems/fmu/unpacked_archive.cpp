#include "unpacked_archive.hpp"

#include <zip.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

// More than this unpacked is refused (DAEKIT_FMU_MAX_UNPACKED_MB overrides it): a real
// model's binaries and resources are far smaller, a zip bomb is not.
constexpr std::uint64_t default_max_unpacked_mb = 1024;
// An entry that inflates more than this many times (and to more than 1 MiB) is refused
// before anything is written: binaries and XML compress 3 to 10 times, zeros 1000.
constexpr std::uint64_t max_ratio = 200;
constexpr std::uint64_t ratio_floor_bytes = 1ull << 20;
// What must stay free on the temporary folder's disk after the unpacking.
constexpr std::uint64_t free_margin_bytes = 64ull << 20;

std::uint64_t max_unpacked_bytes() {
  const char* text = std::getenv("DAEKIT_FMU_MAX_UNPACKED_MB");
  if (!text || !*text) return default_max_unpacked_mb << 20;
  char* end = nullptr;
  const unsigned long long mb = std::strtoull(text, &end, 10);
  if (*end != '\0' || mb == 0 || mb > (1ull << 40))
    throw std::runtime_error(std::string("DAEKIT_FMU_MAX_UNPACKED_MB='") + text + "' is not a positive number of MiB");
  return static_cast<std::uint64_t>(mb) << 20;
}

fs::path temporary_root() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? fs::path(tmp) : fs::path("/tmp");
}

// Folders of processes that are gone (crashed, killed, ended by exit() in a model) are
// removed by the next unpacking, whatever command it serves; the host also removes a
// child's folders when the child ends (host/child_process.hpp).
void remove_orphans(const fs::path& root) {
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("daekit-fmu-", 0) != 0) continue;
    const std::size_t dash = name.find('-', 11);
    if (dash == std::string::npos) continue;
    char* stop = nullptr;
    const long pid = std::strtol(name.c_str() + 11, &stop, 10);
    if (stop != name.c_str() + dash || pid <= 0) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

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
  remove_orphans(temporary_root());
  // daekit-fmu-<pid>-<random>: the process that owns it is in its name.
  std::string pattern = (temporary_root() / ("daekit-fmu-" + std::to_string(::getpid()) + "-XXXXXX")).string();
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
  // Every entry's declared size, and the sum, before a byte is written.
  const std::uint64_t limit = max_unpacked_bytes();
  std::vector<std::uint64_t> declared(static_cast<std::size_t>(std::max<zip_int64_t>(entries, 0)));
  std::uint64_t total = 0;
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t st;
    if (zip_stat_index(zip.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) ||
        !(st.valid & ZIP_STAT_SIZE))
      throw std::runtime_error(archive.string() + ": cannot read entry " + std::to_string(i) + ": " +
                               zip_strerror(zip.get()));
    const std::string name = st.name;
    if (!is_safe_entry_name(name))
      throw std::runtime_error(archive.string() + ": unsafe entry name '" + name +
                               "' (absolute, or leaving the archive's folder)");
    if ((st.valid & ZIP_STAT_COMP_SIZE) && st.size > ratio_floor_bytes && st.size / std::max<zip_uint64_t>(st.comp_size, 1) > max_ratio)
      throw std::runtime_error(archive.string() + ": entry '" + name + "' inflates " +
                               std::to_string(st.size / std::max<zip_uint64_t>(st.comp_size, 1)) + " times (" +
                               std::to_string(st.size) + " bytes from " + std::to_string(st.comp_size) +
                               "): a zip bomb, refused before unpacking");
    declared[static_cast<std::size_t>(i)] = st.size;
    total += st.size;
    if (total > limit)
      throw std::runtime_error(archive.string() + ": unpacks to more than " + std::to_string(limit >> 20) +
                               " MiB (set DAEKIT_FMU_MAX_UNPACKED_MB to allow more); refused before unpacking");
  }
  if (const fs::space_info space = fs::space(folder_); space.available < total + free_margin_bytes)
    throw std::runtime_error(archive.string() + ": unpacks to " + std::to_string(total >> 20) + " MiB, but " +
                             folder_.parent_path().string() + " has " + std::to_string(space.available >> 20) +
                             " MiB free; refused before unpacking");
  std::vector<char> buffer(1 << 16);
  for (zip_int64_t i = 0; i < entries; ++i) {
    const std::string name = zip_get_name(zip.get(), static_cast<zip_uint64_t>(i), 0);
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
    std::uint64_t written = 0;
    for (;;) {
      const zip_int64_t got = zip_fread(in.get(), buffer.data(), buffer.size());
      if (got < 0) throw std::runtime_error(archive.string() + ": entry '" + name + "' is damaged: " + zip_file_strerror(in.get()));
      if (got == 0) break;
      written += static_cast<std::uint64_t>(got);
      // An entry that holds more than its header says is lying about its size.
      if (written > declared[static_cast<std::size_t>(i)])
        throw std::runtime_error(archive.string() + ": entry '" + name + "' holds more than the " +
                                 std::to_string(declared[static_cast<std::size_t>(i)]) + " bytes it declares; refused");
      out.write(buffer.data(), got);
    }
    if (!out.flush()) throw std::runtime_error("cannot write " + target.string() + " (disk full?)");
  }
}

}  // namespace daekit::fmu
