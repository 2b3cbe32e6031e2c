// Small pieces every written record shares (wpd and ensemble results): CSV quoting and
// the time stamp.
#pragma once

#include <string>

namespace daekit::host {

// A CSV field: quoted when it holds a comma, quote or line break (a line break becomes a space).
std::string csv_field(const std::string& s);
// Now, as 2026-12-03T11:37:03Z.
std::string now_utc();

}  // namespace daekit::host
