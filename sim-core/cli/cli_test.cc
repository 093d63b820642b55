// The tcpsim command line as users and the rest of the product drive it: bad input exits with code
// 2 and one line naming the JSON path and the problem; good input runs and writes its outputs.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/serve.h"
#include "testing/address_space_limit.h"
#include "testing/test_paths.h"

namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lines of `text` (tcpsim serve's answers, one per line).
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The process id too: two test runs on one machine (two checkouts) must not share the files.
    dir_ = fs::temp_directory_path() /
           ("tcpsim-cli-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs tcpsim with `args` (shell-quoted by the caller), feeding `stdin_text` on stdin; with
  // `address_space_kib`, under that address-space limit (ulimit -v: RLIMIT_AS; tests/address_space_limit.h).
  Result Tcpsim(const std::string& args, const std::string& stdin_text = "", long address_space_kib = 0) {
    const fs::path in = dir_ / "stdin", out = dir_ / "stdout", err = dir_ / "stderr";
    std::ofstream(in, std::ios::binary) << stdin_text;
#if defined(TCBSIM_UNDER_ASAN)
    // No RLIMIT_AS holds the sanitizer's shadow memory: its own hard RSS limit instead.
    const std::string limit =
        address_space_kib > 0 ? "ASAN_OPTIONS=\"$ASAN_OPTIONS:hard_rss_limit_mb=" + std::to_string(address_space_kib / 1024) + "\" " : "";
#else
    const std::string limit = address_space_kib > 0 ? "ulimit -v " + std::to_string(address_space_kib) + " && " : "";
#endif
    const std::string cmd = limit + tcb::TestTcpsimBinary().string() + " " + args + " <" + in.string() + " >" +
                            out.string() + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    return {WEXITSTATUS(status), ReadFile(out), ReadFile(err)};
  }

  fs::path dir_;
};

const char* kGood = R"({"schemaVersion": 1, "durationS": 5,
  "topology": {"kind": "single-link", "link": {"bandwidthMbps": 1, "delayMs": 10}},
  "traffic": [{"type": "bulk", "from": "server", "to": "client", "bytes": 20000}]})";

// Runs `doc` from stdin and expects exit code 2 with exactly one line starting with `prefix`.
void ExpectBadInput(const Result& r, const std::string& expected_line_prefix) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_EQ(r.err.rfind(expected_line_prefix, 0), 0u) << r.err;
}

TEST_F(CliTest, BadScenariosNameThePathAndTheProblem) {
  ExpectBadInput(Tcpsim("run -", "{\"schemaVersion\": 1,\n \"topology\": }"),
                 "error: $: invalid JSON at line 2, column 14");
  ExpectBadInput(Tcpsim("run -", R"({"schemaVersion": 1, "traffic": []})"),
                 "error: $: missing required field \"topology\"");
  nlohmann::json doc = nlohmann::json::parse(kGood);

  auto with = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json d = doc;
    edit(d);
    return Tcpsim("run -", d.dump());
  };
  ExpectBadInput(with([](auto& d) { d["colour"] = "red"; }), "error: $.colour: unknown field \"colour\"");
  ExpectBadInput(with([](auto& d) { d["topology"]["link"]["bandwidthMbps"] = -5; }),
                 "error: $.topology.link.bandwidthMbps: must be > 0");
  ExpectBadInput(with([](auto& d) { d["tcp"] = {{"mssBytes", 0}}; }), "error: $.tcp.mssBytes: must be >= 16");
  ExpectBadInput(with([](auto& d) { d["traffic"][0]["to"] = "nowhere"; }),
                 "error: $.traffic[0].to: unknown node \"nowhere\"");
  ExpectBadInput(with([](auto& d) { d["durationS"] = 0; }), "error: $.durationS: must be > 0");
  ExpectBadInput(with([](auto& d) { d["tcp"] = {{"flavor", "vegas"}}; }),
                 "error: $.tcp.flavor: must be one of \"tahoe\", \"reno\", \"newreno\"");
  ExpectBadInput(with([](auto& d) { d["topology"]["kind"] = "ring"; }), "error: $.topology.kind: must be one of");
  ExpectBadInput(with([](auto& d) { d["traffic"][0]["bytes"] = "lots"; }), "error: $.traffic[0].bytes:");
  ExpectBadInput(with([](auto& d) {
                   d["topology"] = {{"kind", "custom"},
                                    {"nodes", {{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}}}},
                                    {"links", {{{"a", "a"}, {"b", "b"}, {"bandwidthMbps", 1}, {"delayMs", 1}}}}};
                   d["traffic"][0]["from"] = "a";
                   d["traffic"][0]["to"] = "c";
                 }),
                 "error: $.traffic[0].to: \"c\" is unreachable from \"a\"");
  ExpectBadInput(with([](auto& d) {
                   d["topology"] = {{"kind", "custom"},
                                    {"nodes", {{{"name", "a"}}, {{"name", "b"}}}},
                                    {"links", {{{"a", "a"}, {"b", "x"}, {"bandwidthMbps", 1}, {"delayMs", 1}}}}};
                 }),
                 "error: $.topology.links[0].b: unknown node \"x\"");
}

