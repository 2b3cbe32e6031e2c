#include "elf_manifest.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>

namespace daekit::loader::elf {
namespace {

// Pointer fields of dk_manifest, at their offsets on a 64-bit target (abi.h: five
// uint32_t, padding to 8, then five pointers).
constexpr std::size_t manifest_header_bytes = 20;
constexpr std::size_t manifest_pointer_offset = 24;
constexpr std::size_t manifest_bytes = manifest_pointer_offset + 5 * 8;
constexpr std::size_t longest_string = 4096;
constexpr std::uintmax_t largest_file = std::uintmax_t{1} << 32;

struct Symbol {
  std::uint64_t value = 0;
  std::uint16_t section = SHN_UNDEF;
};

// The views a loader would build of the file: sections, segments, dynamic symbols and
// the relocations that fill pointers at load time. Only the parts those need are read,
// never the whole file: a sanitizer build's plugins hold 172 MB, read at every start.
class Image {
 public:
  explicit Image(const std::filesystem::path& file) : in_(file, std::ios::binary) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) throw Unreadable("its size cannot be read: " + ec.message());
    if (size > largest_file) throw Unreadable("larger than any plugin (" + std::to_string(size) + " bytes)");
    if (!in_) throw Unreadable("cannot be opened");
    size_ = static_cast<std::uint64_t>(size);
    read_header();
    read_sections();
    read_segments();
    read_symbols();
    read_relocations();
  }

  const std::map<std::string, Symbol>& symbols() const { return symbols_; }
  std::optional<std::uint16_t> section_index(const std::string& name) const {
    auto it = section_by_name_.find(name);
    if (it == section_by_name_.end()) return std::nullopt;
    return it->second;
  }

  // The pointer-sized value at address `vaddr` as the dynamic loader would leave it.
  std::uint64_t pointer_at(std::uint64_t vaddr) const {
    // The last relocation of that address wins, as it would when the loader applies them in order.
    auto it = std::upper_bound(relocated_.begin(), relocated_.end(), vaddr,
                               [](std::uint64_t a, const Relocation& r) { return a < r.offset; });
    if (it != relocated_.begin() && (--it)->offset == vaddr) {
      if (!it->value) throw Unreadable("a pointer at 0x" + hex(vaddr) + " is bound to another library's symbol");
      return *it->value;
    }
    std::uint64_t v = 0;
    copy_from(vaddr, &v, sizeof v);
    return v;
  }

  std::uint32_t u32_at(std::uint64_t vaddr) const {
    std::uint32_t v = 0;
    copy_from(vaddr, &v, sizeof v);
    return v;
  }

  std::string string_at(std::uint64_t vaddr) const {
    if (vaddr == 0) return {};
    std::string out;
    for (std::size_t i = 0; i < longest_string; ++i) {
      char c = 0;
      copy_from(vaddr + i, &c, 1);
      if (c == '\0') return out;
      out.push_back(c);
    }
    throw Unreadable("a string at 0x" + hex(vaddr) + " has no end");
  }

 private:
  static std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  // `size` bytes at file offset `offset`, which the caller has checked lie in the file.
  void read_at(std::uint64_t offset, void* out, std::size_t size) const {
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    if (!in_.read(static_cast<char*>(out), static_cast<std::streamsize>(size)))
      throw Unreadable("cannot be read to its end (changed while read?)");
  }
  bool within_file(std::uint64_t offset, std::uint64_t size) const { return offset <= size_ && size_ - offset >= size; }

  template <class T>
  T at_offset(std::uint64_t offset) const {
    if (!within_file(offset, sizeof(T))) throw Unreadable("a header lies beyond the end of the file (truncated?)");
    T v;
    read_at(offset, &v, sizeof(T));
    return v;
  }
  // A whole table of T (a section's entries).
  template <class T>
  std::vector<T> table_at(std::uint64_t offset, std::size_t count) const {
    if (count > size_ / sizeof(T) || !within_file(offset, count * sizeof(T)))
      throw Unreadable("a table lies beyond the end of the file (truncated?)");
    std::vector<T> v(count);
    if (count > 0) read_at(offset, v.data(), count * sizeof(T));
    return v;
  }

