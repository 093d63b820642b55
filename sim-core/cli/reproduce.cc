// tcpsim reproduce: the experiment's runs on a pool of threads (the library itself has none, since it
// also builds for WebAssembly without pthreads), then the report.
#include "cli/reproduce.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "cli/cli_common.h"
#include "experiment/experiment.h"
#include "experiment/report.h"
#include "scenario/json_schema.h"
#include "scenario/scenario.h"

namespace tcb::cli {

namespace {

constexpr int kMaxJobs = 1024;

// "runs done / total" on stderr: rewritten in place on a terminal, else a line per tenth.
class Progress {
 public:
  Progress(std::string name, size_t total)
      : name_(std::move(name)), total_(total), tty_(isatty(STDERR_FILENO) != 0) {}

  // Called under the pool's lock with the number of runs finished so far.
  void Done(size_t done) {
    if (tty_) {
      std::cerr << "\r" << name_ << ": " << done << "/" << total_ << " runs" << std::flush;
      if (done == total_) std::cerr << "\n";
    } else if (done * 10 / total_ != (done - 1) * 10 / total_ || done == total_) {
      std::cerr << name_ << ": " << done << "/" << total_ << " runs\n";
    }
  }

 private:
  std::string name_;
  size_t total_;
  bool tty_;
};

// Runs the plan on `jobs` threads (this one included); each takes the next run index. Records are
// stored at their run's index, so the report does not depend on scheduling. The first failure (by
// run index) stops the pool and is rethrown.
std::vector<RunRecord> RunPlan(const Experiment& experiment, const ExperimentPlan& plan, int jobs,
                               Progress& progress) {
  std::vector<RunRecord> records(plan.runs.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;  // Guards `done`, `errors` and the progress line.
  size_t done = 0;
  std::vector<std::pair<size_t, std::exception_ptr>> errors;
  auto work = [&] {
    while (!failed) {
      const size_t i = next++;
      if (i >= plan.runs.size()) return;
      try {
        records[i] = RecordRun(experiment, RunSpecSummary(plan.runs[i]));
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        errors.emplace_back(i, std::current_exception());
        failed = true;
        return;
      }
      const std::lock_guard<std::mutex> lock(mutex);
      progress.Done(++done);
    }
  };
  std::vector<std::thread> helpers;
  const size_t threads = std::min(static_cast<size_t>(jobs), std::max<size_t>(plan.runs.size(), 1));
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
  if (!errors.empty()) {
    std::sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::rethrow_exception(errors.front().second);
  }
  return records;
}

int ParseJobs(const std::string& v) {
  size_t used = 0;
  int jobs = 0;
  try {
    jobs = std::stoi(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty() || jobs < 1 || jobs > kMaxJobs) {
    throw UsageError{"--jobs must be an integer from 1 to " + std::to_string(kMaxJobs) + " (got \"" + v +
                     "\")"};
  }
  return jobs;
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << text)) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int Reproduce(const std::vector<std::string>& args) {
  std::optional<std::string> source, out_dir;
  ExperimentMode mode = ExperimentMode::kFull;
  const unsigned cores = std::thread::hardware_concurrency();
  int jobs = cores == 0 ? 1 : static_cast<int>(std::min<unsigned>(cores, kMaxJobs));
  bool json_output = false, markdown = false, check = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError{a + " needs a value"};
      return args[++i];
    };
    if (a == "--quick") {
      mode = ExperimentMode::kQuick;
    } else if (a == "--full") {
      mode = ExperimentMode::kFull;
    } else if (a == "--jobs" || a == "-j") {
      jobs = ParseJobs(value());
    } else if (a == "--json") {
      json_output = true;
    } else if (a == "--markdown") {
      markdown = true;
    } else if (a == "--check") {
      check = true;
    } else if (a == "-o" || a == "--out") {
      out_dir = value();
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option " + a};
    } else if (!source) {
      source = a;
    } else {
      throw UsageError{"unexpected argument \"" + a + "\""};
    }
  }
  if (!source) throw UsageError{"reproduce needs an experiment name (see `tcpsim experiments`) or file"};
  if (json_output && markdown) throw UsageError{"--json and --markdown: choose one"};

