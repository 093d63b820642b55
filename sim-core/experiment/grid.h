// Sweeps over a scenario: the cartesian product that both an experiment's axes and a batch's grid
// expand into, and the plan of a batch's grid ({JSON Pointer: values} over a base scenario). The
// service plans its batches with PlanGrid through the WebAssembly build, so a grid means the same
// thing in the CLI, the API and the dashboard.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcb {

// The largest seed a scenario may have: integers a JavaScript number holds exactly (2^53 - 1).
inline constexpr uint64_t kMaxSeed = 9007199254740991ULL;

// Every combination of one value index per axis, the first axis varying slowest:
// {{0, 1}, {0, 1, 2}} -> {0,0} {0,1} {0,2} {1,0} {1,1} {1,2}. No axes: one empty point.
std::vector<std::vector<size_t>> CartesianProduct(const std::vector<std::vector<size_t>>& axis_values);

// Sets `value` at `pointer` in a scenario document, as a grid point does: as SetAtPointer
// (json/json_pointer.h), with one rule of the scenario schema's. Where the member set is the
// discriminator of a oneOf (a sharing configuration's "scheme", a topology's "kind", a traffic
// item's "type"), the value chooses a branch, and the object keeps only the members that branch
// has: "/hosts/left0/sharing/scheme" swept over independent and etcp gives {"scheme":
// "independent"} and {"scheme": "etcp", "tickets": ...} from a base scenario whose E-TCP host
// sets tickets, each scheme otherwise with its own defaults. A value that names no branch is set
// as it is (the scenario's validation then names it). Any value may be a whole object or array
// ("/hosts/left0/sharing": [{"scheme": "independent"}, {"scheme": "etcp", "tickets": "content"}]).
// Returns the problem in words when the pointer cannot be set, as SetAtPointer.
std::optional<std::string> SetGridValue(nlohmann::json& scenario, std::string_view pointer, nlohmann::json value);

// One axis of a batch's grid: the values to set at `pointer` in the base scenario.
struct GridAxis {
  std::string pointer;
  std::vector<nlohmann::json> values;
};

struct GridPoint {
  std::vector<size_t> values;  // A value index per axis.
  nlohmann::json scenario;     // The base scenario as given, with the point's values set.
  uint64_t seed = 0;           // The point's seed (its default filled in); replication r runs seed + r.
  double duration_s = 0;       // The point's simulated duration, its default filled in.
};

struct GridPlan {
  nlohmann::json normalised;  // The base scenario with every default filled in.
  // Per axis, per value: the simulated duration of the base scenario with only that value set (so
  // that a limit on durations can name the value that broke it).
  std::vector<std::vector<double>> value_duration_s;
  std::vector<GridPoint> points;  // In CartesianProduct order.
};

// The plan of a batch: the base scenario validated, each value validated on its own (so that an error
// names the value that broke the scenario), then every point validated, with its seed checked to
// leave room for `replications` seeds below kMaxSeed. Throws ScenarioError with the path in the terms
// of a batch request {scenario, grid, replications}: "$.scenario.tcp.flavor",
// "$.grid['/tcp/flavor'][1]", "$.grid" (a combination), "$.replications".
GridPlan PlanGrid(const nlohmann::json& scenario, const std::vector<GridAxis>& grid, int replications);

// The same for a request document {"scenario": {...}, "grid": {"/pointer": [values...]},
// "replications": n}, read from JSON text so that the grid keeps its order (the first pointer varies
// slowest). The result is the document `tcpsim grid` prints and the WebAssembly build returns:
// {"normalised", "pointers", "valueDurationS", "points": [{"params": {pointer: value}, "scenario",
// "seed", "durationS"}]}, with "params" in grid order.
nlohmann::ordered_json PlanGridText(std::string_view request_text);

}  // namespace tcb
