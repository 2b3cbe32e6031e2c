// Bad input to a fit is refused before the first solve, naming the file and line or the
// parameter: malformed data and condition tables, names the problem does not have, times
// outside its span, bounds that exclude the guess. A seeded fuzz test of the data reader:
// any text is read or refused with a UsageError, never anything else.
#include <catch2/catch.hpp>
#include <daekit/daekit.hpp>
#include <daekit/fit/fit.hpp>
#include <random>

namespace {

using daekit::fit::parse_experiment;
using daekit::UsageError;

const daekit::Registry& registry() {
  static const daekit::Registry r;
  return r;
}

daekit::fit::FitSettings estimating(const std::vector<std::string>& names) {
  daekit::fit::FitSettings s;
  for (const auto& name : names) {
    daekit::fit::Estimate e;
    e.name = name;
    s.estimate.push_back(e);
  }
  return s;
}

const std::string good = "t,name,value,sigma\n1,y1,0.96,0.01\n10,y3,0.15,0.01\n";

std::string refusal_of(const std::string& csv, const daekit::fit::FitSettings& s, const std::string& problem = "rober") {
  try {
    const auto data = parse_experiment(csv, "e", "e.csv");
    daekit::fit::fit(registry().problem(problem), registry().solver("radau5"), {data}, s);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a data file that cannot be read is refused, naming its line", "[fit][input]") {
  const auto refused = [](const std::string& text) {
    try {
      parse_experiment(text, "e", "e.csv");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(refused(""), Catch::Contains("no header"));
  CHECK_THAT(refused("time,name,value,sigma\n1,y1,1,1\n"), Catch::Contains("line 1: the header must be t,name,value,sigma"));
  CHECK_THAT(refused("t,name,value,sigma\n"), Catch::Contains("no measurement"));
  CHECK_THAT(refused("t,name,value,sigma\n1,y1,1\n"), Catch::Contains("line 2: expected 4 fields"));
  CHECK_THAT(refused("t,name,value,sigma\n1,y1,1,1,\n"), Catch::Contains("line 2: expected 4 fields"));
  CHECK_THAT(refused("t,name,value,sigma\n# a comment\n\n1,y1,nan,1\n"), Catch::Contains("line 4: the value 'nan' is not finite"));
  CHECK_THAT(refused("t,name,value,sigma\n1,y1,1,0\n"), Catch::Contains("line 2: sigma must be positive"));
  CHECK_THAT(refused("t,name,value,sigma\n1,y1,1,-1\n"), Catch::Contains("sigma must be positive"));
  CHECK_THAT(refused("t,name,value,sigma\n1,y1,1,inf\n"), Catch::Contains("sigma 'inf' is not finite"));
  CHECK_THAT(refused("t,name,value,sigma\nx,y1,1,1\n"), Catch::Contains("the time 'x' is not a number"));
  CHECK_THAT(refused("t,name,value,sigma\n1,,1,1\n"), Catch::Contains("line 2: the name is empty"));
  CHECK_THAT(refused("t,name,value,sigma\n1,y1,1e999,1\n"), Catch::Contains("not finite"));
  // Accepted: a byte order mark, spaces around fields, CRLF line ends, replicates.
  const auto e = parse_experiment("\xEF\xBB\xBFt, name ,value,sigma\r\n1, y1 ,0.5,0.1\r\n1,y1,0.52,0.1\r\n", "e", "e.csv");
  REQUIRE(e.measurements.size() == 2);
  CHECK(e.measurements[0].name == "y1");
  CHECK(e.measurements[1].line == 3);
  CHECK_THROWS_WITH(daekit::fit::read_experiment("/nonexistent/data.csv"), Catch::Contains("is not a readable file"));
}

TEST_CASE("a condition table that does not fit the experiments is refused", "[fit][input]") {
  std::vector<daekit::fit::Experiment> experiments{parse_experiment(good, "a", "a.csv")};
  const auto refused = [&](const std::string& text) {
    try {
      auto copy = experiments;
      daekit::fit::parse_conditions(text, "c.csv", copy);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(refused("name,k1\na,1\n"), Catch::Contains("c.csv, line 1: the header must be experiment"));
  CHECK_THAT(refused("experiment,k1,k1\na,1,2\n"), Catch::Contains("repeats 'k1'"));
  CHECK_THAT(refused("experiment,k1\nb,1\n"), Catch::Contains("line 2: no experiment 'b' (the data files give: a)"));
  CHECK_THAT(refused("experiment,k1\na,1\na,2\n"), Catch::Contains("line 3: experiment 'a' is given twice"));
  CHECK_THAT(refused("experiment,k1\na,x\n"), Catch::Contains("line 2: k1 'x' is not a number"));
  CHECK_THAT(refused("experiment,k1\na\n"), Catch::Contains("expected 2 fields"));
  // Refused by the fit, which knows the problem: a name it does not have.
  daekit::fit::parse_conditions("experiment,kk1\na,1\n", "c.csv", experiments);
  CHECK_THROWS_WITH(daekit::fit::fit(registry().problem("rober"), registry().solver("radau5"), experiments, estimating({"k2"})),
                    Catch::Contains("neither a real parameter") && Catch::Contains("did you mean 'k1"));
  experiments[0].conditions = {{"y0:zz", 1.0}};
  CHECK_THROWS_WITH(daekit::fit::fit(registry().problem("rober"), registry().solver("radau5"), experiments, estimating({"k2"})),
                    Catch::Contains("has no component 'zz'"));
}

TEST_CASE("estimates, measurements and bounds the problem cannot take are refused before any solve", "[fit][input]") {
  CHECK_THAT(refusal_of(good, estimating({"k4"})), Catch::Contains("no real parameter 'k4'") && Catch::Contains("did you mean"));
  CHECK_THAT(refusal_of(good, estimating({"k1", "k1"})), Catch::Contains("k1 is estimated twice"));
  CHECK_THAT(refusal_of(good, estimating({})), Catch::Contains("nothing to estimate"));
  CHECK_THAT(refusal_of(good, estimating({"y0:y9"})), Catch::Contains("no component 'y9'"));
  CHECK_THAT(refusal_of("t,name,value,sigma\n1,y1,1,1\n2,y7,1,1\n", estimating({"k1"})),
             Catch::Contains("e.csv, line 3: problem 'rober' has no component or output 'y7'"));
  CHECK_THAT(refusal_of("t,name,value,sigma\n1,y1,1,1\n2e11,y1,1,1\n", estimating({"k1"})),
             Catch::Contains("e.csv, line 3: t = 2e+11 lies outside the problem's span"));
  CHECK_THAT(refusal_of("t,name,value,sigma\n-1,y1,1,1\n", estimating({"k1"})), Catch::Contains("outside the problem's span"));
  auto s = estimating({"k1"});
  s.estimate[0].lower = 0.1;
  CHECK_THAT(refusal_of(good, s), Catch::Contains("initial guess of k1 (0.04) lies outside its bounds [0.1, inf]"));
  s.estimate[0].upper = 0.05;
  CHECK_THAT(refusal_of(good, s), Catch::Contains("hold no value"));
  s = estimating({"k1"});
  s.estimate[0].initial = -1;
  s.estimate[0].log_scale = true;
  CHECK_THAT(refusal_of(good, s), Catch::Contains("log scale but its initial guess -1 is not positive"));
  s = estimating({"k1"});
  s.max_iterations = 0;
  CHECK_THAT(refusal_of(good, s), Catch::Contains("iteration limit"));
  s = estimating({"k1"});
  s.method = "newton";
  CHECK_THAT(refusal_of(good, s), Catch::Contains("levenberg_marquardt or dogleg"));
  s = estimating({"k1"});
  s.run.solver_options = {{"no_such_option", "1"}};
  CHECK_THAT(refusal_of(good, s), Catch::Contains("no_such_option"));
  std::vector<daekit::fit::Experiment> twice{parse_experiment(good, "a", "a.csv"), parse_experiment(good, "a", "b/a.csv")};
  CHECK_THROWS_WITH(daekit::fit::fit(registry().problem("rober"), registry().solver("radau5"), twice, estimating({"k1"})),
                    Catch::Contains("two experiments are named 'a'"));
  CHECK_THROWS_WITH(daekit::fit::fit(registry().problem("vdpol"), registry().solver("radau5"),
                                     {parse_experiment(good, "a", "a.csv")}, estimating({"mu"})),
                    Catch::Contains("no real parameter 'mu'"));
}

TEST_CASE("a solver without sensitivities cannot fit", "[fit][input]") {
  daekit::api::PluginSearch search;
  search.files = {std::string(DAEKIT_TEST_FIXTURE_DIR) + "/fixture_abi_1_1.so"};
  const daekit::Registry fixtures(search);
  CHECK_THROWS_AS(daekit::fit::fit(registry().problem("rober"), fixtures.solver("legacy_euler"),
                                   {parse_experiment(good, "a", "a.csv")}, estimating({"k1"})),
                  daekit::UnsupportedProblem);
}

TEST_CASE("fuzz: any mutation of a data file is read or refused with a UsageError", "[fit][input][fuzz]") {
  const std::string base = "t,name,value,sigma\n0.1,y1,0.99,0.01\n1,y2,3e-5,1e-7\n# note\n10,y3,0.15,0.01\n";
  const std::string alphabet = ",\n\r#-+.eE0123456789 y1nai\"\xEF\xBB\xBF\0";
  std::mt19937_64 engine(20261205);
  for (int round = 0; round < 3000; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(engine() % 6);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = text.empty() ? 0 : engine() % text.size();
      const char c = alphabet[engine() % alphabet.size()];
      switch (engine() % 3) {
        case 0: if (!text.empty()) text[at] = c; break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: if (!text.empty()) text.erase(at, 1 + engine() % 4);
      }
    }
    try {
      const auto e = parse_experiment(text, "e", "e.csv");
      for (const auto& m : e.measurements) {
        CHECK(std::isfinite(m.t));
        CHECK(m.sigma > 0);
        CHECK(std::isfinite(m.value));
      }
    } catch (const UsageError&) {
    }
  }
}