TEST_F(CliTest, BadArgumentsAndFiles) {
  ExpectBadInput(Tcpsim("run --preset no-such-preset"), "error: unknown preset \"no-such-preset\"");
  ExpectBadInput(Tcpsim("run - --seed -3", kGood), "error: --seed must be a non-negative integer");
  ExpectBadInput(Tcpsim("run - --trace loud", kGood), "error: --trace must be none, summary, series or full");
  ExpectBadInput(Tcpsim("run - --frobnicate", kGood), "error: unknown option --frobnicate");
  ExpectBadInput(Tcpsim("run " + (dir_ / "missing.json").string()), "error: $: cannot read file");
  ExpectBadInput(Tcpsim("validate"), "error: validate takes one scenario file");
  EXPECT_EQ(Tcpsim("").code, 2);
  EXPECT_EQ(Tcpsim("--help").code, 0);
}

// `tcpsim COMMAND --help` prints that command's part of the usage.
TEST_F(CliTest, EachCommandHasItsHelp) {
  const Result reproduce = Tcpsim("reproduce --help");
  ASSERT_EQ(reproduce.code, 0) << reproduce.err;
  EXPECT_NE(reproduce.out.find("reproduce <NAME|file|->"), std::string::npos);
  EXPECT_NE(reproduce.out.find("--quick | --full"), std::string::npos);
  EXPECT_NE(reproduce.out.find("--check"), std::string::npos);
  EXPECT_EQ(reproduce.out.find("report --legend"), std::string::npos);
  const Result report = Tcpsim("report -h");
  ASSERT_EQ(report.code, 0);
  EXPECT_NE(report.out.find("report --overview FILE..."), std::string::npos);
  EXPECT_NE(report.out.find("report --legend"), std::string::npos);
  const Result preset = Tcpsim("preset --help");
  EXPECT_NE(preset.out.find("preset NAME"), std::string::npos);
  EXPECT_EQ(preset.out.find("list the built-in scenarios"), std::string::npos);  // presets'.
  EXPECT_NE(Tcpsim("run --help").out.find("--max-memory-mb N"), std::string::npos);
  ExpectBadInput(Tcpsim("frobnicate --help"), "error: unknown command \"frobnicate\"");
}

TEST_F(CliTest, RunsFromStdinAndHonoursSeedAndTrace) {
  const Result a = Tcpsim("run - --seed 7 --trace none", kGood);
  ASSERT_EQ(a.code, 0) << a.err;
  const auto summary = nlohmann::json::parse(a.out);
  EXPECT_EQ(summary["scenario"]["seed"], 7);
  EXPECT_FALSE(summary.contains("flows"));
  EXPECT_EQ(summary["resultHash"].get<std::string>().size(), 64u);
  const auto full = nlohmann::json::parse(Tcpsim("run - --seed 7", kGood).out);
  EXPECT_EQ(full["resultHash"], summary["resultHash"]);
  EXPECT_EQ(full["flows"][0]["bytes"], 20000);
}

