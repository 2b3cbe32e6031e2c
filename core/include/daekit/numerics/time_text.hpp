// How messages name the time of an event: "at t=" with ten significant digits, enough
// to tell events apart that a run located close together.
#pragma once

#include <sstream>
#include <string>

namespace daekit {

inline std::string at_time(double t) {
  std::ostringstream m;
  m.precision(10);
  m << "at t=" << t;
  return m.str();
}

}  // namespace daekit
