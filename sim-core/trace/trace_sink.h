// Where components report what a run records beyond its summary, as htsim's loggers are: packet
// events and the time series of connections, queues and sharing groups, each a row of a table of
// trace/columns.json. Components hold a nullable TraceSink pointer and ask its level before they
// build a row; metrics/recorder.h keeps the rows in column buffers. This layer sits below every
// component, so that none of them depends on where the rows go.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/generated_columns.h"

namespace tcb {

// How much a run records beyond its summary. The summary (and its resultHash) is the same at every
// level; `kNone` only trims the per-flow and per-link arrays from the printed summary.
enum class TraceLevel : uint8_t { kNone, kSummary, kSeries, kFull };
bool ParseTraceLevel(std::string_view name, TraceLevel* level);
std::string_view TraceLevelName(TraceLevel level);

// What happened to a packet, as seen by the component that records it (PacketRow::event).
enum class PacketEvent : uint8_t {
  kSend,        // A transport sent a new segment or datagram.
  kRetransmit,  // A TCP sender sent a segment again.
  kAck,         // A TCP sender received an acknowledgement.
  kDrop,        // A queue was full.
  kLoss,        // The link's loss model discarded it in transit.
  kReceive,     // The destination transport received it.
};
std::string_view PacketEventName(PacketEvent event);
// Every event's name, by code: what PacketRow::event indexes.
const std::vector<std::string_view>& PacketEventNames();

class TraceSink {
 public:
  explicit TraceSink(TraceLevel level) : level_(level) {}
  virtual ~TraceSink() = default;

  TraceLevel level() const { return level_; }
  bool series() const { return level_ >= TraceLevel::kSeries; }
  bool packets() const { return level_ >= TraceLevel::kFull; }

  // Must be called only when packets() is true.
  virtual void Record(const PacketRow& row) = 0;
  // Must be called only when series() is true.
  virtual void Record(const TcpSeriesRow& row) = 0;
  virtual void Record(const QueueSeriesRow& row) = 0;
  virtual void Record(const GroupSeriesRow& row) = 0;
  // Names a sharing group for the series; ids are handed out in creation order at every level.
  virtual int32_t RegisterGroup(std::string label) = 0;

 private:
  TraceLevel level_;
};

}  // namespace tcb