TEST_F(CliTest, PresetsValidateAndSchema) {
  const Result presets = Tcpsim("presets");
  ASSERT_EQ(presets.code, 0);
  for (const char* name : {"dumbbell-bulk", "spand-single-30k", "single-reno-trace"}) {
    EXPECT_NE(presets.out.find(std::string(name) + "\n"), std::string::npos) << name;
  }
  const Result validated = Tcpsim("validate -", kGood);
  ASSERT_EQ(validated.code, 0) << validated.err;
  const auto normal = nlohmann::json::parse(validated.out);
  EXPECT_EQ(normal["tcp"]["flavor"], "newreno");                   // A default filled in.
  EXPECT_EQ(normal["traffic"][0]["tcp"]["mssBytes"], 1460);         // Merged into each item.
  const Result schema = Tcpsim("schema");
  ASSERT_EQ(schema.code, 0);
  EXPECT_EQ(nlohmann::json::parse(schema.out)["title"], "Scenario");
  EXPECT_EQ(nlohmann::json::parse(Tcpsim("schema --result").out)["title"], "Result");
  const Result papers = Tcpsim("papers");
  ASSERT_EQ(papers.code, 0) << papers.err;
  EXPECT_EQ(nlohmann::json::parse(papers.out)["papers"][0]["id"], "etcp");
}

// The persistent runner answers each request line with the summary `tcpsim run` prints, to the
// bit, and serves on after bad input.
TEST_F(CliTest, ServeAnswersEachLineAsRunWouldAndSurvivesBadInput) {
  const nlohmann::json scenario = nlohmann::json::parse(kGood);
  std::string requests;
  for (int seed : {1, 2, 1}) {
    requests += nlohmann::json({{"id", seed}, {"scenario", scenario}, {"seed", seed}}).dump() + "\n";
  }
  requests += R"({"id": "bad", "scenario": {"schemaVersion": 1}})" "\n";
  requests += "not json\n";
  requests += R"({"id": "x", "scenario": {}, "colour": 1})" "\n";
  requests += nlohmann::json({{"id", "none"}, {"scenario", kGood}, {"trace", "none"}}).dump() + "\n";
  const Result served = Tcpsim("serve", requests);
  ASSERT_EQ(served.code, 0) << served.err;
  std::vector<nlohmann::json> answers;
  for (const std::string& line : Lines(served.out)) answers.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(answers.size(), 7u) << served.out;
  for (size_t i = 0; i < 3; ++i) {
    const int seed = i == 1 ? 2 : 1;
    const Result run = Tcpsim("run - --trace summary --seed " + std::to_string(seed), kGood);
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(answers[i]["id"], seed);
    EXPECT_TRUE(answers[i]["ok"]);
    EXPECT_EQ(answers[i]["summary"], nlohmann::json::parse(run.out)) << "request " << i;
  }
  EXPECT_NE(answers[0]["summary"]["resultHash"], answers[1]["summary"]["resultHash"]);
  EXPECT_EQ(answers[3]["error"]["kind"], "scenario");
  EXPECT_EQ(answers[3]["error"]["path"], "$");
  EXPECT_EQ(answers[4]["error"]["kind"], "request");
  EXPECT_EQ(answers[5]["error"]["message"], "unknown field \"colour\"");
  const Result none = Tcpsim("run - --trace none", kGood);
  EXPECT_EQ(answers[6]["summary"], nlohmann::json::parse(none.out));
}

// `tcpsim serve --help` prints the protocol, and its example's requests answer as it shows.
TEST_F(CliTest, ServeHelpPrintsTheProtocolWithAnExampleThatAnswersAsShown) {
  const Result help = Tcpsim("serve --help");
  ASSERT_EQ(help.code, 0) << help.err;
  EXPECT_EQ(help.out, tcb::cli::ServeHelp());
  EXPECT_NE(help.out.find("Request, one run:"), std::string::npos);
  // The example's requests: the single-quoted arguments of its printf after the format.
  const size_t command = help.out.find("$ printf '%s\\n' ");
  ASSERT_NE(command, std::string::npos);
  const std::string line = help.out.substr(command, help.out.find('\n', command) - command);
  std::string requests;
  for (size_t open = line.find(" '{"); open != std::string::npos; open = line.find(" '{", open + 1)) {
    requests += line.substr(open + 2, line.find('\'', open + 2) - open - 2) + "\n";
  }
  const Result served = Tcpsim("serve", requests);
  ASSERT_EQ(served.code, 0) << served.err;
  const std::vector<std::string> answers = Lines(served.out);
  ASSERT_EQ(answers.size(), 2u) << served.out;
  const nlohmann::json ok = nlohmann::json::parse(answers[0]);
  EXPECT_TRUE(ok["ok"]);
  EXPECT_NE(help.out.find("\"events\":" + ok["events"].dump() + ",\"values\":" + ok["values"].dump()), std::string::npos) << answers[0];
  const nlohmann::json bad = nlohmann::json::parse(answers[1]);
  EXPECT_NE(help.out.find("\"message\":" + bad["error"]["message"].dump() + ",\"path\":\"$\""), std::string::npos) << answers[1];
  ExpectBadInput(Tcpsim("serve --frobnicate"), "error: serve takes --max-memory-mb N, --parent-pid PID and --help only");
}

