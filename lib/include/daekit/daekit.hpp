// The daekit library for programs: every solver plugin on every problem plugin, or on a
// daekit::Problem of the program itself. docs/embedding.md shows a complete project.
#pragma once

#include "daekit/api/handles.hpp"
#include "daekit/api/solve.hpp"
