// tcpsim: the command-line interface to sim-core. Bad input exits with code 2 and one line
// "error: <JSON path>: <problem>"; a run over its memory limit with code 3 and "error: memory: ...";
// internal failures exit with code 1.
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <new>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_common.h"
#include "cli/reproduce.h"
#include "cli/serve.h"
#include "experiment/experiment.h"
#include "experiment/grid.h"
#include "experiment/report.h"
#include "output/export.h"
#include "scenario/papers.h"
#include "scenario/presets.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

namespace {

using tcb::ScenarioError;
using tcb::cli::kBadInput;
using tcb::cli::ReadInput;
using tcb::cli::UsageError;

constexpr const char* kUsage = R"(usage: tcpsim <command> [options]

commands:
  run <file|->          run a scenario; prints the summary JSON on stdout
  run --preset NAME     run a built-in scenario
      -o, --out DIR     also write summary.json, series.json (trace >= series),
                        trace.csv (trace = full) and <link>.pcap files to DIR
      --seed N          override the scenario's seed
      --trace LEVEL     none | summary | series | full
      --pcap LINK       capture LINK (both directions) to DIR/LINK.pcap; repeatable
      --duration S      override the scenario's durationS
      --stats           print wall time, events/s, packets/s, peak memory and the run's
                        accounted peak (see --max-memory-mb) to stderr
      --max-memory-mb N stop the run (exit code 3) when its packets, queues, connections,
                        records and trace would hold more than N MiB, naming what grew
      --parent-pid PID  end when process PID, which started tcpsim, ends (Linux)
  validate <file|->     check a scenario; prints the normalised scenario (defaults filled in)
  grid <file|->         plan a sweep {scenario, grid: {pointer: [values]}, replications}: check
                        every value and combination; prints each point's scenario and seed
                        (the service plans its batches with the same code)
  serve                 run scenarios fed one JSON request per line on stdin, answering one
                        JSON line each on stdout (a persistent runner for workers;
                        `tcpsim serve --help` prints the protocol with an example)
      --max-memory-mb N each run's memory limit, unless its request sets "maxMemoryMb"
      --parent-pid PID  end when process PID, which started tcpsim, ends (Linux)
  presets               list the built-in scenarios, one name per line (each experiment's
                        base scenario among them, under the experiment's name)
  preset NAME           print a built-in scenario
  reproduce <NAME|file|->
                        run an experiment (a seed paper's table or figure): every variant,
                        point and replication; prints our numbers beside the paper's and
                        checks the paper's claims
      --quick | --full  reduced size (seconds) or full size (the default)
      --jobs N          runs in parallel (default: the number of cores)
      --json            print the JSON report instead of the tables
      --markdown        print the tables and claims as Markdown (as docs/reproduction has them)
      --check           exit with code 1 if a claim does not agree (in its direction or its
                        magnitudes) without a known cause
      -o, --out DIR     also write report.json, report.txt and report.md to DIR
  report <file|-> [--markdown]
                        print a saved report (`reproduce --json`) as text or Markdown
  report --overview FILE...
                        Markdown: the verdicts of several reports, and every claim that
                        compares a paper number, with paper, ours, ratio and known cause
  report --legend       Markdown: the verdicts and what they mean
  papers                print the catalogue of papers, theses and RFCs that presets and
                        experiments cite (JSON)
  experiments           list the built-in experiments, one name per line
  experiment NAME       print a built-in experiment
  schema [--result | --experiment | --report]
                        print the JSON Schema of scenarios (or of results, experiments
                        or experiment reports)
)";

std::string LoadScenarioText(const std::optional<std::string>& file,
                             const std::optional<std::string>& preset) {
  if (preset) {
    auto text = tcb::PresetText(*preset);
    if (!text) throw UsageError{"unknown preset \"" + *preset + "\" (see `tcpsim presets`)"};
    return std::string(*text);
  }
  if (!file) throw UsageError{"missing scenario file (or - for stdin, or --preset NAME)"};
  return ReadInput(*file);
}

void WriteFile(const std::filesystem::path& path, const std::string& what,
               const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + what + " to " + path.string());
  write(out);
}

// One JSON line on stderr: how fast the run went and how much memory the process used at most.
void PrintStats(const tcb::RunOutput& run, std::chrono::steady_clock::duration wall) {
  const double seconds = std::chrono::duration<double>(wall).count();
  const auto events = run.summary["run"]["events"].get<uint64_t>();
  const auto packets = run.summary["run"]["packets"]["injected"].get<int64_t>();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const nlohmann::json stats{{"wallSeconds", seconds},
                             {"simulatedSeconds", run.summary["simulatedTimeS"]},
                             {"events", events},
                             {"eventsPerSecond", events / seconds},
                             {"packets", packets},
                             {"packetsPerSecond", packets / seconds},
                             {"peakRssBytes", static_cast<int64_t>(usage.ru_maxrss) * 1024},
                             {"accountedPeakBytes", run.memory_peak_bytes}};
  std::cerr << stats.dump() << '\n';
}

int Run(const std::vector<std::string>& args) {
  std::optional<std::string> file, preset, out_dir;
  std::optional<double> duration;
  bool stats = false;
  tcb::RunOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError{a + " needs a value"};
      return args[++i];
    };
    if (a == "--preset") {
      preset = value();
    } else if (a == "-o" || a == "--out") {
      out_dir = value();
    } else if (a == "--seed") {
      const std::string& v = value();
      size_t used = 0;
      unsigned long long seed = 0;
      try {
        seed = std::stoull(v, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != v.size() || v.empty() || v[0] == '-') {
        throw UsageError{"--seed must be a non-negative integer (got \"" + v + "\")"};
      }
      options.seed = seed;
    } else if (a == "--trace") {
      tcb::TraceLevel level;
      const std::string& v = value();
      if (!tcb::ParseTraceLevel(v, &level)) {
        throw UsageError{"--trace must be none, summary, series or full (got \"" + v + "\")"};
      }
      options.trace = level;
    } else if (a == "--pcap") {
      options.extra_pcap_links.push_back(value());
    } else if (a == "--duration") {
      const std::string& v = value();
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(d > 0) || d > 1e6) {
        throw UsageError{"--duration must be a number of seconds in (0, 1000000] (got \"" + v + "\")"};
      }
      duration = d;
    } else if (a == "--stats") {
      stats = true;
    } else if (a == "--max-memory-mb") {
      options.max_memory_bytes = tcb::cli::ParseMaxMemoryMb(value());
    } else if (a == "--parent-pid") {
      tcb::cli::DieWithParent(value());
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option " + a};
    } else if (!file) {
      file = a;
    } else {
      throw UsageError{"unexpected argument \"" + a + "\""};
    }
  }
  if (file && preset) throw UsageError{"give a scenario file or --preset, not both"};
  if (!options.extra_pcap_links.empty() && !out_dir) throw UsageError{"--pcap needs -o DIR"};

  tcb::Scenario scenario = tcb::ParseScenarioText(LoadScenarioText(file, preset));
  if (duration) {
    nlohmann::json doc = scenario.document;
    doc["durationS"] = *duration;
    scenario = tcb::ParseScenario(doc);
  }
  const auto started = std::chrono::steady_clock::now();
  const tcb::RunOutput run = tcb::RunScenario(scenario, options);
  if (stats) PrintStats(run, std::chrono::steady_clock::now() - started);
  const std::string summary = run.PrintedSummary().dump(2);
  std::cout << summary << '\n';

  if (out_dir) {
    const std::filesystem::path dir(*out_dir);
    std::filesystem::create_directories(dir);
    WriteFile(dir / "summary.json", "the summary", [&](std::ostream& o) { o << summary << '\n'; });
    if (run.trace >= tcb::TraceLevel::kSeries) {
      WriteFile(dir / "series.json", "the series", [&](std::ostream& o) { tcb::WriteSeriesJson(run, o); });
    }
    if (run.trace >= tcb::TraceLevel::kFull) {
      WriteFile(dir / "trace.csv", "the trace", [&](std::ostream& o) { tcb::WriteTraceCsv(run, o); });
    }
    for (const auto& entry : run.captures) {  // (clang before 16 cannot capture structured bindings)
      WriteFile(dir / (entry.first + ".pcap"), "a capture",
                [&](std::ostream& o) { tcb::WritePcap(run, entry.second, o); });
    }
  } else if (!run.captures.empty()) {
    std::cerr << "tcpsim: note: the scenario asks for pcap captures; give -o DIR to write them\n";
  }
  return 0;
}

