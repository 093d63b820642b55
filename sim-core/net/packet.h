// A simulated packet: the fields of the IPv4/TCP or UDP headers that the model uses, plus bookkeeping.
// Packets come from the Network's pool and go back to it when delivered or dropped.
#pragma once

#include <array>
#include <cstdint>

#include "core/time.h"
#include "core/units.h"
#include "trace/trace_sink.h"

namespace tcb {

class PacketSink;

enum class Protocol : uint8_t { kTcp, kUdp };

// TCP header flags, with the values of the real header so exporters can copy them.
namespace tcp_flags {
inline constexpr uint8_t kFin = 0x01;
inline constexpr uint8_t kSyn = 0x02;
inline constexpr uint8_t kRst = 0x04;
inline constexpr uint8_t kPsh = 0x08;
inline constexpr uint8_t kAck = 0x10;
}  // namespace tcp_flags

inline constexpr Bytes kIpHeaderBytes = 20;
inline constexpr Bytes kTcpHeaderBytes = 20;
inline constexpr Bytes kUdpHeaderBytes = 8;

struct SackBlock {
  SeqNo start = 0;  // First byte covered.
  SeqNo end = 0;    // One past the last byte covered.
};
inline constexpr int kMaxSackBlocks = 4;

struct Packet {
  uint64_t uid = 0;  // Unique within a run, in order of creation.
  FlowId flow = -1;  // The connection or UDP flow this packet belongs to.
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  PacketSink* endpoint = nullptr;  // The transport endpoint at `dst` that receives it. Not owned.
  Bytes size = 0;                  // On the wire, headers included.
  Protocol protocol = Protocol::kTcp;
  bool from_initiator = true;  // Direction within the flow: sent by the side that opened it.

  // TCP header (sequence numbers are unwrapped 64-bit).
  uint8_t flags = 0;
  uint8_t sack_count = 0;
  SeqNo seq = 0;
  SeqNo ack = 0;
  Bytes payload = 0;  // TCP or UDP payload bytes.
  Bytes window = 0;   // Advertised receive window.
  std::array<SackBlock, kMaxSackBlocks> sack{};

  SimTime sent_at;  // When the transport handed it to the network.
  // TCP: uid of the segment whose arrival triggered this ACK. It plays the part of a timestamp echo
  // (RFC 7323) without ties: uids grow in send order.
  uint64_t echo_uid = 0;

  bool Has(uint8_t flag) const { return (flags & flag) != 0; }
};

// Anything that packets can be handed to: a link, a node, a transport endpoint. Receive() takes
// ownership: the sink forwards the packet or releases it to the pool.
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void Receive(Packet& packet) = 0;
};

// The packet trace's row for `event` on `p` (at `link` for drops and losses).
inline PacketRow TraceRow(SimTime now, PacketEvent event, const Packet& p, LinkId link = -1) {
  PacketRow row;
  row.time_ns = now.ns();
  row.event = static_cast<uint8_t>(event);
  row.flow = p.flow;
  row.from_initiator = p.from_initiator ? 1 : 0;
  row.link = link;
  row.seq = p.seq;
  row.payload = static_cast<int32_t>(p.payload);
  row.ack = p.ack;
  row.window = p.window;
  row.flags = p.flags;
  // RFC 2018 §4: the first block reports the most recently received data; the others repeat
  // earlier blocks, so the trace keeps the first and the count (the pcap capture keeps them all).
  row.sack_blocks = p.sack_count;
  if (p.sack_count > 0) {
    row.sack_start = p.sack[0].start;
    row.sack_end = p.sack[0].end;
  }
  row.uid = p.uid;
  return row;
}

}  // namespace tcb
