// One direction of a link: drop-tail FIFO, transmitter and pipe.
#include "net/link.h"

#include <limits>
#include <stdexcept>

#include "net/network.h"

namespace tcb {

Link::Link(Network& network, LinkId id, std::string name, Node& from, Node& to, BitsPerSec rate,
           SimTime delay, QueueLimit limit)
    : network_(network),
      sim_(network.sim()),
      id_(id),
      name_(std::move(name)),
      from_(from),
      to_(to),
      rate_(rate),
      delay_(delay),
      limit_(limit),
      max_waiting_packets_(limit.packets >= 0 ? limit.packets : std::numeric_limits<int64_t>::max()),
      max_waiting_bytes_(limit.bytes >= 0 ? limit.bytes : std::numeric_limits<Bytes>::max()),
      trace_(network.trace()),
      record_queue_(trace_ != nullptr && trace_->series()) {
  fifo_.SetBudget(&sim_.memory());
  memory_registration_ = sim_.memory().Register(this);
}

Bytes Link::MemoryBytes() const {
  return static_cast<Bytes>(fifo_.size()) * (static_cast<Bytes>(sizeof(InFlight)) + Network::kBytesPerPacket);
}

std::string Link::DescribeMemory() const {
  return "link " + name_ + " holds " + std::to_string(fifo_.size()) +
         " packets (queued or in transit; its queue limit is " +
         (limit_.packets >= 0 ? std::to_string(limit_.packets) + " packets"
          : limit_.bytes >= 0 ? std::to_string(limit_.bytes) + " bytes"
                              : std::string("none")) +
         ")";
}

void Link::QueueChanged(SimTime at) {
  queue_area_packet_ns_ += static_cast<double>(waiting_packets_) *
                           static_cast<double>((at - last_change_).ns());
  last_change_ = at;
}

void Link::AdvanceStarts(SimTime now) {
  while (started_ < fifo_.size()) {
    const InFlight& f = fifo_[started_];
    if (f.tx_start > now) break;
    // It waited (see InFlight) and now leaves the queue for the transmitter.
    QueueChanged(f.tx_start);
    --waiting_packets_;
    waiting_bytes_ -= f.size;
    RecordQueue(f.tx_start);
    ++started_;
  }
}

void Link::Enqueue(Packet& packet, NodeId dst, Bytes size) {
  const SimTime now = sim_.Now();
  AdvanceTo(now);
  ++stats_.packets_offered;

  const bool must_wait = busy_until_ > now;
  const SimTime tx_start = must_wait ? busy_until_ : now;
  // With no limit of a kind its bound is the largest value, which a count never exceeds.
  if (must_wait && (waiting_packets_ >= max_waiting_packets_ || waiting_bytes_ + size > max_waiting_bytes_)) {
    ++stats_.queue_drops;
    network_.Drop(packet, id_, PacketEvent::kDrop);
    return;
  }

  const SimTime tx_time = TxTime(size);
  busy_until_ = tx_start + tx_time;
  busy_total_ += tx_time;
  const bool lost = loss_ != nullptr && loss_->Lose(packet);
  InFlight& f = fifo_.emplace_back();
  f.tx_start = tx_start;
  f.arrival = busy_until_ + delay_;
  f.packet = &packet;
  f.size = static_cast<int32_t>(size);
  f.dst = lost ? kLostInTransit : dst;
  ++stats_.packets_accepted;
  stats_.bytes_accepted += size;

  if (must_wait) {
    QueueChanged(now);
    ++waiting_packets_;
    waiting_bytes_ += size;
    if (waiting_packets_ > stats_.max_queue_packets) stats_.max_queue_packets = waiting_packets_;
    if (waiting_bytes_ > stats_.max_queue_bytes) stats_.max_queue_bytes = waiting_bytes_;
    network_.Queued(packet, waiting_packets_);
    RecordQueue(now);
  } else {
    ++started_;
  }
  if (capture_ != nullptr) capture_->Add(tx_start, packet);
  if (fifo_.size() == 1) sim_.events().Schedule(*this, f.arrival);
}

void Link::OnEvent() {
  // The head has finished transmitting: account every start up to now before it leaves the FIFO.
  AdvanceTo(sim_.Now());
  if (started_ == 0) {
    throw std::logic_error("link " + name_ + ": a packet left before its transmission was accounted");
  }
  const InFlight head = fifo_.front();
  fifo_.pop_front();
  --started_;
  // A packet arrives only after its transmission ended, so it has left the queue by now.
  if (!fifo_.empty()) {
    sim_.events().Schedule(*this, fifo_.front().arrival);
    // The next arrival's packet was last touched when it was sent, thousands of packets ago; at its
    // destination its header is read first thing at that event. (A hint only: no effect on any
    // result.)
    __builtin_prefetch(fifo_.front().packet);
  }
  if (head.dst == kLostInTransit) {
    ++stats_.loss_drops;
    network_.Drop(*head.packet, id_, PacketEvent::kLoss);
    return;
  }
  ++stats_.packets_delivered;
  stats_.bytes_delivered += head.size;
  to_.Arrive(*head.packet, head.dst, head.size);
}

void Link::Finish(SimTime end) {
  AdvanceTo(end);
  QueueChanged(end);
  mean_queue_packets_ = end.ns() > 0 ? queue_area_packet_ns_ / static_cast<double>(end.ns()) : 0;
  SimTime overshoot;
  for (size_t i = 0; i < fifo_.size(); ++i) {
    const InFlight& f = fifo_[i];
    const SimTime tx_end = f.arrival - delay_;
    if (tx_end > end) overshoot += tx_end - Max(f.tx_start, end);
  }
  busy_within_end_ = busy_total_ - overshoot;
}

void Link::RecordQueue(SimTime at) const {
  if (!record_queue_) return;
  trace_->Record(QueueSeriesRow{at.ns(), id_, waiting_packets_, waiting_bytes_});
}

}  // namespace tcb
