// The statistics are declared once (api::stat_fields): every dk_stats field is in the
// table once, docs/statistics.md describes exactly the table's rows, and a value set
// through the table reads back the same.
#include <catch2/catch.hpp>
#include <daekit/api/stat_fields.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace daekit;

TEST_CASE("the statistics table covers dk_stats once, with unique names", "[api][stats]") {
  std::set<std::string> names;
  std::size_t bytes = 0;
  for (const auto& f : api::stat_fields()) {
    INFO(f.name);
    CHECK(names.insert(std::string(f.name)).second);
    CHECK(!f.meaning.empty());
    CHECK(!f.unit.empty());
    bytes += std::visit([](auto member) { return sizeof(dk_stats{}.*member); }, f.member);
  }
  // Every field of the struct is a row: their sizes add up to the struct's but for the
  // padding after the lone int32 (linear_algebra), less than any field that could be missing.
  REQUIRE(bytes <= sizeof(dk_stats));
  CHECK(sizeof(dk_stats) - bytes < 8);
}

TEST_CASE("a statistic set through the table reads back", "[api][stats]") {
  dk_stats s{};
  std::int64_t k = 1;
  for (const auto& f : api::stat_fields()) {
    if (f.value_name) {
      api::set_stat(s, f, f.value_name(1));
      const auto v = api::stat_value(s, f);
      REQUIRE(std::holds_alternative<const char*>(v));
      CHECK(std::string(std::get<const char*>(v)) == f.value_name(1));
    } else if (f.unit == "s" || f.unit == "step") {
      api::set_stat(s, f, 0.5 * static_cast<double>(k));
      CHECK(std::get<double>(api::stat_value(s, f)) == 0.5 * static_cast<double>(k));
    } else {
      api::set_stat(s, f, k);
      CHECK(std::get<std::int64_t>(api::stat_value(s, f)) == k);
    }
    ++k;
  }
}

TEST_CASE("docs/statistics.md lists exactly the table's statistics", "[api][stats][docs]") {
  std::ifstream in(std::string(DAEKIT_SOURCE_DIR) + "/docs/statistics.md");
  REQUIRE(in);
  const std::regex row(R"(^\| `([a-z_0-9]+)` \| ([a-z]+) \| (.+) \| 1\.([0-9]) \| (yes)? ?\|$)");
  std::vector<std::string> documented;
  std::string line;
  auto fields = api::stat_fields();
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const std::size_t i = documented.size();
    documented.push_back(m[1]);
    REQUIRE(i < fields.size());
    INFO(line);
    CHECK(m[1] == std::string(fields[i].name));
    CHECK(m[2] == std::string(fields[i].unit));
    CHECK(m[3] == std::string(fields[i].meaning));
    CHECK(std::stoi(m[4]) == fields[i].since_minor);
    CHECK(m[5].matched == fields[i].beside_stats);
  }
  CHECK(documented.size() == fields.size());
}
