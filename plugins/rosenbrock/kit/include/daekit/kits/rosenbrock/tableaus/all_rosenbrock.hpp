// Every Rosenbrock tableau, for the plugin's exports and for tests that run them all.
#pragma once

#include <array>

#include "daekit/kits/rosenbrock/tableaus/low_order.hpp"
#include "daekit/kits/rosenbrock/tableaus/rodas4.hpp"
#include "daekit/kits/rosenbrock/tableaus/rodas5.hpp"
#include "daekit/kits/rosenbrock/tableaus/rodas5p.hpp"
#include "daekit/kits/rosenbrock/tableaus/rok4a.hpp"

namespace daekit::tableaus {

inline constexpr std::array<const RosenbrockTableau*, 11> all_rosenbrock = {
    &rosenbrock23, &ros3p, &rodas3, &ros34pw2, &rodas4, &rodas42, &rodas4p, &rodas4p2, &rodas5, &rodas5p, &rok4a};

}  // namespace daekit::tableaus