  // Bytes at a virtual address: from the segment that maps it; past its file part, zeros.
  void copy_from(std::uint64_t vaddr, void* out, std::size_t size) const {
    for (const auto& s : segments_) {
      if (vaddr < s.p_vaddr || vaddr - s.p_vaddr >= s.p_memsz || s.p_memsz - (vaddr - s.p_vaddr) < size) continue;
      const std::uint64_t within = vaddr - s.p_vaddr;
      auto* dst = static_cast<char*>(out);
      std::memset(dst, 0, size);
      // The part in the file: inside the segment's file size and the file itself.
      const std::uint64_t file_end = std::min<std::uint64_t>(s.p_filesz, s.p_offset <= size_ ? size_ - s.p_offset : 0);
      if (within < file_end) read_at(s.p_offset + within, dst, static_cast<std::size_t>(std::min<std::uint64_t>(size, file_end - within)));
      return;
    }
    throw Unreadable("address 0x" + hex(vaddr) + " lies in no loadable segment");
  }

  void read_header() {
    if (size_ < sizeof(Elf64_Ehdr)) throw Unreadable("shorter than an ELF header");
    header_ = at_offset<Elf64_Ehdr>(0);
    if (std::memcmp(header_.e_ident, ELFMAG, SELFMAG) != 0) throw Unreadable("not an ELF file");
    if (header_.e_ident[EI_CLASS] != ELFCLASS64 || header_.e_ident[EI_DATA] != ELFDATA2LSB)
      throw Unreadable("not a 64-bit little-endian ELF file");
    if (header_.e_type != ET_DYN) throw Unreadable("not a shared library (ELF type " + std::to_string(header_.e_type) + ")");
    if (header_.e_machine != EM_X86_64 && header_.e_machine != EM_AARCH64)
      throw Unreadable("built for another processor (ELF machine " + std::to_string(header_.e_machine) + ")");
    if (header_.e_shentsize != sizeof(Elf64_Shdr) || header_.e_phentsize != sizeof(Elf64_Phdr))
      throw Unreadable("unexpected ELF header sizes");
  }

  void read_sections() {
    for (std::size_t i = 0; i < header_.e_shnum; ++i)
      sections_.push_back(at_offset<Elf64_Shdr>(header_.e_shoff + i * sizeof(Elf64_Shdr)));
    if (header_.e_shstrndx >= sections_.size()) throw Unreadable("no section name table");
    const Elf64_Shdr& names = sections_[header_.e_shstrndx];
    for (std::size_t i = 0; i < sections_.size(); ++i)
      section_by_name_[string_in(names, sections_[i].sh_name)] = static_cast<std::uint16_t>(i);
  }

  void read_segments() {
    for (std::size_t i = 0; i < header_.e_phnum; ++i) {
      const auto p = at_offset<Elf64_Phdr>(header_.e_phoff + i * sizeof(Elf64_Phdr));
      if (p.p_type == PT_LOAD) segments_.push_back(p);
    }
    if (segments_.empty()) throw Unreadable("no loadable segment");
  }

