// Experiment documents: validation, the checks a schema cannot express, and expansion into runs.
#include "experiment/experiment.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "experiment/grid.h"
#include "json/json_pointer.h"
#include "scenario/embedded_files.h"
#include "scenario/json_schema.h"
#include "scenario/run.h"

namespace tcb {

namespace {

using nlohmann::json;

constexpr std::string_view kExperimentDir = "scenario/experiments/";
// Stands for the axis value inside an axis's set.
constexpr std::string_view kValueMarker = "$value";

const JsonSchema& CompiledExperimentSchema() {
  static const JsonSchema schema = JsonSchema::Compile(ExperimentSchemaDocument());
  return schema;
}

std::string Child(const std::string& path, std::string_view key) { return JsonPathChild(path, key); }
std::string Index(const std::string& path, size_t i) { return JsonPathIndex(path, i); }

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// How reports and messages print an axis value: strings without quotes.
std::string ValueText(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

bool ContainsValueMarker(const json& v) {
  if (v.is_string()) return v.get_ref<const std::string&>() == kValueMarker;
  if (v.is_structured()) {
    for (const json& child : v) {
      if (ContainsValueMarker(child)) return true;
    }
  }
  return false;
}

json SubstituteValue(json v, const json& value) {
  if (v.is_string() && v.get_ref<const std::string&>() == kValueMarker) return value;
  if (v.is_structured()) {
    for (json& child : v) child = SubstituteValue(std::move(child), value);
  }
  return v;
}

// "$value" means something only where there is an axis value.
void RejectValueMarker(const json& set, const std::string& path) {
  for (const auto& [pointer, value] : set.items()) {
    if (ContainsValueMarker(value)) {
      throw ScenarioError(Child(path, pointer),
                          "\"$value\" stands for an axis value; only an axis's set can use it");
    }
  }
}

// An error in the base scenario, at its place in the experiment document.
std::string UnderScenario(const std::string& scenario_path) { return "$.scenario" + scenario_path.substr(1); }

// The names a map of the summary is keyed by ("x-keys" in result.schema.json), in the base scenario.
std::vector<std::string> MapKeys(const std::string& kind, const Scenario& scenario) {
  std::vector<std::string> keys;
  if (kind == "traffic items") {
    for (const TrafficItem& item : scenario.traffic) keys.push_back(item.name);
  } else if (kind == "record.parallelSet") {
    keys = scenario.record.parallel_set;
  }
  return keys;
}

// Follows a metric pointer through result.schema.json; returns the problem, or nullopt when it leads
// to a number. Arrays accept an index, or a name when their elements have a "name"; maps (objects
// with additionalProperties) accept the names they are keyed by in the base scenario.
std::optional<std::string> CheckSummaryPointer(const std::string& pointer, const Scenario& scenario) {
  const json& root = ResultSchemaDocument();
  auto resolve = [&root](const json* node) {
    while (node->contains("$ref")) {
      node = &root.at(json::json_pointer((*node)["$ref"].get<std::string>().substr(1)));
    }
    return node;
  };
  auto has_type = [](const json& node, std::string_view type) {
    if (!node.contains("type")) return false;
    const json& t = node["type"];
    if (t.is_string()) return t.get_ref<const std::string&>() == type;
    for (const json& each : t) {
      if (each.get_ref<const std::string&>() == type) return true;
    }
    return false;
  };
  const std::optional<std::vector<std::string>> tokens = ParseJsonPointer(pointer);
  if (!tokens) return "not a JSON Pointer";
  const json* node = resolve(&root);
  std::string at;
  for (const std::string& token : *tokens) {
    const std::string where = at.empty() ? "the summary" : at;
    if (node->contains("items")) {
      const json* item = resolve(&(*node)["items"]);
      const bool named = item->contains("properties") && (*item)["properties"].contains("name");
      if (!JsonPointerIndex(token) && !named) {
        return where + " is an array whose elements have no name; \"" + token + "\" is not an index";
      }
      node = item;
    } else if (node->contains("properties") && (*node)["properties"].contains(token)) {
      node = resolve(&(*node)["properties"][token]);
    } else if (node->contains("additionalProperties") && (*node)["additionalProperties"].is_object()) {
      if (node->contains("x-keys")) {
        const std::string kind = (*node)["x-keys"].get<std::string>();
        const std::vector<std::string> keys = MapKeys(kind, scenario);
        if (std::find(keys.begin(), keys.end(), token) == keys.end()) {
          std::string known;
          for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + Quote(k);
          return where + " is keyed by the scenario's " + kind + " (" + (known.empty() ? "none" : known) +
                 "); \"" + token + "\" is not one";
        }
      }
      node = resolve(&(*node)["additionalProperties"]);
    } else {
      return where + " has no \"" + token + "\" (see `tcpsim schema --result`)";
    }
    at += "/" + token;
  }
  if (has_type(*node, "number") || has_type(*node, "integer")) return std::nullopt;
  return at + " is not a number";
}

// Name -> index, for references.
using NameIndex = std::map<std::string, size_t>;

size_t Lookup(const NameIndex& names, const json& name, const std::string& path, const char* what) {
  const std::string s = name.get<std::string>();
  auto it = names.find(s);
  if (it == names.end()) throw ScenarioError(path, "no " + std::string(what) + " named " + Quote(s));
  return it->second;
}

std::optional<size_t> FindAxis(const Experiment& e, const std::string& name) {
  for (size_t i = 0; i < e.axes.size(); ++i) {
    if (e.axes[i].name == name) return i;
  }
  return std::nullopt;
}

// The index of `value` among the axis's values (json equality: 4 and 4.0 are the same value).
size_t FindAxisValue(const Axis& axis, const json& value, const std::string& path) {
  for (size_t j = 0; j < axis.values.size(); ++j) {
    if (axis.values[j].value == value) return j;
  }
  std::string values;
  for (const AxisValue& v : axis.values) values += (values.empty() ? "" : ", ") + v.value.dump();
  throw ScenarioError(path,
                      value.dump() + " is not a value of axis " + Quote(axis.name) + " (" + values + ")");
}

// A point filter: axis name -> value; open for the axes it does not name.
std::vector<std::optional<size_t>> ParsePointFilter(const Experiment& e, const json& point,
                                                    const std::string& path) {
  std::vector<std::optional<size_t>> filter(e.axes.size());
  for (const auto& [name, value] : point.items()) {
    const std::string vpath = Child(path, name);
    const std::optional<size_t> axis = FindAxis(e, name);
    if (!axis) throw ScenarioError(vpath, "no axis named " + Quote(name));
    filter[*axis] = FindAxisValue(e.axes[*axis], value, vpath);
  }
  return filter;
}

std::vector<size_t> ParseFullPoint(const Experiment& e, const json& point, const std::string& path) {
  const std::vector<std::optional<size_t>> filter = ParsePointFilter(e, point, path);
  std::vector<size_t> full;
  for (size_t i = 0; i < filter.size(); ++i) {
    if (!filter[i]) throw ScenarioError(path, "missing axis " + Quote(e.axes[i].name));
    full.push_back(*filter[i]);
  }
  return full;
}

void ParseVariants(const json& d, Experiment& e, NameIndex& names) {
  for (size_t i = 0; i < d["variants"].size(); ++i) {
    const json& v = d["variants"][i];
    const std::string path = Index("$.variants", i);
    Variant variant;
    variant.name = v["name"].get<std::string>();
    if (!names.emplace(variant.name, i).second) {
      throw ScenarioError(Child(path, "name"), "duplicate variant name " + Quote(variant.name));
    }
    variant.label = v.value("label", variant.name);
    variant.set = v["set"];
    RejectValueMarker(variant.set, Child(path, "set"));
    e.variants.push_back(std::move(variant));
  }
}

void ParseAxes(const json& d, Experiment& e) {
  std::set<std::string> names;
  for (size_t i = 0; i < d["axes"].size(); ++i) {
    const json& a = d["axes"][i];
    const std::string path = Index("$.axes", i);
    Axis axis;
    axis.name = a["name"].get<std::string>();
    if (!names.insert(axis.name).second) {
      throw ScenarioError(Child(path, "name"), "duplicate axis name " + Quote(axis.name));
    }
    axis.label = a.value("label", axis.name);
    axis.unit = a["unit"].get<std::string>();
    axis.set = a["set"];
    for (size_t j = 0; j < a["values"].size(); ++j) {
      const json& v = a["values"][j];
      const std::string vpath = Index(Child(path, "values"), j);
      AxisValue value;
      value.value = v.is_object() ? v["value"] : v;
      value.label = v.is_object() && v.contains("label")
                        ? v["label"].get<std::string>()
                        : ValueText(value.value) + (axis.unit.empty() ? "" : " " + axis.unit);
      value.set = json::object();
      if (v.is_object()) value.set = SubstituteValue(v.value("set", json::object()), value.value);
      for (const AxisValue& other : axis.values) {
        if (other.value == value.value) {
          throw ScenarioError(vpath,
                              "duplicate value " + value.value.dump() + " of axis " + Quote(axis.name));
        }
      }
      axis.values.push_back(std::move(value));
    }
    e.axes.push_back(std::move(axis));
  }
}

void ParseQuick(const json& d, Experiment& e) {
  const json& q = d["quick"];
  e.quick_replications = q.contains("replications") ? q["replications"].get<int>() : e.replications;
  e.quick_axis_values.clear();
  for (const Axis& axis : e.axes) {
    std::vector<size_t> all;
    for (size_t j = 0; j < axis.values.size(); ++j) all.push_back(j);
    e.quick_axis_values.push_back(std::move(all));
  }
  if (q.contains("axes")) {
    for (const auto& [name, values] : q["axes"].items()) {
      const std::string path = Child("$.quick.axes", name);
      const std::optional<size_t> axis = FindAxis(e, name);
      if (!axis) throw ScenarioError(path, "no axis named " + Quote(name));
      std::vector<size_t> kept;
      for (size_t j = 0; j < values.size(); ++j) {
        const size_t index = FindAxisValue(e.axes[*axis], values[j], Index(path, j));
        for (size_t k : kept) {
          if (k == index) throw ScenarioError(Index(path, j), "duplicate value " + values[j].dump());
        }
        kept.push_back(index);
      }
      e.quick_axis_values[*axis] = std::move(kept);
    }
  }
  e.quick_set = q.contains("set") ? q["set"] : json::object();
  RejectValueMarker(e.quick_set, "$.quick.set");
}

Tolerance ParseTolerance(const json& t) {
  return Tolerance{t["relative"].get<double>(), t.value("absolute", 0.0), t["basis"].get<std::string>()};
}

void ParseMetrics(const json& d, const Scenario& scenario, Experiment& e, NameIndex& names) {
  for (size_t i = 0; i < d["metrics"].size(); ++i) {
    const json& m = d["metrics"][i];
    const std::string path = Index("$.metrics", i);
    ExperimentMetric metric;
    metric.name = m["name"].get<std::string>();
    if (!names.emplace(metric.name, i).second) {
      throw ScenarioError(Child(path, "name"), "duplicate metric name " + Quote(metric.name));
    }
    metric.label = m.value("label", metric.name);
    metric.unit = m["unit"].get<std::string>();
    metric.pointer = m["pointer"].get<std::string>();
    if (m.contains("paperTolerance")) metric.paper_tolerance = ParseTolerance(m["paperTolerance"]);
    if (auto problem = CheckSummaryPointer(metric.pointer, scenario)) {
      throw ScenarioError(Child(path, "pointer"), *problem);
    }
    if (m.contains("per")) {
      metric.per = m["per"].get<std::string>();
      if (auto problem = CheckSummaryPointer(metric.per, scenario)) throw ScenarioError(Child(path, "per"), *problem);
    }
    e.metrics.push_back(std::move(metric));
  }
}

// A paper number's own tolerance, or else its metric's (for a cell's value), or else the
// experiment's (which must then exist).
Tolerance ToleranceOf(const json& holder, const Experiment& e, const std::string& path,
                      std::optional<size_t> metric = std::nullopt) {
  if (holder.contains("tolerance")) return ParseTolerance(holder["tolerance"]);
  if (metric && e.metrics[*metric].paper_tolerance) return *e.metrics[*metric].paper_tolerance;
  if (!e.paper_tolerance) {
    throw ScenarioError(path, "a paper number needs a tolerance: give the experiment's paperTolerance (how close "
                              "ours must be, from the paper's own precision) or this number's tolerance");
  }
  return *e.paper_tolerance;
}

void ParsePaper(const json& d, Experiment& e, const NameIndex& variants, const NameIndex& metrics) {
  if (d.contains("paperTolerance")) e.paper_tolerance = ParseTolerance(d["paperTolerance"]);
  std::set<std::tuple<size_t, std::vector<size_t>, size_t>> seen;
  for (size_t i = 0; i < d["paper"].size(); ++i) {
    const json& p = d["paper"][i];
    const std::string path = Index("$.paper", i);
    PaperValue value;
    value.variant = Lookup(variants, p["variant"], Child(path, "variant"), "variant");
    value.metric = Lookup(metrics, p["metric"], Child(path, "metric"), "metric");
    value.point = ParseFullPoint(e, p["point"], Child(path, "point"));
    value.value = p["value"].get<double>();
    value.note = p.value("note", "");
    value.tolerance = ToleranceOf(p, e, path, value.metric);
    if (!seen.emplace(value.variant, value.point, value.metric).second) {
      throw ScenarioError(path, "a second paper value for the same variant, point and metric");
    }
    e.paper.push_back(std::move(value));
  }
}

void ParseDifferences(const json& d, Experiment& e, const NameIndex& variants, const NameIndex& metrics) {
  if (!d.contains("differences")) return;
  const json& t = d["differences"];
  DifferenceTable table;
  table.from = Lookup(variants, t["from"], "$.differences.from", "variant");
  if (e.variants.size() < 2) throw ScenarioError("$.differences", "a difference needs a second variant");
  if (t.contains("metrics")) {
    std::set<size_t> tested;
    for (size_t i = 0; i < t["metrics"].size(); ++i) {
      tested.insert(Lookup(metrics, t["metrics"][i], Index("$.differences.metrics", i), "metric"));
    }
    table.metrics.assign(tested.begin(), tested.end());
  } else {
    for (size_t m = 0; m < e.metrics.size(); ++m) table.metrics.push_back(m);
  }
  std::set<std::tuple<size_t, std::vector<size_t>, size_t>> seen;
  for (size_t i = 0; i < t["paper"].size(); ++i) {
    const json& p = t["paper"][i];
    const std::string path = Index("$.differences.paper", i);
    PaperDifference value;
    value.variant = Lookup(variants, p["variant"], Child(path, "variant"), "variant");
    if (value.variant == table.from) {
      throw ScenarioError(Child(path, "variant"), "the variant the others are subtracted from has no difference of its own");
    }
    value.metric = Lookup(metrics, p["metric"], Child(path, "metric"), "metric");
    if (!std::binary_search(table.metrics.begin(), table.metrics.end(), value.metric)) {
      throw ScenarioError(Child(path, "metric"), "not among the metrics tested ($.differences.metrics)");
    }
    value.point = ParseFullPoint(e, p["point"], Child(path, "point"));
    value.level = p["level"].get<double>();
    value.low = p["interval"][0].get<double>();
    value.high = p["interval"][1].get<double>();
    if (value.low > value.high) throw ScenarioError(Child(path, "interval"), "the lower bound is above the upper one");
    value.note = p.value("note", "");
    if (!seen.emplace(value.variant, value.point, value.metric).second) {
      throw ScenarioError(path, "a second paper difference for the same variant, point and metric");
    }
    table.paper.push_back(std::move(value));
  }
  e.differences = std::move(table);
}

PaperNumber ParsePaperNumber(const json& p, const std::string& path) {
  PaperNumber number;
  if (p.contains("value")) {
    if (p.contains("min") || p.contains("max")) {
      throw ScenarioError(Child(path, "value"), "a paper number is a value or a range (min, max), not both");
    }
    number.min = number.max = p["value"].get<double>();
  }
  if (p.contains("min")) number.min = p["min"].get<double>();
  if (p.contains("max")) number.max = p["max"].get<double>();
  if (number.min && number.max && *number.min > *number.max) {
    throw ScenarioError(Child(path, "min"), "must not exceed max");
  }
  number.source = p["source"].get<std::string>();
  return number;
}

KnownIn ParseKnownIn(const json& c, const char* key) {
  const std::string in = c.value(key, "all");
  return in == "full" ? KnownIn::kFull : in == "quick" ? KnownIn::kQuick : KnownIn::kAll;
}

ClaimKind ParseClaimKind(const std::string& kind) {
  if (kind == "lowest") return ClaimKind::kLowest;
  if (kind == "highest") return ClaimKind::kHighest;
  if (kind == "significant") return ClaimKind::kSignificant;
  if (kind == "magnitude") return ClaimKind::kMagnitude;
  return ClaimKind::kRatio;
}

void ParseClaims(const json& d, Experiment& e, const NameIndex& variants, const NameIndex& metrics) {
  for (size_t i = 0; i < d["claims"].size(); ++i) {
    const json& c = d["claims"][i];
    const std::string path = Index("$.claims", i);
    Claim claim;
    claim.text = c["text"].get<std::string>();
    claim.known = c.value("known", "");
    claim.known_in = ParseKnownIn(c, "knownIn");
    if (claim.known_in != KnownIn::kAll && claim.known.empty()) {
      throw ScenarioError(Child(path, "knownIn"), "knownIn needs known (the reason the claim differs)");
    }
    claim.known_magnitude = c.value("knownMagnitude", "");
    claim.known_magnitude_in = ParseKnownIn(c, "knownMagnitudeIn");
    if (claim.known_magnitude_in != KnownIn::kAll && claim.known_magnitude.empty()) {
      throw ScenarioError(Child(path, "knownMagnitudeIn"),
                          "knownMagnitudeIn needs knownMagnitude (the reason the magnitudes differ)");
    }
    claim.kind = ParseClaimKind(c["kind"].get<std::string>());
    if (c.contains("paper")) {
      claim.paper = ParsePaperNumber(c["paper"], Child(path, "paper"));
      claim.tolerance = ToleranceOf(c["paper"], e, Child(path, "paper"));
      if (c.contains("min") || c.contains("max")) {
        throw ScenarioError(Child(path, c.contains("min") ? "min" : "max"),
                            "a ratio claim is bounded by the paper's number or by bounds of its own, not both");
      }
    }
    if (c.contains("measure")) {
      const std::string m = c["measure"].get<std::string>();
      claim.measure = m == "reduction" ? ClaimMeasure::kReduction
                      : m == "increase" ? ClaimMeasure::kIncrease
                      : m == "saving"   ? ClaimMeasure::kSaving
                                        : ClaimMeasure::kRatio;
      if (claim.measure != ClaimMeasure::kRatio && !claim.paper) {
        throw ScenarioError(Child(path, "measure"), "a measure is what the paper's number is in: it needs paper");
      }
    }
    std::optional<size_t> variant, metric;
    if (c.contains("variant")) variant = Lookup(variants, c["variant"], Child(path, "variant"), "variant");
    if (c.contains("metric")) metric = Lookup(metrics, c["metric"], Child(path, "metric"), "metric");
    auto selector = [&](const char* key) {
      const std::string spath = Child(path, key);
      const json s = c.contains(key) ? c[key] : json::object();
      CellSelector cell;
      cell.variant = variant;
      if (s.contains("variant")) {
        cell.variant = Lookup(variants, s["variant"], Child(spath, "variant"), "variant");
      }
      cell.metric = metric;
      if (s.contains("metric")) cell.metric = Lookup(metrics, s["metric"], Child(spath, "metric"), "metric");
      cell.point = ParsePointFilter(e, s.value("point", json::object()), Child(spath, "point"));
      if (!cell.variant) {
        throw ScenarioError(spath, "names no variant (give it here or as the claim's \"variant\")");
      }
      if (!cell.metric) {
        throw ScenarioError(spath, "names no metric (give it here or as the claim's \"metric\")");
      }
      return cell;
    };
    claim.a = selector("a");
    if (claim.kind == ClaimKind::kRatio || claim.kind == ClaimKind::kSignificant) claim.b = selector("b");
    if (c.contains("among")) {
      for (size_t j = 0; j < c["among"].size(); ++j) {
        claim.among.push_back(Lookup(variants, c["among"][j], Index(Child(path, "among"), j), "variant"));
      }
    } else {
      for (size_t v = 0; v < e.variants.size(); ++v) claim.among.push_back(v);
    }
    if (c.contains("min")) claim.min = c["min"].get<double>();
    if (c.contains("max")) claim.max = c["max"].get<double>();
    if (claim.min && claim.max && *claim.min > *claim.max) {
      throw ScenarioError(Child(path, "min"), "must not exceed max");
    }
    if (c.contains("direction")) claim.greater = c["direction"] == "greater";
    if (c.contains("level")) claim.level = c["level"].get<double>();
    const json& points = c["points"];
    if (claim.kind == ClaimKind::kMagnitude && points.is_string() && points != "all") {
      throw ScenarioError(Child(path, "points"),
                          "a magnitude has no direction to hold at most or any points: it is judged at every "
                          "point checked ('all' or listed points)");
    }
    if (points.is_string()) {
      claim.points = points == "most" ? ClaimPoints::kMost
                     : points == "any" ? ClaimPoints::kAny
                                       : ClaimPoints::kAll;
    } else {
      claim.points = ClaimPoints::kListed;
      for (size_t j = 0; j < points.size(); ++j) {
        claim.point_filters.push_back(ParsePointFilter(e, points[j], Index(Child(path, "points"), j)));
      }
    }
    e.claims.push_back(std::move(claim));
  }
}

// A set entry applied to a run's scenario, for tracing a scenario error back to it.
struct AppliedSet {
  std::string path;  // In the experiment document.
  std::string pointer;
};

void ApplySet(json& doc, const json& set, const std::string& path, const json* axis_value,
              const std::string& context, std::vector<AppliedSet>& applied) {
  // nlohmann::json keeps keys sorted, so a parent pointer comes before its children.
  for (const auto& [pointer, value] : set.items()) {
    const std::string entry = Child(path, pointer);
    json v = axis_value ? SubstituteValue(value, *axis_value) : value;
    if (auto problem = SetAtPointer(doc, pointer, std::move(v))) {
      throw ScenarioError(entry, "cannot set " + pointer + context + ": " + *problem);
    }
    applied.push_back({entry, pointer});
  }
}

// A run's scenario is invalid: blame the last set that wrote at or around the failing place, or else
// the variant.
[[noreturn]] void ThrowRunScenarioError(const ScenarioError& error, const json& doc,
                                        const std::vector<AppliedSet>& applied,
                                        const std::string& variant_path, const std::string& context) {
  const std::string where = UnderScenario(error.path());
  for (auto it = applied.rbegin(); it != applied.rend(); ++it) {
    const std::string target = PointerToJsonPath(doc, it->pointer);
    if (JsonPathWithin(error.path(), target) || JsonPathWithin(target, error.path())) {
      throw ScenarioError(it->path, "makes " + where + " invalid" + context + ": " + error.problem());
    }
  }
  throw ScenarioError(variant_path,
                      "the scenario is invalid" + context + " at " + where + ": " + error.problem());
}

// The points of a mode: the cartesian product of its axis values, the first axis varying slowest.
std::vector<std::vector<size_t>> Points(const Experiment& e, ExperimentMode mode) {
  std::vector<std::vector<size_t>> axis_values;
  for (size_t i = 0; i < e.axes.size(); ++i) {
    if (mode == ExperimentMode::kQuick) {
      axis_values.push_back(e.quick_axis_values[i]);
    } else {
      std::vector<size_t>& values = axis_values.emplace_back();
      for (size_t j = 0; j < e.axes[i].values.size(); ++j) values.push_back(j);
    }
  }
  return CartesianProduct(axis_values);
}

// Variant "sack", queue = 8, --quick: where in the expansion an error happened.
std::string Context(const Experiment& e, size_t variant, const std::vector<size_t>& point,
                    ExperimentMode mode) {
  std::string s = " (variant " + Quote(e.variants[variant].name);
  for (size_t i = 0; i < point.size(); ++i) {
    s += ", " + e.axes[i].name + " = " + ValueText(e.axes[i].values[point[i]].value);
  }
  if (mode == ExperimentMode::kQuick) s += ", --quick";
  return s + ")";
}

std::shared_ptr<const Scenario> CellScenario(const Experiment& e, size_t variant,
                                             const std::vector<size_t>& point, ExperimentMode mode) {
  const std::string context = Context(e, variant, point, mode);
  const std::string variant_path = Index("$.variants", variant);
  json doc = e.scenario;
  std::vector<AppliedSet> applied;
  ApplySet(doc, e.variants[variant].set, Child(variant_path, "set"), nullptr, context, applied);
  for (size_t i = 0; i < e.axes.size(); ++i) {
    const std::string axis_path = Index("$.axes", i);
    const AxisValue& value = e.axes[i].values[point[i]];
    ApplySet(doc, e.axes[i].set, Child(axis_path, "set"), &value.value, context, applied);
    const std::string value_path = Index(Child(axis_path, "values"), point[i]);
    ApplySet(doc, value.set, Child(value_path, "set"), nullptr, context, applied);
  }
  if (mode == ExperimentMode::kQuick) ApplySet(doc, e.quick_set, "$.quick.set", nullptr, context, applied);
  try {
    return std::make_shared<const Scenario>(ParseScenario(doc));
  } catch (const ScenarioError& error) {
    ThrowRunScenarioError(error, doc, applied, variant_path, context);
  }
}

}  // namespace

const char* ExperimentModeName(ExperimentMode mode) {
  return mode == ExperimentMode::kQuick ? "quick" : "full";
}

namespace {

bool Applies(KnownIn in, ExperimentMode mode) {
  return in == KnownIn::kAll || (in == KnownIn::kFull) == (mode == ExperimentMode::kFull);
}

}  // namespace

const std::string& KnownDifference(const Claim& claim, ExperimentMode mode) {
  static const std::string kNone;
  return Applies(claim.known_in, mode) ? claim.known : kNone;
}

const std::string& KnownMagnitudeDifference(const Claim& claim, ExperimentMode mode) {
  static const std::string kNone;
  return Applies(claim.known_magnitude_in, mode) ? claim.known_magnitude : kNone;
}

const char* AgreementKindName(AgreementKind kind) {
  switch (kind) {
    case AgreementKind::kOrder: return "order";
    case AgreementKind::kRatio: return "ratio";
    case AgreementKind::kMagnitude: return "magnitude";
    case AgreementKind::kSignificance: return "significance";
  }
  return "order";
}

const char* ClaimMeasureName(ClaimMeasure measure) {
  switch (measure) {
    case ClaimMeasure::kRatio: return "ratio";
    case ClaimMeasure::kReduction: return "reduction";
    case ClaimMeasure::kIncrease: return "increase";
    case ClaimMeasure::kSaving: return "saving";
  }
  return "ratio";
}

AgreementKind ClaimAgreementKind(const Claim& claim) {
  switch (claim.kind) {
    case ClaimKind::kLowest:
    case ClaimKind::kHighest: return AgreementKind::kOrder;
    case ClaimKind::kSignificant: return AgreementKind::kSignificance;
    case ClaimKind::kMagnitude: return AgreementKind::kMagnitude;
    case ClaimKind::kRatio: return claim.paper ? AgreementKind::kRatio : AgreementKind::kOrder;
  }
  return AgreementKind::kOrder;
}

const PaperValue* FindPaperValue(const Experiment& e, size_t variant, const std::vector<size_t>& point,
                                 size_t metric) {
  for (const PaperValue& p : e.paper) {
    if (p.variant == variant && p.metric == metric && p.point == point) return &p;
  }
  return nullptr;
}

const PaperDifference* FindPaperDifference(const DifferenceTable& table, size_t variant,
                                           const std::vector<size_t>& point, size_t metric) {
  for (const PaperDifference& p : table.paper) {
    if (p.variant == variant && p.metric == metric && p.point == point) return &p;
  }
  return nullptr;
}

std::vector<std::string> ExperimentNames() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (auto name = EmbeddedJsonName(f.path, kExperimentDir)) names.emplace_back(*name);
  }
  return names;
}

