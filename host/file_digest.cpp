#include "file_digest.hpp"

#include <boost/uuid/detail/sha1.hpp>
#include <cstdio>
#include <fstream>
#include <vector>

namespace daekit::host {

std::string file_sha1(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  boost::uuids::detail::sha1 sha;
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) sha.process_bytes(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  boost::uuids::detail::sha1::digest_type digest;
  sha.get_digest(digest);
  std::string hex;
  char part[9];
  for (unsigned word : digest) {
    std::snprintf(part, sizeof part, "%08x", word);
    hex += part;
  }
  return hex;
}

}  // namespace daekit::host
