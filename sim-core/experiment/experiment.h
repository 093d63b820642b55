// Experiments: a seed paper's table or figure as a base scenario plus variants, axes and
// replications (experiment.schema.json), expanded into runs. The library has no threads: whoever runs
// the runs (the CLI's thread pool, a WASM worker, a server queue) calls back with their summaries.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/scenario.h"

namespace tcb {

enum class ExperimentMode : uint8_t { kFull, kQuick };
const char* ExperimentModeName(ExperimentMode mode);

// A claim's selector with names resolved: the variant, metric and axis values it fixes; what it
// leaves open comes from the claim and the point being checked.
struct CellSelector {
  std::optional<size_t> variant;
  std::optional<size_t> metric;
  std::vector<std::optional<size_t>> point;  // Per axis: a value index, or open.
};

// How a claim is checked (its "kind" in experiment.schema.json).
enum class ClaimKind : uint8_t { kRatio, kLowest, kHighest, kSignificant, kMagnitude };
enum class ClaimPoints : uint8_t { kAll, kMost, kAny, kListed };

// What kind of agreement a claim is (the report's "kind"): an ordering or direction (lowest,
// highest, and ratios bounded by the claim itself), a ratio the paper prints, a magnitude (our mean
// against the paper's), or a significance level (an unpaired t-test).
enum class AgreementKind : uint8_t { kOrder, kRatio, kMagnitude, kSignificance };
const char* AgreementKindName(AgreementKind kind);

// The quantity a ratio claim compares with the paper's: mean(a)/mean(b), the reduction
// 1 - mean(a)/mean(b) ("a is 17 % faster than b"), the increase mean(a)/mean(b) - 1, or the saving
// mean(b) - mean(a) in the metric's unit ("a completes 3 RTTs sooner", of a metric in RTTs).
enum class ClaimMeasure : uint8_t { kRatio, kReduction, kIncrease, kSaving };
const char* ClaimMeasureName(ClaimMeasure measure);

// How close our number must be to the paper's for the magnitudes to agree: |ours - paper| <=
// max(relative * |paper|, absolute); a range [min, max] is widened by as much at each end. relative
// is at most 0.5 (the schema's bound); absolute is the paper's printing precision, for numbers it
// prints near zero. A number more than 2 times away never agrees (WithinTolerance).
struct Tolerance {
  double relative = 0;
  double absolute = 0;
  std::string basis;  // Why this tolerance: the paper's own precision.
};

// A number a paper prints for a claim: one value, or a range over the points the claim checks
// ("6-46 % faster" over five pages); a range with one end open is a bound ("more than 50 %").
struct PaperNumber {
  std::optional<double> min;  // A value is min == max.
  std::optional<double> max;
  std::string source;  // Where the paper says so.
};

// In which runs a known difference shows.
enum class KnownIn : uint8_t { kAll, kFull, kQuick };

struct Claim {
  std::string text;
  // Why our simulator does not reproduce the claim's test (its order, direction, bound or
  // significance); empty if it should.
  std::string known;
  KnownIn known_in = KnownIn::kAll;
  // Why a paper number the claim compares is farther from ours than the tolerance (or that the
  // cause is not found); empty if it should not be.
  std::string known_magnitude;
  KnownIn known_magnitude_in = KnownIn::kAll;
  ClaimKind kind = ClaimKind::kRatio;
  CellSelector a;  // With the claim's own variant and metric filled in.
  CellSelector b;  // kRatio and kSignificant.
  std::vector<size_t> among;  // kLowest, kHighest: the variants compared (all by default).
  std::optional<double> min;  // kRatio without a paper number: bounds on mean(a)/mean(b).
  std::optional<double> max;
  ClaimMeasure measure = ClaimMeasure::kRatio;  // kRatio with a paper number.
  // The claim's own paper number (kRatio: in `measure`; kMagnitude: of mean(a)). Without one, the
  // claim compares the paper values of the cells it reads.
  std::optional<PaperNumber> paper;
  Tolerance tolerance;  // For the claim's paper number: its own, or the experiment's.
  bool greater = true;  // kSignificant: mean(a) > mean(b), else mean(a) < mean(b).
  double level = 0.95;  // kSignificant.
  ClaimPoints points = ClaimPoints::kAll;
  std::vector<std::vector<std::optional<size_t>>> point_filters;  // kListed: per filter, per axis.
};

AgreementKind ClaimAgreementKind(const Claim& claim);

// The claim's known-difference notes if they apply to runs of this mode, else empty: for its test,
// and for its magnitudes.
const std::string& KnownDifference(const Claim& claim, ExperimentMode mode);
const std::string& KnownMagnitudeDifference(const Claim& claim, ExperimentMode mode);

struct AxisValue {
  nlohmann::json value;  // A number, string or boolean.
  std::string label;
  nlohmann::json set;  // Extra sets for this point, "$value" already substituted.
};

struct Axis {
  std::string name;
  std::string label;
  std::string unit;
  std::vector<AxisValue> values;
  nlohmann::json set;  // With "$value" still in it.
};

struct ExperimentMetric {
  std::string name;
  std::string label;
  std::string unit;
  std::string pointer;  // Into a run summary; see FindInSummary.
  std::string per;      // If set, a pointer into the same summary that each run's value is divided by.
  std::optional<Tolerance> paper_tolerance;  // For the paper's values of this metric.
};

struct PaperValue {
  size_t variant = 0;
  std::vector<size_t> point;  // A value index per axis.
  size_t metric = 0;
  double value = 0;
  std::string note;
  Tolerance tolerance;  // Its own, or the experiment's.
};

// A difference the paper tests, as Savorić et al. §6 report one: the highest of the confidence levels
// 0.99, 0.95 and 0.90 at which the interval of mean(from) - mean(variant) excludes zero, with that
// interval; 0.90 and an interval that contains zero when none does.
struct PaperDifference {
  size_t variant = 0;
  std::vector<size_t> point;  // A value index per axis.
  size_t metric = 0;
  double level = 0;
  double low = 0;
  double high = 0;
  std::string note;
  // Significant at `level`: any level above 0.90 is (the paper names the highest at which the
  // difference is significant, and prints bounds rounded to two decimals, so "0.99 : (-0.03, -0.00)"
  // is significant); at 0.90 only an interval that excludes zero.
  bool Significant() const { return level > 0.9 || low > 0 || high < 0; }
};

// Every tested metric's difference between one variant and each of the others, at every point: the
// significance tables of Savorić et al. (Tables 3 and 5), with the paper's intervals beside ours.
struct DifferenceTable {
  size_t from = 0;              // The variant the others are subtracted from.
  std::vector<size_t> metrics;  // The metrics tested, in the experiment's order.
  std::vector<PaperDifference> paper;
};

const PaperDifference* FindPaperDifference(const DifferenceTable& table, size_t variant,
                                           const std::vector<size_t>& point, size_t metric);

struct Variant {
  std::string name;
  std::string label;
  nlohmann::json set;
};

struct Experiment {
  nlohmann::json document;  // As validated, with the schema's defaults filled in.
  std::string name;
  std::string title;
  std::string reference;
  std::string description;
  nlohmann::json scenario;
  std::vector<Variant> variants;
  std::vector<Axis> axes;
  int replications = 1;
  int quick_replications = 1;
  std::vector<std::vector<size_t>> quick_axis_values;  // Per axis: the value indices kept by --quick.
  nlohmann::json quick_set;
  std::vector<ExperimentMetric> metrics;
  std::vector<PaperValue> paper;
  std::optional<Tolerance> paper_tolerance;  // The default for every paper number.
  std::vector<Claim> claims;
  std::optional<DifferenceTable> differences;
};

// The paper's value of a cell, or null.
const PaperValue* FindPaperValue(const Experiment& experiment, size_t variant, const std::vector<size_t>& point,
                                 size_t metric);

// Built-in experiments: the files in scenario/experiments/, compiled into the library. Names are
// the file names without ".json", sorted.
std::vector<std::string> ExperimentNames();
std::optional<std::string_view> ExperimentText(std::string_view name);
// The experiment schema, as compiled into the library.
const nlohmann::json& ExperimentSchemaDocument();

// Validates against experiment.schema.json, then checks what the schema cannot: unique names,
// references to variants, axes, values and metrics that exist, metric pointers that lead to a number
// in result.schema.json, and that the scenario of every variant at every point, in both modes, is a
// valid scenario. Throws ScenarioError with the path in the experiment document, e.g.
// "$.variants[2].set['/tcp/flavor']".
Experiment ParseExperiment(const nlohmann::json& document);
Experiment ParseExperimentText(std::string_view text);

// One run of an experiment.
struct RunSpec {
  size_t index = 0;    // Position in run order.
  size_t variant = 0;  // Into Experiment::variants.
  size_t point = 0;    // Into ExperimentPlan::points.
  int replication = 0;
  uint64_t seed = 0;  // The scenario's seed + replication: common random numbers across variants.
  std::shared_ptr<const Scenario> scenario;  // Shared by the replications of a cell; run with `seed`.

  // The scenario document of this run, seed included (e.g. to send to another process).
  nlohmann::json ScenarioDocument() const;
};

struct ExperimentPlan {
  ExperimentMode mode = ExperimentMode::kFull;
  int replications = 1;
  // Each point: a value index per axis. The cartesian product of the mode's axis values, the first
  // axis varying slowest.
  std::vector<std::vector<size_t>> points;
  // Variant-major, then point, then replication.
  std::vector<RunSpec> runs;
};

// Expands into runs. Throws ScenarioError when a set cannot be applied or a run's scenario is invalid
// (ParseExperiment has already checked both modes, so this does not happen for a parsed experiment).
ExperimentPlan Expand(const Experiment& experiment, ExperimentMode mode);

// A point as a document ({"queue": 8}) and as a label for tables ("8 packets, 4 connections"; "all"
// when there are no axes).
nlohmann::json PointDocument(const Experiment& experiment, const std::vector<size_t>& point);
std::string PointLabel(const Experiment& experiment, const std::vector<size_t>& point);

// Runs one spec in this thread: RunScenario at trace level "none" with the spec's seed. Returns the
// summary.
nlohmann::json RunSpecSummary(const RunSpec& spec);

}  // namespace tcb
