// daekit.fit's compiled part: parameter estimation (libdaekit_fit) on a problem object.
#pragma once

#include <pybind11/pybind11.h>

namespace daekit::python {

void bind_fit(pybind11::module_& m);

}  // namespace daekit::python