std::optional<std::string_view> ExperimentText(std::string_view name) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (EmbeddedJsonName(f.path, kExperimentDir) == name) return f.content;
  }
  return std::nullopt;
}

const nlohmann::json& ExperimentSchemaDocument() {
  static const json schema = json::parse(EmbeddedFileText("scenario/schema/experiment.schema.json").value());
  return schema;
}

Experiment ParseExperiment(const nlohmann::json& document) {
  const JsonSchema& schema = CompiledExperimentSchema();
  if (auto error = schema.Validate(document)) throw ScenarioError(error->path, error->message);
  Experiment e;
  e.document = document;
  schema.ApplyDefaults(e.document);
  const json& d = e.document;
  e.name = d["name"].get<std::string>();
  e.title = d["title"].get<std::string>();
  e.reference = d["reference"].get<std::string>();
  e.description = d["description"].get<std::string>();
  e.scenario = d["scenario"];
  Scenario base;
  try {
    base = ParseScenario(e.scenario);
  } catch (const ScenarioError& error) {
    throw ScenarioError(UnderScenario(error.path()), error.problem());
  }
  e.replications = d["replications"].get<int>();

  NameIndex variants, metrics;
  ParseVariants(d, e, variants);
  ParseAxes(d, e);
  ParseQuick(d, e);
  ParseMetrics(d, base, e, metrics);
  ParsePaper(d, e, variants, metrics);
  ParseClaims(d, e, variants, metrics);
  ParseDifferences(d, e, variants, metrics);

  // Every run's scenario, in both modes, so that a bad experiment fails before anything runs.
  for (ExperimentMode mode : {ExperimentMode::kFull, ExperimentMode::kQuick}) {
    const int replications = mode == ExperimentMode::kQuick ? e.quick_replications : e.replications;
    for (size_t v = 0; v < e.variants.size(); ++v) {
      for (const std::vector<size_t>& point : Points(e, mode)) {
        const std::shared_ptr<const Scenario> scenario = CellScenario(e, v, point, mode);
        if (scenario->seed > kMaxSeed - static_cast<uint64_t>(replications - 1)) {
          throw ScenarioError("$.replications", "the scenario's seed plus the replications exceeds " +
                                                    std::to_string(kMaxSeed) + Context(e, v, point, mode));
        }
      }
    }
  }
  return e;
}

