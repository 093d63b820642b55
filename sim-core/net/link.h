// One direction of a point-to-point link: a drop-tail FIFO queue, a transmitter of fixed rate and a
// propagation delay. Because the queue is FIFO and the rate fixed, a packet's transmission start and
// arrival time are known when it is enqueued, so the link needs one event per packet (its arrival at
// the far end) and keeps one pending event in all (the arrival at the head of its pipe).
#pragma once

#include <memory>
#include <string>

#include "core/memory_budget.h"
#include "core/ring_buffer.h"
#include "core/simulation.h"
#include "core/units.h"
#include "net/link_capture.h"
#include "net/loss_model.h"
#include "net/packet.h"

namespace tcb {

class Network;
class Node;

// Drop-tail limit on the packets waiting for the transmitter (the packet being transmitted does
// not count, as in ns-2). A negative value means no limit of that kind.
struct QueueLimit {
  int64_t packets = -1;
  Bytes bytes = -1;
  static QueueLimit Unlimited() { return {}; }
  static QueueLimit Packets(int64_t n) { return {n, -1}; }
  static QueueLimit InBytes(Bytes n) { return {-1, n}; }
};

struct LinkStats {
  int64_t packets_offered = 0;  // Accepted + dropped by the queue.
  int64_t packets_accepted = 0;
  int64_t packets_delivered = 0;
  int64_t queue_drops = 0;
  int64_t loss_drops = 0;  // Discarded by the loss model.
  Bytes bytes_accepted = 0;
  Bytes bytes_delivered = 0;
  int32_t max_queue_packets = 0;
  Bytes max_queue_bytes = 0;
};

class Link final : public EventSource, public PacketSink, public MemoryPart {
 public:
  Link(Network& network, LinkId id, std::string name, Node& from, Node& to, BitsPerSec rate,
       SimTime delay, QueueLimit limit);

  void SetLossModel(std::unique_ptr<LossModel> loss) { loss_ = std::move(loss); }
  // Bytes of link-layer framing the transmitter sends with every packet (e.g. 14 for an Ethernet II
  // header, as a Linux qdisc counts a frame on a veth or Ethernet device: skb->len). They lengthen
  // each transmission; the queue's limits and byte counts stay in the packets' own bytes.
  void SetFramingBytes(Bytes framing) {
    framing_bytes_ = framing;
    tx_time_size_ = -1;
  }
  void SetCapture(LinkCapture* capture) { capture_ = capture; }

  // Enqueues `packet` now, or drops it when the queue is full.
  void Receive(Packet& packet) override { Enqueue(packet, packet.dst, packet.size); }
  // Receive() for a node forwarding `packet`, whose destination and size it passes as this link's
  // predecessor carried them: a router hop then does not read the packet, which has usually left
  // the cache while it crossed that link.
  void Enqueue(Packet& packet, NodeId dst, Bytes size);
  // Delivers the packet at the head of the pipe to the far node.
  void OnEvent() override;

  // Brings the queue accounting up to `end` (packets that started transmission by then leave the
  // queue) and closes the time integrals. Call once when the run stops.
  void Finish(SimTime end);

  LinkId id() const { return id_; }
  const std::string& name() const { return name_; }
  Node& from() const { return from_; }
  Node& to() const { return to_; }
  BitsPerSec rate() const { return rate_; }
  SimTime delay() const { return delay_; }
  Bytes framing_bytes() const { return framing_bytes_; }
  const QueueLimit& limit() const { return limit_; }
  const LinkStats& stats() const { return stats_; }
  // Packets accepted and not yet delivered (queued, in transmission or propagating).
  size_t in_flight() const { return fifo_.size(); }
  // MemoryPart: the packets the link holds (queued, in transmission or propagating), each a pooled
  // packet and a slot of the queue.
  Bytes MemoryBytes() const override;
  std::string DescribeMemory() const override;
  // Time the transmitter was busy within [0, end], and the time-average queue length; valid after Finish().
  SimTime busy_time() const { return busy_within_end_; }
  double mean_queue_packets() const { return mean_queue_packets_; }

 private:
  // 32 bytes. Every record past started_ is a packet that found the transmitter busy (one that
  // finds it idle starts at once), so it counts as waiting until its tx_start.
  struct InFlight {
    SimTime tx_start;
    SimTime arrival;  // The transmission ends `delay_` earlier.
    Packet* packet;   // Not owned (the pool owns packets).
    // The packet's size and destination, kept here so that neither the queue accounting nor the far
    // node's forwarding reads the packet. The destination is kLostInTransit when the loss model
    // discarded the packet.
    int32_t size;
    NodeId dst;
  };
  static constexpr NodeId kLostInTransit = kNoNode;

  // Removes from the waiting count every packet whose transmission started at or before `now`.
  // Always inlined: it runs on every arrival and departure, and the WebAssembly build otherwise
  // kept it as a call of its own (about 4% of dumbbell-bulk's time in Node).
  [[gnu::always_inline]] void AdvanceTo(SimTime now) {
    if (started_ < fifo_.size() && fifo_[started_].tx_start <= now) AdvanceStarts(now);
  }
  void AdvanceStarts(SimTime now);
  // TransmissionTime(size + framing, rate_), remembered for the last size: a link mostly carries
  // one size (full segments one way, ACKs the other), and a 64-bit division per packet is not free.
  SimTime TxTime(Bytes size) {
    if (size != tx_time_size_) {
      tx_time_size_ = size;
      tx_time_ = TransmissionTime(size + framing_bytes_, rate_);
    }
    return tx_time_;
  }
  void QueueChanged(SimTime at);
  // Writes the queue's occupancy to the series (at series level only).
  void RecordQueue(SimTime at) const;

  Network& network_;
  Simulation& sim_;
  LinkId id_;
  std::string name_;
  Node& from_;
  Node& to_;
  BitsPerSec rate_;
  SimTime delay_;
  QueueLimit limit_;
  Bytes framing_bytes_ = 0;
  // The limits as bounds that hold for "no limit" too.
  int64_t max_waiting_packets_;
  Bytes max_waiting_bytes_;
  std::unique_ptr<LossModel> loss_;
  LinkCapture* capture_ = nullptr;  // Not owned; null when not captured.
  TraceSink* trace_;                // Not owned; may be null.
  bool record_queue_;               // The trace takes the queue series.

  RingBuffer<InFlight> fifo_;
  SimTime busy_until_;
  size_t started_ = 0;  // The packets at the front of fifo_ whose transmission has started.
  int32_t waiting_packets_ = 0;
  Bytes waiting_bytes_ = 0;
  Bytes tx_time_size_ = -1;
  SimTime tx_time_;

  // Time integral of the waiting count, for the mean queue length.
  SimTime last_change_;
  double queue_area_packet_ns_ = 0;

  SimTime busy_total_;  // Sum of transmission times of accepted packets.
  SimTime busy_within_end_;
  double mean_queue_packets_ = 0;
  LinkStats stats_;
  MemoryBudget::Registration memory_registration_;
};

}  // namespace tcb
