#include "experiment/grid.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json_pointer.h"
#include "scenario/json_schema.h"
#include "scenario/scenario.h"

namespace tcb {

using json = nlohmann::json;

std::vector<std::vector<size_t>> CartesianProduct(const std::vector<std::vector<size_t>>& axis_values) {
  std::vector<std::vector<size_t>> points{{}};
  for (const std::vector<size_t>& values : axis_values) {
    std::vector<std::vector<size_t>> next;
    next.reserve(points.size() * values.size());
    for (const std::vector<size_t>& p : points) {
      for (size_t v : values) {
        next.push_back(p);
        next.back().push_back(v);
      }
    }
    points = std::move(next);
  }
  return points;
}

namespace {

// "$.scenario" + the tail of a scenario error's path ("$.tcp.flavor" -> "$.scenario.tcp.flavor").
std::string InScenario(const std::string& scenario_path) { return "$.scenario" + scenario_path.substr(1); }

// The point's values as {pointer: value}, in grid order, for messages and the plan document.
nlohmann::ordered_json Params(const std::vector<GridAxis>& grid, const std::vector<size_t>& point) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (size_t k = 0; k < grid.size(); ++k) {
    params[grid[k].pointer] = nlohmann::ordered_json(grid[k].values[point[k]]);
  }
  return params;
}

// The scenario schema's node `node` with its $ref followed (local "#/$defs/..." references);
// nullptr for a reference the walk below cannot follow.
const json* Deref(const json* node) {
  constexpr std::string_view kDefs = "#/$defs/";
  for (int hops = 0; node != nullptr && node->is_object() && node->contains("$ref"); ++hops) {
    const std::string& ref = node->at("$ref").get_ref<const std::string&>();
    if (hops > 16 || ref.rfind(kDefs, 0) != 0) return nullptr;
    const json& defs = ScenarioSchemaDocument().at("$defs");
    const auto it = defs.find(ref.substr(kDefs.size()));
    node = it == defs.end() ? nullptr : &*it;
  }
  return node;
}

// The member whose schema is a "const" in every branch of `one_of` (scheme, kind, type), if any.
std::optional<std::string> Discriminator(const json& one_of) {
  const json* first = Deref(&one_of.at(0));
  if (first == nullptr || !first->contains("properties")) return std::nullopt;
  for (const auto& [key, _] : first->at("properties").items()) {
    bool everywhere = true;
    for (const json& raw : one_of) {
      const json* branch = Deref(&raw);
      everywhere = everywhere && branch != nullptr && branch->contains("properties") &&
                   branch->at("properties").contains(key) && branch->at("properties").at(key).contains("const");
    }
    if (everywhere) return key;
  }
  return std::nullopt;
}

// The branch of a oneOf whose discriminator `key` is `value`; nullptr when none is.
const json* BranchNamed(const json& one_of, const std::string& key, const json& value) {
  for (const json& raw : one_of) {
    const json* branch = Deref(&raw);
    if (branch != nullptr && branch->at("properties").at(key).at("const") == value) return branch;
  }
  return nullptr;
}

// The schema `node` applies to `instance`: its $ref followed and, for a oneOf, the branch the
// instance's discriminator chooses (nullptr when the walk cannot tell which).
const json* SchemaFor(const json* node, const json& instance) {
  node = Deref(node);
  if (node == nullptr || !node->contains("oneOf")) return node;
  const std::optional<std::string> key = Discriminator(node->at("oneOf"));
  if (!key || !instance.is_object() || !instance.contains(*key)) return nullptr;
  return BranchNamed(node->at("oneOf"), *key, instance.at(*key));
}

// The schema of the member `token` of `instance`, whose schema is `node`; nullptr if unknown.
const json* MemberSchema(const json* node, const json& instance, const std::string& token) {
  node = SchemaFor(node, instance);
  if (node == nullptr) return nullptr;
  if (instance.is_object()) {
    if (node->contains("properties") && node->at("properties").contains(token)) return &node->at("properties").at(token);
    if (node->contains("additionalProperties") && node->at("additionalProperties").is_object()) {
      return &node->at("additionalProperties");
    }
  } else if (instance.is_array() && node->contains("items")) {
    return &node->at("items");
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> SetGridValue(json& scenario, std::string_view pointer, json value) {
  const std::optional<std::vector<std::string>> tokens = ParseJsonPointer(pointer);
  if (!tokens || tokens->empty()) return SetAtPointer(scenario, pointer, std::move(value));
  // Down to the parent of the member set, the document and its schema side by side.
  const json* schema = &ScenarioSchemaDocument();
  json* parent = &scenario;
  for (size_t i = 0; i + 1 < tokens->size() && schema != nullptr; ++i) {
    const std::string& token = (*tokens)[i];
    schema = MemberSchema(schema, *parent, token);
    if (parent->is_object() && parent->contains(token)) {
      parent = &parent->at(token);
    } else if (const std::optional<size_t> index = JsonPointerIndex(token); parent->is_array() && index && *index < parent->size()) {
      parent = &parent->at(*index);
    } else {
      schema = nullptr;  // SetAtPointer names what is missing.
    }
  }
  const json* choice = schema == nullptr ? nullptr : Deref(schema);
  if (choice != nullptr && parent->is_object() && choice->contains("oneOf")) {
    const json& one_of = choice->at("oneOf");
    const std::string& member = tokens->back();
    const json* branch = Discriminator(one_of) == member ? BranchNamed(one_of, member, value) : nullptr;
    if (branch != nullptr) {
      json chosen = json::object();
      for (const auto& [key, old] : parent->items()) {
        if (branch->at("properties").contains(key)) chosen[key] = old;
      }
      chosen[member] = std::move(value);
      *parent = std::move(chosen);
      return std::nullopt;
    }
  }
  return SetAtPointer(scenario, pointer, std::move(value));
}

GridPlan PlanGrid(const json& scenario, const std::vector<GridAxis>& grid, int replications) {
  if (replications < 1) throw ScenarioError("$.replications", "must be at least 1");
  GridPlan plan;
  try {
    plan.normalised = ParseScenario(scenario).document;
  } catch (const ScenarioError& e) {
    throw ScenarioError(InScenario(e.path()), e.problem());
  }

  // Each value on its own first, so that an error names the value rather than a combination.
  std::vector<std::vector<size_t>> axis_values;
  std::vector<uint64_t> value_seeds;  // Of the last axis's values: a one-axis grid's points.
  for (const GridAxis& axis : grid) {
    const std::string at = JsonPathChild("$.grid", axis.pointer);
    if (axis.values.empty()) throw ScenarioError(at, "must have at least one value");
    std::vector<double>& durations = plan.value_duration_s.emplace_back();
    value_seeds.clear();
    for (size_t i = 0; i < axis.values.size(); ++i) {
      json doc = scenario;
      if (auto refused = SetGridValue(doc, axis.pointer, axis.values[i])) throw ScenarioError(at, *refused);
      try {
        const json normalised = ParseScenario(doc).document;
        durations.push_back(normalised.at("durationS").get<double>());
        value_seeds.push_back(normalised.at("seed").get<uint64_t>());
      } catch (const ScenarioError& e) {
        throw ScenarioError(JsonPathIndex(at, i), "makes " + InScenario(e.path()) + " invalid: " + e.problem());
      }
    }
    std::vector<size_t>& indices = axis_values.emplace_back();
    for (size_t i = 0; i < axis.values.size(); ++i) indices.push_back(i);
  }

  for (std::vector<size_t>& values : CartesianProduct(axis_values)) {
    GridPoint point;
    point.scenario = scenario;
    for (size_t k = 0; k < grid.size(); ++k) SetGridValue(point.scenario, grid[k].pointer, grid[k].values[values[k]]);
    if (grid.empty()) {
      point.seed = plan.normalised.at("seed").get<uint64_t>();
      point.duration_s = plan.normalised.at("durationS").get<double>();
    } else if (grid.size() == 1) {
      // A one-axis grid's points are its values, each checked above: parsing the scenario is most
      // of the planning's time (a 1000-value sweep planned in half the time).
      point.seed = value_seeds[values[0]];
      point.duration_s = plan.value_duration_s[0][values[0]];
    } else {
      try {
        const json normalised = ParseScenario(point.scenario).document;
        point.seed = normalised.at("seed").get<uint64_t>();
        point.duration_s = normalised.at("durationS").get<double>();
      } catch (const ScenarioError& e) {
        throw ScenarioError("$.grid", "the point " + Params(grid, values).dump() + " makes " + InScenario(e.path()) +
                                          " invalid: " + e.problem());
      }
    }
    if (point.seed > kMaxSeed - static_cast<uint64_t>(replications - 1)) {
      throw ScenarioError("$.replications", "seed " + std::to_string(point.seed) + " + " +
                                                std::to_string(replications - 1) + " is beyond 2^53 - 1");
    }
    point.values = std::move(values);
    plan.points.push_back(std::move(point));
  }
  return plan;
}

nlohmann::ordered_json PlanGridText(std::string_view request_text) {
  ParseJsonText(request_text);  // Throws the scenario parser's line-and-column error on bad JSON.
  const auto request = nlohmann::ordered_json::parse(request_text);
  if (!request.is_object()) throw ScenarioError("$", "must be an object {scenario, grid, replications}");
  for (const auto& [key, value] : request.items()) {
    if (key != "scenario" && key != "grid" && key != "replications") {
      throw ScenarioError(JsonPathChild("$", key), "unknown field (expected scenario, grid or replications)");
    }
  }
  if (!request.contains("scenario") || !request.at("scenario").is_object()) {
    throw ScenarioError("$.scenario", "must be a scenario object");
  }
  std::vector<GridAxis> grid;
  if (request.contains("grid")) {
    if (!request.at("grid").is_object()) throw ScenarioError("$.grid", "must be an object {pointer: [values]}");
    for (const auto& [pointer, values] : request.at("grid").items()) {
      const std::string at = JsonPathChild("$.grid", pointer);
      if (!values.is_array()) throw ScenarioError(at, "must be an array of values");
      GridAxis& axis = grid.emplace_back();
      axis.pointer = pointer;
      for (const auto& v : values) axis.values.emplace_back(v);
    }
  }
  int replications = 1;
  if (request.contains("replications")) {
    const auto& r = request.at("replications");
    if (!r.is_number_integer() || r.get<int64_t>() < 1 || r.get<int64_t>() > 1'000'000) {
      throw ScenarioError("$.replications", "must be an integer from 1 to 1000000");
    }
    replications = r.get<int>();
  }

  const GridPlan plan = PlanGrid(json(request.at("scenario")), grid, replications);
  nlohmann::ordered_json out;
  out["normalised"] = nlohmann::ordered_json(plan.normalised);
  out["pointers"] = nlohmann::ordered_json::array();
  for (const GridAxis& axis : grid) out["pointers"].push_back(axis.pointer);
  out["valueDurationS"] = plan.value_duration_s;
  out["points"] = nlohmann::ordered_json::array();
  for (const GridPoint& p : plan.points) {
    nlohmann::ordered_json point;
    point["params"] = Params(grid, p.values);
    point["scenario"] = nlohmann::ordered_json(p.scenario);
    point["seed"] = p.seed;
    point["durationS"] = p.duration_s;
    out["points"].push_back(std::move(point));
  }
  return out;
}

}  // namespace tcb
