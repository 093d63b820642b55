// Trace sinks: column buffers for the time series and the packet trace of a run. Components hold a
// nullable pointer to the Recorder and record only what its level asks for.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

// How much a run records beyond its summary. The summary (and its resultHash) is the same at every
// level; `kNone` only trims the per-flow and per-link arrays from the printed summary.
enum class TraceLevel : uint8_t { kNone, kSummary, kSeries, kFull };
bool ParseTraceLevel(std::string_view name, TraceLevel* level);
std::string_view TraceLevelName(TraceLevel level);

// What happened to a packet, as seen by the component that records it.
enum class PacketEvent : uint8_t {
  kSend,        // A transport sent a new segment or datagram.
  kRetransmit,  // A TCP sender sent a segment again.
  kAck,         // A TCP sender received an acknowledgement.
  kDrop,        // A queue was full.
  kLoss,        // The link's loss model discarded it in transit.
  kReceive,     // The destination transport received it.
};
std::string_view PacketEventName(PacketEvent event);

// One row per packet event; all columns have the same length.
struct PacketTrace {
  std::vector<int64_t> time_ns;
  std::vector<uint8_t> event;  // PacketEvent
  std::vector<int32_t> flow;
  std::vector<int32_t> link;  // Link direction for kDrop/kLoss, otherwise -1.
  std::vector<int64_t> seq;
  std::vector<int32_t> payload;
  std::vector<int64_t> ack;
  std::vector<int64_t> window;
  std::vector<uint8_t> flags;
  std::vector<uint8_t> from_initiator;
  std::vector<uint64_t> uid;

  size_t size() const { return time_ns.size(); }
};

// Per-connection congestion state, one row per change.
struct TcpSeries {
  std::vector<int64_t> time_ns;
  std::vector<int32_t> flow;
  std::vector<int64_t> cwnd;      // bytes
  std::vector<int64_t> ssthresh;  // bytes
  std::vector<int64_t> srtt_ns;
  std::vector<int64_t> rttvar_ns;
  std::vector<int64_t> in_flight;  // bytes
  std::vector<int64_t> pacing_bps;  // 0 while not paced

  size_t size() const { return time_ns.size(); }
};

// Per-link-direction queue occupancy, one row per change (packets waiting, not being transmitted).
struct QueueSeries {
  std::vector<int64_t> time_ns;
  std::vector<int32_t> link;
  std::vector<int32_t> packets;
  std::vector<int64_t> bytes;

  size_t size() const { return time_ns.size(); }
};

// Per sharing group (ensemble, macroflow, TCBI set): the shared or aggregate state, one row per
// change. For schemes whose members keep their own windows, cwnd and ssthresh are the members' sums.
struct GroupSeries {
  std::vector<int64_t> time_ns;
  std::vector<int32_t> group;
  std::vector<int64_t> cwnd;       // bytes
  std::vector<int64_t> ssthresh;   // bytes
  std::vector<int64_t> srtt_ns;
  std::vector<int64_t> rttvar_ns;
  std::vector<int64_t> in_flight;  // bytes
  std::vector<int32_t> members;

  size_t size() const { return time_ns.size(); }
};

struct Packet;

class Recorder {
 public:
  explicit Recorder(TraceLevel level) : level_(level) {}

  TraceLevel level() const { return level_; }
  bool series() const { return level_ >= TraceLevel::kSeries; }
  bool packets() const { return level_ >= TraceLevel::kFull; }

  void RecordPacket(SimTime now, PacketEvent event, const Packet& p, LinkId link = -1);
  void RecordTcp(SimTime now, FlowId flow, Bytes cwnd, Bytes ssthresh, SimTime srtt,
                 SimTime rttvar, Bytes in_flight, int64_t pacing_bps);
  void RecordQueue(SimTime now, LinkId link, int32_t packets, Bytes bytes);
  void RecordGroup(SimTime now, int32_t group, Bytes cwnd, Bytes ssthresh, SimTime srtt,
                   SimTime rttvar, Bytes in_flight, int32_t members);
  // Names a sharing group for the series; ids are handed out in creation order at every level.
  int32_t RegisterGroup(std::string label);
  const std::vector<std::string>& group_labels() const { return group_labels_; }

  const PacketTrace& packet_trace() const { return packet_trace_; }
  const TcpSeries& tcp_series() const { return tcp_series_; }
  const QueueSeries& queue_series() const { return queue_series_; }
  const GroupSeries& group_series() const { return group_series_; }

 private:
  TraceLevel level_;
  PacketTrace packet_trace_;
  TcpSeries tcp_series_;
  QueueSeries queue_series_;
  GroupSeries group_series_;
  std::vector<std::string> group_labels_;
};

}  // namespace tcb