  // A built-in name first; anything else is a file.
  const std::optional<std::string_view> builtin = ExperimentText(*source);
  if (!builtin && *source != "-" && !std::filesystem::exists(*source)) {
    throw UsageError{"unknown experiment \"" + *source + "\" (see `tcpsim experiments`), and no such file"};
  }
  const Experiment experiment = ParseExperimentText(builtin ? std::string(*builtin) : ReadInput(*source));
  const ExperimentPlan plan = Expand(experiment, mode);

  Progress progress("reproduce " + experiment.name + " --" + ExperimentModeName(mode), plan.runs.size());
  const auto started = std::chrono::steady_clock::now();
  const std::vector<RunRecord> records = RunPlan(experiment, plan, jobs, progress);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  char timing[128];
  std::snprintf(timing, sizeof timing, "%zu runs in %.2f s on %d job%s\n", plan.runs.size(), seconds, jobs,
                jobs == 1 ? "" : "s");
  std::cerr << timing;

  const nlohmann::json report = BuildReport(experiment, plan, records);
  const std::string text = FormatReport(report);
  const std::string markdown_text = FormatReportMarkdown(report);
  const std::string json_text = report.dump(2) + "\n";
  std::cout << (json_output ? json_text : markdown ? markdown_text : text) << std::flush;
  if (out_dir) {
    const std::filesystem::path dir(*out_dir);
    std::filesystem::create_directories(dir);
    WriteText(dir / "report.json", json_text);
    WriteText(dir / "report.txt", text);
    WriteText(dir / "report.md", markdown_text);
  }
  return check && !ClaimsHold(report) ? 1 : 0;
}

int PrintReports(const std::vector<std::string>& args) {
  enum class Format { kText, kMarkdown, kOverview, kLegend } format = Format::kText;
  std::vector<std::string> sources;
  for (const std::string& a : args) {
    if (a == "--markdown") {
      format = Format::kMarkdown;
    } else if (a == "--overview") {
      format = Format::kOverview;
    } else if (a == "--legend") {
      format = Format::kLegend;
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option " + a};
    } else {
      sources.push_back(a);
    }
  }
  if (format == Format::kLegend) {
    if (!sources.empty()) throw UsageError{"report --legend takes no report"};
    std::cout << FormatVerdictLegend();
    return 0;
  }
  if (sources.empty()) throw UsageError{"report needs a report file (`tcpsim reproduce --json`) or -"};
  if (format != Format::kOverview && sources.size() > 1) throw UsageError{"report prints one report (or --overview)"};
  static const JsonSchema schema = JsonSchema::Compile(ReportSchemaDocument());
  std::vector<nlohmann::json> reports;
  for (const std::string& source : sources) {
    nlohmann::json report = ParseJsonText(ReadInput(source));
    if (auto error = schema.Validate(report)) {
      throw ScenarioError(error->path, error->message + " (" + source + " is not a report of this version: " +
                                           "`tcpsim schema --report`)");
    }
    reports.push_back(std::move(report));
  }
  if (format == Format::kOverview) {
    std::cout << FormatClaimsOverview(reports);
  } else {
    std::cout << (format == Format::kMarkdown ? FormatReportMarkdown(reports[0]) : FormatReport(reports[0]));
  }
  return 0;
}

int ListExperiments(const std::vector<std::string>& args) {
  if (!args.empty()) throw UsageError{"experiments takes no argument"};
  for (const std::string& name : ExperimentNames()) std::cout << name << '\n';
  return 0;
}

int PrintExperiment(const std::vector<std::string>& args) {
  if (args.size() != 1) throw UsageError{"experiment takes one name"};
  const std::optional<std::string_view> text = ExperimentText(args[0]);
  if (!text) throw UsageError{"unknown experiment \"" + args[0] + "\" (see `tcpsim experiments`)"};
  std::cout << *text;
  return 0;
}

}  // namespace tcb::cli