// Several runs of one scenario in one request (tcpsim serve's "runs"): one answer line per run, in
// order, each the same as its own request would get; a bad request is answered once per run it
// names. The summary closes every successful answer (callers take its text as it is).
TEST_F(CliTest, ServeAnswersEachRunOfAGroupOnItsOwnLine) {
  const nlohmann::json scenario = nlohmann::json::parse(kGood);
  std::string requests;
  requests += nlohmann::json({{"scenario", scenario}, {"trace", "none"},
                              {"runs", {{{"id", 10}, {"seed", 2}}, {{"id", 11}, {"seed", 3}}, {{"id", 12}}}}})
                  .dump() +
              "\n";
  requests += nlohmann::json({{"scenario", scenario}, {"runs", {{{"id", 20}, {"seed", -1}}, {{"id", 21}}}}}).dump() + "\n";
  requests += nlohmann::json({{"id", 30}, {"scenario", scenario}, {"runs", {{{"id", 31}}}}}).dump() + "\n";
  requests += nlohmann::json({{"scenario", scenario}, {"runs", nlohmann::json::array()}}).dump() + "\n";
  const Result served = Tcpsim("serve", requests);
  ASSERT_EQ(served.code, 0) << served.err;
  const std::vector<std::string> lines = Lines(served.out);
  ASSERT_EQ(lines.size(), 7u) << served.out;
  const std::vector<std::string> seeds = {"--seed 2", "--seed 3", ""};
  for (size_t i = 0; i < 3; ++i) {
    const auto answer = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(answer["id"], 10 + static_cast<int>(i));
    ASSERT_TRUE(answer["ok"]) << lines[i];
    const Result run = Tcpsim("run - --trace none " + seeds[i], kGood);
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(answer["summary"], nlohmann::json::parse(run.out)) << "run " << i;
    const std::string tail = ",\"summary\":" + answer["summary"].dump() + "}";
    EXPECT_EQ(lines[i].substr(lines[i].size() - tail.size()), tail) << "the summary closes the answer";
  }
  for (size_t i : {3, 4}) {
    const auto answer = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(answer["id"], 20 + static_cast<int>(i) - 3);
    EXPECT_EQ(answer["error"]["kind"], "request");
    EXPECT_EQ(answer["error"]["message"], "\"seed\" must be a non-negative integer");
  }
  EXPECT_EQ(nlohmann::json::parse(lines[5])["id"], 31);
  EXPECT_NE(nlohmann::json::parse(lines[5])["error"]["message"].get<std::string>().find("each run's"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(lines[6])["error"]["kind"], "request");
}

// A stream buffer with no buffer of its own: each write reaches it as one chunk, as each write(2)
// of tcpsim serve's standard output reaches (and wakes) the process that feeds it.
class ChunkRecorder : public std::streambuf {
 public:
  std::vector<std::string> chunks;

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    chunks.emplace_back(s, static_cast<size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) chunks.emplace_back(1, traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }
};

// tcpsim serve (sim-core/cli/serve.h) writes the answers of runs that follow one another without
// waiting for input together: at the end of the input, or once the flush interval has passed, never
// an answer (or a piece of one) at a time. A caller that queues many short runs then wakes once per
// batch of answers: with answers written one by one, a worker's process woke once per run.
TEST_F(CliTest, ServeWritesTheAnswersOfQueuedRunsTogether) {
  const nlohmann::json scenario = nlohmann::json::parse(kGood);
  const std::string requests =
      nlohmann::json({{"scenario", scenario}, {"trace", "none"}, {"runs", {{{"id", 1}}, {{"id", 2}}, {{"id", 3}}}}}).dump() +
      "\n" + nlohmann::json({{"id", 4}, {"scenario", scenario}, {"trace", "none"}}).dump() + "\n";
  {
    // Every request waiting in the input from the start, and an interval that never passes: one write.
    std::istringstream in(requests);
    ChunkRecorder recorder;
    std::ostream out(&recorder);
    tcb::cli::ServeStreams(in, out, std::chrono::hours(1));
    ASSERT_EQ(recorder.chunks.size(), 1u);
    const std::vector<std::string> lines = Lines(recorder.chunks[0]);
    ASSERT_EQ(lines.size(), 4u);
    for (size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(nlohmann::json::parse(lines[i])["id"], i + 1);
  }
  {
    // An interval that has always passed: a write per answer, each a whole line.
    std::istringstream in(requests);
    ChunkRecorder recorder;
    std::ostream out(&recorder);
    tcb::cli::ServeStreams(in, out, std::chrono::milliseconds(0));
    ASSERT_EQ(recorder.chunks.size(), 4u);
    for (size_t i = 0; i < recorder.chunks.size(); ++i) {
      ASSERT_EQ(Lines(recorder.chunks[i]).size(), 1u);
      EXPECT_EQ(recorder.chunks[i].back(), '\n');
      EXPECT_EQ(nlohmann::json::parse(recorder.chunks[i])["id"], i + 1);
    }
  }
}

// A UDP source at 100 Gb/s into a 1 Mb/s link with no queue limit (the cap raised to its maximum):
// its queue grows without end unless the run's memory limit stops it.
const char* kFlood = R"({"schemaVersion": 1, "durationS": 30, "unlimitedQueuePackets": 100000000,
  "topology": {"kind": "single-link", "link": {"bandwidthMbps": 1, "delayMs": 10}},
  "traffic": [{"type": "onoff-udp", "from": "server", "to": "client", "rateKbps": 100000000,
               "meanOnS": 1000, "meanOffS": 0.001}]})";

