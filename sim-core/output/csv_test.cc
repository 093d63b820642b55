// Tests for CSV cells: RFC 4180 quoting, and formula cells neutralised as OWASP's "CSV Injection"
// advises (a text cell starting with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe; numbers, negative ones included, are left as they are), in trace.csv too.
#include "output/csv.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "output/export.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "testing/test_paths.h"

namespace tcb {
namespace {

TEST(CsvCellTest, NeutralisesFormulasAndLeavesNumbers) {
  // OWASP, "CSV Injection".
  EXPECT_EQ(CsvCell("=1+1"), "'=1+1");
  EXPECT_EQ(CsvCell("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(CsvCell("-cmd"), "'-cmd");
  EXPECT_EQ(CsvCell("-1.5"), "-1.5");
  EXPECT_EQ(CsvCell("+2e-3"), "+2e-3");
  EXPECT_EQ(CsvCell("a=b"), "a=b");
  // RFC 4180 §2: quoted when a separator, a quote or a line break is inside.
  EXPECT_EQ(CsvCell("x,y"), "\"x,y\"");
  EXPECT_EQ(CsvCell("\r=1"), "\"'\r=1\"");
}

// The cases both implementations pass (wasm/test/csv.test.ts runs them on wasm/src/csv.ts, the
// service's and the dashboard's).
TEST(CsvCellTest, PassesTheCasesSharedWithTheTypeScriptImplementation) {
  std::ifstream in(TestSourceDir() / "output/csv_cases.json");
  ASSERT_TRUE(in) << "csv_cases.json";
  const nlohmann::json cases = nlohmann::json::parse(in);
  ASSERT_GT(cases["cells"].size(), 10u);
  for (const nlohmann::json& c : cases["cells"]) {
    EXPECT_EQ(CsvCell(c["text"].get<std::string>()), c["cell"].get<std::string>()) << c;
  }
}

TEST(CsvCellTest, TraceCsvNeutralisesNamesThatLookLikeFormulas) {
  // A traffic item's name may start with '-' (letters, digits, '_', '.', '-'); its flows' names
  // start with it.
  const nlohmann::json doc = nlohmann::json::parse(R"({"schemaVersion": 1, "durationS": 2,
    "record": {"trace": "full"},
    "topology": {"kind": "single-link", "link": {"bandwidthMbps": 1, "delayMs": 10}},
    "traffic": [{"type": "bulk", "name": "-cmd", "from": "server", "to": "client", "bytes": 5000}]})");
  const RunOutput run = RunScenario(ParseScenario(doc));
  std::ostringstream csv;
  WriteTraceCsv(run, csv);
  const std::string text = csv.str();
  ASSERT_EQ(run.flows[0].name.rfind("-cmd", 0), 0u) << run.flows[0].name;
  EXPECT_NE(text.find(",'" + run.flows[0].name + ","), std::string::npos) << text.substr(0, 400);
  EXPECT_EQ(text.find(",-cmd"), std::string::npos) << "no cell starts with the bare name";
}

}  // namespace
}  // namespace tcb
