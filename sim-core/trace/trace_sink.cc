// Trace levels and packet events by name.
#include "trace/trace_sink.h"

#include "core/enum_names.h"

namespace tcb {

namespace {
constexpr std::string_view kLevelNames[] = {"none", "summary", "series", "full"};
constexpr std::string_view kEventNames[] = {"send", "retransmit", "ack", "drop", "loss", "receive"};
}  // namespace

bool ParseTraceLevel(std::string_view name, TraceLevel* level) { return ParseEnumName(kLevelNames, name, level); }
std::string_view TraceLevelName(TraceLevel level) { return EnumName(kLevelNames, level); }
std::string_view PacketEventName(PacketEvent event) { return EnumName(kEventNames, event); }

const std::vector<std::string_view>& PacketEventNames() {
  static const std::vector<std::string_view> names(std::begin(kEventNames), std::end(kEventNames));
  return names;
}

}  // namespace tcb
