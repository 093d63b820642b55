// The list of a group's outstanding packets in send order, with a counter per packet of ACKs for
// packets sent after it: TCP-INT's `pkts` with `later_acks` (Balakrishnan et al. §5) and E-TCP's
// skipped-ACK list (§3.3), which adopts it.
//
// Entries are in the order of their (latest) transmission, so their uids increase along the list,
// and an ACK counts a prefix of it (CountLaterAck): an entry has seen every ACK that a later entry
// has, and `later_acks` never increases along the list. A search for packets with enough later
// ACKs can stop at the first entry without.
#pragma once

#include <algorithm>
#include <cstdint>
#include <list>
#include <vector>

#include "core/time.h"
#include "core/units.h"

namespace tcb {

template <class Owner>
class OutstandingList {
 public:
  struct Entry {
    Owner* owner;  // Not owned.
    SeqNo seq;
    Bytes bytes;
    uint64_t uid;  // Of the packet's latest transmission.
    SimTime sent_at;
    int later_acks = 0;
    SimTime first_later_ack;  // When later_acks first grew (TCP-INT's delayed-ACK rule).
  };

  // Adds a transmission at the tail. A retransmission replaces the entry it repeats, so the packet
  // moves to the end with its counter reset (E-TCP §3.3). Only a retransmission (a sequence number
  // below the owner's highest sent) can repeat a listed entry, so new data is not looked for.
  void Sent(Owner* owner, SeqNo seq, Bytes bytes, uint64_t uid, SimTime now, bool retransmission) {
    if (retransmission) {
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->owner == owner && it->seq == seq) {
          bytes_ -= it->bytes;
          entries_.erase(it);
          break;
        }
      }
    }
    entries_.push_back(Entry{owner, seq, bytes, uid, now, 0, SimTime::Zero()});
    bytes_ += bytes;
  }

  // An ACK triggered by packet `echo_uid` arrived: every packet sent before it (and still listed)
  // counts one more later ACK. `owners`, when given, is set to the owners with at least one such
  // packet, each once, in list order.
  void CountLaterAck(uint64_t echo_uid, SimTime now, std::vector<Owner*>* owners = nullptr) {
    if (owners != nullptr) owners->clear();
    for (Entry& e : entries_) {
      if (e.uid >= echo_uid) break;  // Send order: the rest were sent later.
      if (e.later_acks++ == 0) e.first_later_ack = now;
      if (owners != nullptr && std::find(owners->begin(), owners->end(), e.owner) == owners->end()) {
        owners->push_back(e.owner);
      }
    }
  }

  // Removes `owner`'s packets below its cumulative ACK.
  void Acked(Owner* owner, SeqNo ack) {
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->owner == owner && it->seq + it->bytes <= ack) {
        bytes_ -= it->bytes;
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void RemoveOwner(Owner* owner) {
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->owner == owner) {
        bytes_ -= it->bytes;
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
  void Clear() {
    entries_.clear();
    bytes_ = 0;
  }

  std::list<Entry>& entries() { return entries_; }
  const std::list<Entry>& entries() const { return entries_; }
  Bytes bytes() const { return bytes_; }  // TCP-INT's `ownd`: bytes in the pipe.
  bool empty() const { return entries_.empty(); }

 private:
  std::list<Entry> entries_;
  Bytes bytes_ = 0;
};

}  // namespace tcb