  // A NUL-terminated string at `offset` inside a string table section.
  std::string string_in(const Elf64_Shdr& table, std::uint64_t offset) const {
    if (offset >= table.sh_size || !within_file(table.sh_offset, table.sh_size))
      throw Unreadable("a name lies outside its string table (truncated?)");
    const std::uint64_t room = table.sh_size - offset;
    std::string out;
    char chunk[256];
    for (std::uint64_t done = 0; done < room;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof chunk, room - done));
      read_at(table.sh_offset + offset + done, chunk, n);
      const std::size_t len = strnlen(chunk, n);
      out.append(chunk, len);
      if (len < n) return out;
      done += n;
    }
    throw Unreadable("a name in a string table has no end");
  }

  void read_symbols() {
    for (const auto& s : sections_) {
      if (s.sh_type != SHT_DYNSYM) continue;
      if (s.sh_link >= sections_.size() || s.sh_entsize != sizeof(Elf64_Sym))
        throw Unreadable("a malformed dynamic symbol table");
      const Elf64_Shdr& names = sections_[s.sh_link];
      for (const auto& sym : table_at<Elf64_Sym>(s.sh_offset, static_cast<std::size_t>(s.sh_size / sizeof(Elf64_Sym)))) {
        dynsym_.push_back(sym);
        if (sym.st_name == 0) continue;
        symbols_[string_in(names, sym.st_name)] = {sym.st_value, sym.st_shndx};
      }
    }
  }

  // RELATIVE relocations carry the target address in their addend; 64-bit absolute ones
  // add it to a symbol of this file. Both are what pointer-valued constants need.
  void read_relocations() {
    const bool x86 = header_.e_machine == EM_X86_64;
    const std::uint32_t relative = x86 ? R_X86_64_RELATIVE : R_AARCH64_RELATIVE;
    const std::uint32_t absolute = x86 ? R_X86_64_64 : R_AARCH64_ABS64;
    for (const auto& s : sections_) {
      if (s.sh_type != SHT_RELA) continue;
      if (s.sh_entsize != sizeof(Elf64_Rela)) throw Unreadable("a malformed relocation table");
      for (const auto& r : table_at<Elf64_Rela>(s.sh_offset, static_cast<std::size_t>(s.sh_size / sizeof(Elf64_Rela)))) {
        const auto type = static_cast<std::uint32_t>(ELF64_R_TYPE(r.r_info));
        const auto sym = static_cast<std::size_t>(ELF64_R_SYM(r.r_info));
        if (type == relative) {
          relocated_.push_back({r.r_offset, static_cast<std::uint64_t>(r.r_addend)});
        } else if (type == absolute) {
          if (sym < dynsym_.size() && dynsym_[sym].st_shndx != SHN_UNDEF)
            relocated_.push_back({r.r_offset, dynsym_[sym].st_value + static_cast<std::uint64_t>(r.r_addend)});
          else
            relocated_.push_back({r.r_offset, std::nullopt});
        }
      }
    }
    // A sorted array, not a map: a plugin has tens of thousands of these (an instrumented
    // one more), read for every plugin at every start; a map's node per entry cost the
    // sanitizer build 2-3 s per `daekit` command.
    std::stable_sort(relocated_.begin(), relocated_.end(),
                     [](const Relocation& a, const Relocation& b) { return a.offset < b.offset; });
  }

  mutable std::ifstream in_;
  std::uint64_t size_ = 0;
  Elf64_Ehdr header_{};
  std::vector<Elf64_Shdr> sections_;
  std::map<std::string, std::uint16_t> section_by_name_;
  std::vector<Elf64_Phdr> segments_;
  std::vector<Elf64_Sym> dynsym_;
  std::map<std::string, Symbol> symbols_;
  struct Relocation {
    std::uint64_t offset;
    std::optional<std::uint64_t> value;  // empty: bound to another library's symbol
  };
  std::vector<Relocation> relocated_;  // by offset (read_relocations)
};

}  // namespace

std::vector<FileManifest> read_manifests(const std::filesystem::path& file,
                                         const std::function<bool(const std::string&)>& is_manifest,
                                         const std::string& section) {
  const Image image(file);
  const auto section_index = image.section_index(section);
  std::vector<FileManifest> out;
  if (!section_index) return out;
  for (const auto& [name, sym] : image.symbols()) {
    if (sym.section != *section_index || !is_manifest(name)) continue;
    FileManifest m;
    m.symbol = name;
    const std::uint64_t at = image.pointer_at(sym.value);
    if (at == 0) throw Unreadable("the alias " + name + " points nowhere in the file");
    std::uint32_t header[5];
    for (std::size_t i = 0; i < 5; ++i) header[i] = image.u32_at(at + 4 * i);
    static_assert(sizeof header == manifest_header_bytes);
    m.magic = header[0];
    m.abi_major = header[1];
    m.abi_minor = header[2];
    m.struct_size = header[3];
    m.kind = header[4];
    // A manifest too small to hold the pointers is reported by the caller from struct_size.
    if (m.struct_size >= manifest_bytes) {
      std::string* strings[5] = {&m.name, &m.version, &m.description, &m.build_id, &m.entry};
      for (std::size_t i = 0; i < 5; ++i) *strings[i] = image.string_at(image.pointer_at(at + manifest_pointer_offset + 8 * i));
    }
    auto entry = image.symbols().find(m.entry);
    m.entry_exported = !m.entry.empty() && entry != image.symbols().end() && entry->second.section != SHN_UNDEF;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace daekit::loader::elf
