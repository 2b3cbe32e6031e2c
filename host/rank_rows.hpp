// The end of `daekit run` for a problem whose rows stay on the ranks that own them (ABI 1.3
// part G, local rows): every rank holds the owned rows of each output point and scores
// them against its owned rows of the reference. Rank 0 merges the ranks' scores into the
// report's (the same numbers as scoring the whole vector), and the output is gathered to
// rank 0 into one file while the problem has at most `gather_limit` rows, else each rank
// writes its own rows beside it (FILE.rank<R>.csv): gathering 10^8 rows would put the
// whole trajectory in one process, which is what local rows exist to avoid.
#pragma once

#include <cstddef>
#include <string>

#include <daekit/api/solve.hpp>

#include "farm/transport.hpp"
#include "report.hpp"

namespace daekit::host {

// The rows a run gathers into one output file by default; above it, a file per rank.
constexpr std::size_t default_gather_limit = 10'000'000;

// Collective: every rank of the launch calls it after its solve, rank 0 with the report it
// prints (its accuracy replaced by the merged one), the others with theirs (unused).
void finish_on_ranks(farm::Transport& ranks, const Solution& solution, const dk_problem_info& info,
                     const std::string& output_file, std::size_t gather_limit, RunReport& report);

// FILE.csv -> FILE.rank<R>.csv: where rank R writes its rows.
std::string rank_file(const std::string& output_file, int rank);

}  // namespace daekit::host