Experiment ParseExperimentText(std::string_view text) { return ParseExperiment(ParseJsonText(text)); }

nlohmann::json RunSpec::ScenarioDocument() const {
  json doc = scenario->document;
  doc["seed"] = seed;
  return doc;
}

ExperimentPlan Expand(const Experiment& experiment, ExperimentMode mode) {
  ExperimentPlan plan;
  plan.mode = mode;
  plan.replications =
      mode == ExperimentMode::kQuick ? experiment.quick_replications : experiment.replications;
  plan.points = Points(experiment, mode);
  for (size_t v = 0; v < experiment.variants.size(); ++v) {
    for (size_t p = 0; p < plan.points.size(); ++p) {
      const std::shared_ptr<const Scenario> scenario = CellScenario(experiment, v, plan.points[p], mode);
      for (int r = 0; r < plan.replications; ++r) {
        RunSpec spec;
        spec.index = plan.runs.size();
        spec.variant = v;
        spec.point = p;
        spec.replication = r;
        spec.seed = scenario->seed + static_cast<uint64_t>(r);
        spec.scenario = scenario;
        plan.runs.push_back(std::move(spec));
      }
    }
  }
  return plan;
}

nlohmann::json PointDocument(const Experiment& experiment, const std::vector<size_t>& point) {
  json doc = json::object();
  for (size_t i = 0; i < point.size(); ++i) {
    doc[experiment.axes[i].name] = experiment.axes[i].values[point[i]].value;
  }
  return doc;
}

std::string PointLabel(const Experiment& experiment, const std::vector<size_t>& point) {
  if (point.empty()) return "all";
  std::string label;
  for (size_t i = 0; i < point.size(); ++i) {
    label += (i > 0 ? ", " : "") + experiment.axes[i].values[point[i]].label;
  }
  return label;
}

nlohmann::json RunSpecSummary(const RunSpec& spec) {
  RunOptions options;
  options.seed = spec.seed;
  options.trace = TraceLevel::kNone;
  return RunScenario(*spec.scenario, options).summary;
}

}  // namespace tcb