int Validate(const std::vector<std::string>& args) {
  if (args.size() != 1) throw UsageError{"validate takes one scenario file (or -)"};
  const tcb::Scenario scenario = tcb::ParseScenarioText(ReadInput(args[0]));
  std::cout << scenario.document.dump(2) << '\n';
  return 0;
}

// The usage's lines for one command (each of its forms and their options), or empty when kUsage has
// no such command. A command's lines start with two spaces and its name; its options follow,
// indented further, up to the next command.
std::string CommandUsage(const std::string& command) {
  std::istringstream lines(kUsage);
  std::string line, out;
  bool in = false;
  while (std::getline(lines, line)) {
    const bool command_line = line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ';
    if (command_line) in = line.compare(2, command.size() + 1, command + " ") == 0 || line.substr(2) == command;
    if (in) out += line + '\n';
  }
  return out;
}

int Main(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? kBadInput : 0;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  // `tcpsim COMMAND --help`: that command's part of the usage (serve prints its protocol itself).
  if (command != "serve" && rest.size() == 1 && (rest[0] == "--help" || rest[0] == "-h")) {
    const std::string usage = CommandUsage(command);
    if (usage.empty()) throw UsageError{"unknown command \"" + command + "\" (see tcpsim --help)"};
    std::cout << "usage: tcpsim " << command << " ...\n" << usage;
    return 0;
  }
  if (command == "run") return Run(rest);
  if (command == "validate") return Validate(rest);
  if (command == "grid") {
    if (rest.size() != 1) throw UsageError{"grid takes one request file (or -)"};
    std::cout << tcb::PlanGridText(ReadInput(rest[0])).dump(2) << '\n';
    return 0;
  }
  if (command == "serve") return tcb::cli::Serve(rest);
  if (command == "presets") {
    for (const std::string& name : tcb::PresetNames()) std::cout << name << '\n';
    return 0;
  }
  if (command == "preset") {
    if (rest.size() != 1) throw UsageError{"preset takes one name"};
    auto text = tcb::PresetText(rest[0]);
    if (!text) throw UsageError{"unknown preset \"" + rest[0] + "\" (see `tcpsim presets`)"};
    std::cout << *text;
    return 0;
  }
  if (command == "papers") {
    if (!rest.empty()) throw UsageError{"papers takes no argument"};
    std::cout << tcb::PaperCatalogue().dump(2) << '\n';
    return 0;
  }
  if (command == "reproduce") return tcb::cli::Reproduce(rest);
  if (command == "report") return tcb::cli::PrintReports(rest);
  if (command == "experiments") return tcb::cli::ListExperiments(rest);
  if (command == "experiment") return tcb::cli::PrintExperiment(rest);
  if (command == "schema") {
    if (rest.size() > 1 ||
        (rest.size() == 1 && rest[0] != "--result" && rest[0] != "--experiment" && rest[0] != "--report")) {
      throw UsageError{"schema takes no argument but --result, --experiment or --report"};
    }
    const auto& schema = rest.empty()                ? tcb::ScenarioSchemaDocument()
                         : rest[0] == "--result"     ? tcb::ResultSchemaDocument()
                         : rest[0] == "--experiment" ? tcb::ExperimentSchemaDocument()
                                                     : tcb::ReportSchemaDocument();
    std::cout << schema.dump(2) << '\n';
    return 0;
  }
  throw UsageError{"unknown command \"" + command + "\"\n" + kUsage};
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return Main(args);
  } catch (const ScenarioError& e) {
    std::cerr << "error: " << e.path() << ": " << e.problem() << '\n';
    return kBadInput;
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.message << '\n';
    return kBadInput;
  } catch (const tcb::MemoryLimitExceeded& e) {
    std::cerr << "error: memory: " << e.what() << " (--max-memory-mb)\n";
    return tcb::cli::kResourceLimit;
  } catch (const std::bad_alloc&) {
    // The process's own limit (an RLIMIT_AS its caller set) or the machine's memory ran out first.
    std::cerr << "error: memory: out of memory (the process could not allocate more)\n";
    return tcb::cli::kResourceLimit;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << '\n';
    return 1;
  }
}