// tcpsim run --max-memory-mb: a run over its limit exits with code 3 and one line naming the limit
// and what grew (the process under an address-space limit of 2 GiB, in case it did not stop).
TEST_F(CliTest, RunStopsAtItsMemoryLimitNamingWhatGrew) {
  const Result r = Tcpsim("run - --max-memory-mb 32", kFlood, 2L << 20);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: memory: the run needs more than its memory limit of 32.0 MiB (at ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("link path:server>client holds "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(--max-memory-mb)\n"), std::string::npos) << r.err;
  ExpectBadInput(Tcpsim("run - --max-memory-mb 0", kGood), "error: --max-memory-mb must be a whole number of mebibytes");
}

// tcpsim serve: a run over its memory limit (the request's "maxMemoryMb", or serve's
// --max-memory-mb) is answered with the error kind "memory", and a request nested deeper than any
// scenario may be with a request error, both without parsing what they cannot hold; the process
// serves on. (In a child process under an address-space limit: the flood must not outgrow it.)
TEST_F(CliTest, ServeAnswersMemoryAndDepthErrorsAndServesOn) {
  tcb::testing::InChildUnderLimit([] {
    const nlohmann::json flood = nlohmann::json::parse(kFlood);
    const nlohmann::json good = nlohmann::json::parse(kGood);
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    std::string requests = nlohmann::json({{"id", 1}, {"scenario", flood}, {"maxMemoryMb", 16}}).dump() + "\n";
    requests += "{\"id\": 2, \"scenario\": " + deep + "}\n";
    requests += nlohmann::json({{"id", 3}, {"scenario", flood}}).dump() + "\n";
    requests += nlohmann::json({{"id", 4}, {"scenario", good}, {"maxMemoryMb", 0}}).dump() + "\n";
    requests += nlohmann::json({{"id", 5}, {"scenario", good}}).dump() + "\n";
    std::istringstream in(requests);
    std::ostringstream out;
    tcb::cli::ServeOptions options;
    options.max_memory_bytes = int64_t{24} << 20;
    tcb::cli::ServeStreams(in, out, tcb::cli::kServeFlushInterval, options);
    const std::vector<std::string> lines = Lines(out.str());
    if (lines.size() != 5) return fprintf(stderr, "%s\n", out.str().c_str()), 1;
    const auto answer = [&](size_t i) { return nlohmann::json::parse(lines[i]); };
    const auto check = [](bool ok, const std::string& what) { return ok ? 0 : (fprintf(stderr, "%s\n", what.c_str()), 1); };
    return check(answer(0)["error"]["kind"] == "memory" && answer(0)["error"]["limitBytes"] == (16 << 20) &&
                     answer(0)["error"]["message"].get<std::string>().find("link path:server>client holds") != std::string::npos,
                 lines[0]) +
           check(answer(1)["id"].is_null() && answer(1)["error"]["kind"] == "request" &&
                     answer(1)["error"]["message"] == "the request nests arrays and objects more than 65 levels deep",
                 lines[1]) +
           check(answer(2)["error"]["kind"] == "memory" && answer(2)["error"]["limitBytes"] == (24 << 20), lines[2]) +
           check(answer(3)["error"]["kind"] == "request", lines[3]) + check(answer(4)["ok"] == true, lines[4]);
  });
}

// "values" (tcpsim serve): the answer carries the summary's value at each pointer asked for, null
// where the summary has none, before the summary; a pointer that is not one is a request error.
TEST_F(CliTest, ServeAnswersTheValuesAskedFor) {
  const nlohmann::json scenario = nlohmann::json::parse(kGood);
  const std::vector<std::string> pointers = {"/resultHash", "/run/events", "/no/such"};
  std::string requests;
  requests += nlohmann::json({{"scenario", scenario}, {"trace", "none"}, {"values", pointers},
                              {"runs", {{{"id", 1}, {"seed", 2}}, {{"id", 2}, {"seed", 3}}}}})
                  .dump() +
              "\n";
  requests += nlohmann::json({{"id", 3}, {"scenario", scenario}, {"values", {"run/events"}}}).dump() + "\n";
  requests += nlohmann::json({{"id", 4}, {"scenario", scenario}, {"values", "/run/events"}}).dump() + "\n";
  const Result served = Tcpsim("serve", requests);
  ASSERT_EQ(served.code, 0) << served.err;
  const std::vector<std::string> lines = Lines(served.out);
  ASSERT_EQ(lines.size(), 4u) << served.out;
  for (size_t i = 0; i < 2; ++i) {
    const auto answer = nlohmann::json::parse(lines[i]);
    ASSERT_TRUE(answer["ok"]) << lines[i];
    const nlohmann::json& summary = answer["summary"];
    ASSERT_TRUE(summary["resultHash"].is_string());
    EXPECT_EQ(answer["values"], nlohmann::json::array({summary["resultHash"], summary["run"]["events"], nullptr}));
    const std::string tail = ",\"summary\":" + summary.dump() + "}";
    EXPECT_EQ(lines[i].substr(lines[i].size() - tail.size()), tail) << "the summary still closes the answer";
  }
  for (size_t i : {2, 3}) {
    const auto answer = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(answer["error"]["kind"], "request") << lines[i];
    EXPECT_EQ(answer["error"]["message"], "\"values\" must be an array of JSON pointers into the summary");
  }
}

TEST_F(CliTest, WritesSeriesTraceAndPcap) {
  const fs::path out = dir_ / "out";
  const Result r = Tcpsim("run --preset single-reno-trace -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  const auto series = nlohmann::json::parse(ReadFile(out / "series.json"));
  EXPECT_GT(series["tcp"]["cwndBytes"].size(), 10u);
  const std::string trace = ReadFile(out / "trace.csv");
  EXPECT_EQ(trace.rfind("time_ns,event,flow", 0), 0u);
  EXPECT_NE(trace.find(",retransmit,"), std::string::npos);
  EXPECT_NE(trace.find(",drop,"), std::string::npos);
  const std::string pcap = ReadFile(out / "path.pcap");
  ASSERT_GE(pcap.size(), 24u);
  EXPECT_EQ(static_cast<unsigned char>(pcap[0]), 0x4d);  // Nanosecond pcap magic, little-endian.

  const Result extra = Tcpsim("run - --pcap path -o " + (dir_ / "x").string(), kGood);
  ASSERT_EQ(extra.code, 0) << extra.err;
  EXPECT_TRUE(fs::exists(dir_ / "x" / "path.pcap"));
  ExpectBadInput(Tcpsim("run - --pcap nope -o " + (dir_ / "y").string(), kGood),
                 "error: --pcap: no link named \"nope\"");
}

// Two variants, one point, two replications of a short transfer.
const char* kExperiment = R"({"schemaVersion": 1, "name": "cli-small",
  "scenario": {"schemaVersion": 1, "durationS": 5, "tcp": {"connection": "one-way"},
    "topology": {"kind": "single-link", "link": {"bandwidthMbps": 1, "delayMs": 10, "queue": {"packets": 5}}},
    "traffic": [{"type": "bulk", "from": "server", "to": "client", "bytes": 50000, "startJitterS": 0.1}]},
  "variants": [{"name": "reno", "set": {"/tcp/flavor": "reno"}}, {"name": "sack", "set": {"/tcp/flavor": "sack"}}],
  "replications": 2,
  "metrics": [{"name": "completion", "unit": "s", "pointer": "/run/meanCompletionTimeS"}],
  "claims": [{"text": "SACK is at most twice as slow", "kind": "ratio", "metric": "completion",
              "a": {"variant": "sack"}, "b": {"variant": "reno"}, "max": 2}]})";

TEST_F(CliTest, ReproducesAnExperimentFile) {
  const Result r = Tcpsim("reproduce - --jobs 2", kExperiment);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("completion [s]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("✓ agrees [order] SACK is at most twice as slow"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("4/4 runs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4 runs in "), std::string::npos) << r.err;

  const Result j = Tcpsim("reproduce - --json --check", kExperiment);
  ASSERT_EQ(j.code, 0) << j.err;
  const auto report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report["experiment"], "cli-small");
  EXPECT_EQ(report["runs"], 4);
  EXPECT_EQ(report["claimSummary"]["counts"]["agrees"], 1);

  // --check turns a differing claim into exit code 1; without it the report is still printed.
  nlohmann::json wrong = nlohmann::json::parse(kExperiment);
  wrong["claims"][0]["min"] = 1.0;  // SACK finishes several times sooner here.
  const Result differs = Tcpsim("reproduce - --check", wrong.dump());
  EXPECT_EQ(differs.code, 1) << differs.err;
  EXPECT_NE(differs.out.find("✗ differs (no known cause)"), std::string::npos) << differs.out;
  EXPECT_EQ(Tcpsim("reproduce -", wrong.dump()).code, 0);

  // So does a magnitude far from the paper's without a known cause: SACK's time against a paper's
  // ratio of 0.01.
  nlohmann::json far = nlohmann::json::parse(kExperiment);
  far["claims"][0].erase("max");
  far["claims"][0]["paper"] = {{"value", 0.01}, {"source", "§9"}};
  far["paperTolerance"] = {{"relative", 0.2}, {"basis", "one digit"}};
  const Result magnitude = Tcpsim("reproduce - --check", far.dump());
  EXPECT_EQ(magnitude.code, 1) << magnitude.err;
  EXPECT_NE(magnitude.out.find("≈ direction agrees, magnitude ×"), std::string::npos) << magnitude.out;
  far["claims"][0]["knownMagnitude"] = "the paper's path is another";
  EXPECT_EQ(Tcpsim("reproduce - --check", far.dump()).code, 0);
}

TEST_F(CliTest, ReproduceIsTheSameOnOneOrTwoJobsAndWritesItsReports) {
  const fs::path out = dir_ / "report";
  const Result one = Tcpsim("reproduce tcpint-fig-sack --quick --json --jobs 1");
  const Result two = Tcpsim("reproduce tcpint-fig-sack --quick --json --jobs 2 -o " + out.string());
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(ReadFile(out / "report.json"), two.out);
  const Result text = Tcpsim("reproduce tcpint-fig-sack --quick --jobs 2 --check");
  EXPECT_EQ(text.code, 0) << text.out;
  EXPECT_EQ(ReadFile(out / "report.txt"), text.out);
  EXPECT_NE(text.out.find("mode quick"), std::string::npos);
  const Result markdown = Tcpsim("reproduce tcpint-fig-sack --quick --jobs 2 --markdown");
  EXPECT_EQ(ReadFile(out / "report.md"), markdown.out);
  EXPECT_NE(markdown.out.find("`tcpsim reproduce tcpint-fig-sack --quick`"), std::string::npos) << markdown.out;

  // A saved report prints as it did when it ran, and several make an overview.
  const std::string saved = (out / "report.json").string();
  EXPECT_EQ(Tcpsim("report " + saved).out, text.out);
  EXPECT_EQ(Tcpsim("report " + saved + " --markdown").out, markdown.out);
  const Result overview = Tcpsim("report --overview " + saved + " " + saved);
  ASSERT_EQ(overview.code, 0) << overview.err;
  EXPECT_NE(overview.out.find("| `tcpint-fig-sack` | quick |"), std::string::npos) << overview.out;
  EXPECT_NE(Tcpsim("report --legend").out.find("| ✓ | agrees |"), std::string::npos);
}

TEST_F(CliTest, BadExperimentsAndReproduceArguments) {
  nlohmann::json doc = nlohmann::json::parse(kExperiment);
  doc["variants"][1]["set"]["/tcp/flavor"] = "vegas";
  ExpectBadInput(Tcpsim("reproduce -", doc.dump()),
                 "error: $.variants[1].set['/tcp/flavor']: makes $.scenario.tcp.flavor invalid (variant \"sack\"): "
                 "must be one of");
  doc = nlohmann::json::parse(kExperiment);
  doc["metrics"][0]["pointer"] = "/run/speed";
  ExpectBadInput(Tcpsim("reproduce -", doc.dump()), "error: $.metrics[0].pointer: /run has no \"speed\"");
  ExpectBadInput(Tcpsim("reproduce -", "{\"schemaVersion\": 1"), "error: $: invalid JSON");
  ExpectBadInput(Tcpsim("reproduce no-such-experiment"), "error: unknown experiment \"no-such-experiment\"");
  ExpectBadInput(Tcpsim("reproduce - --jobs 0", kExperiment), "error: --jobs must be an integer from 1 to 1024");
  ExpectBadInput(Tcpsim("reproduce - --fast", kExperiment), "error: unknown option --fast");
  ExpectBadInput(Tcpsim("reproduce"), "error: reproduce needs an experiment name");
  ExpectBadInput(Tcpsim("experiment nope"), "error: unknown experiment \"nope\"");
  ExpectBadInput(Tcpsim("reproduce - --json --markdown", kExperiment), "error: --json and --markdown: choose one");
  ExpectBadInput(Tcpsim("report"), "error: report needs a report file");
  ExpectBadInput(Tcpsim("report -", "{\"schemaVersion\": 2}"), "error: $: missing required field");
  ExpectBadInput(Tcpsim("report --legend x"), "error: report --legend takes no report");
}

TEST_F(CliTest, ExperimentsAreListedPrintedAndTheirScenariosArePresets) {
  const Result list = Tcpsim("experiments");
  ASSERT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("tcpint-fig-sack\n"), std::string::npos);
  EXPECT_NE(list.out.find("right-edge-recovery\n"), std::string::npos);
  const Result doc = Tcpsim("experiment right-edge-recovery");
  ASSERT_EQ(doc.code, 0);
  EXPECT_EQ(nlohmann::json::parse(doc.out)["name"], "right-edge-recovery");
  EXPECT_NE(Tcpsim("presets").out.find("right-edge-recovery\n"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(Tcpsim("preset tcpint-fig-sack").out)["name"], "tcpint-fig-sack");
  const Result run = Tcpsim("run --preset right-edge-recovery --trace none");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["scenario"]["name"], "right-edge-recovery");
  EXPECT_EQ(nlohmann::json::parse(Tcpsim("schema --experiment").out)["title"], "Experiment");
}

}  // namespace
