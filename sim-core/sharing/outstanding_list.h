// The list of a group's outstanding packets in send order, with a counter per packet of ACKs for
// packets sent after it: TCP-INT's `pkts` with `later_acks` (Balakrishnan et al. §5) and E-TCP's
// skipped-ACK list (§3.3), which adopts it.
//
// Entries are in the order of their (latest) transmission, so their uids increase along the list,
// and an ACK counts a prefix of it (CountLaterAck): an entry has seen every ACK that a later entry
// has, and `later_acks` never increases along the list. A search for packets with enough later
// ACKs can stop at the first entry without.
//
// Beside the list, each owner's entries are indexed by sequence number, so that a cumulative ACK
// removes its owner's acknowledged packets (Acked) and a retransmission finds the entry it repeats
// without walking the other connections' packets: the list holds the whole group's window, and with
// 50 connections sharing a TCP-INT host's window that walk, on every ACK, took most of the run.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
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

  // Adds a transmission at the tail. A retransmission (a sequence number already listed for the
  // owner) replaces the entry it repeats, so the packet moves to the end with its counter reset
  // (E-TCP §3.3).
  void Sent(Owner* owner, SeqNo seq, Bytes bytes, uint64_t uid, SimTime now) {
    std::deque<Iterator>& by_seq = SlotOf(owner).by_seq;
    entries_.push_back(Entry{owner, seq, bytes, uid, now, 0, SimTime::Zero()});
    bytes_ += bytes;
    const Iterator added = std::prev(entries_.end());
    if (by_seq.empty() || by_seq.back()->seq < seq) {  // New data.
      by_seq.push_back(added);
      return;
    }
    const auto at = std::lower_bound(by_seq.begin(), by_seq.end(), seq, SeqBelow);
    if (at != by_seq.end() && (*at)->seq == seq) {
      bytes_ -= (*at)->bytes;
      entries_.erase(*at);
      *at = added;  // Same sequence number, same place in the index.
    } else {
      by_seq.insert(at, added);
    }
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

  // Removes `owner`'s packets below its cumulative ACK: every entry with seq + bytes <= ack. Only
  // entries with seq <= ack can qualify, and they are the first of the owner's index.
  void Acked(Owner* owner, SeqNo ack) {
    const auto slot = FindSlot(owner);
    if (slot == slots_.end()) return;
    std::deque<Iterator>& by_seq = slot->by_seq;
    size_t kept = 0;  // Entries at the front of the index that stay (partly acknowledged).
    while (kept < by_seq.size() && by_seq[kept]->seq <= ack) {
      const Iterator it = by_seq[kept];
      if (it->seq + it->bytes > ack) {
        ++kept;
        continue;
      }
      bytes_ -= it->bytes;
      entries_.erase(it);
      if (kept == 0) {
        by_seq.pop_front();
      } else {
        by_seq.erase(by_seq.begin() + static_cast<std::ptrdiff_t>(kept));
      }
    }
  }

  void RemoveOwner(Owner* owner) {
    const auto slot = FindSlot(owner);
    if (slot == slots_.end()) return;
    for (const Iterator it : slot->by_seq) {
      bytes_ -= it->bytes;
      entries_.erase(it);
    }
    slots_.erase(slot);
  }
  void Clear() {
    entries_.clear();
    slots_.clear();
    bytes_ = 0;
  }

  const std::list<Entry>& entries() const { return entries_; }
  Bytes bytes() const { return bytes_; }  // TCP-INT's `ownd`: bytes in the pipe.
  bool empty() const { return entries_.empty(); }

 private:
  using Iterator = typename std::list<Entry>::iterator;
  // An owner's entries in order of sequence number (one entry per sequence number).
  struct Slot {
    Owner* owner;
    std::deque<Iterator> by_seq;
  };

  static bool SeqBelow(const Iterator& e, SeqNo seq) { return e->seq < seq; }

  // Groups have from a few members to some dozens: a linear search of a short vector, no hashing.
  typename std::vector<Slot>::iterator FindSlot(const Owner* owner) {
    return std::find_if(slots_.begin(), slots_.end(), [owner](const Slot& s) { return s.owner == owner; });
  }
  Slot& SlotOf(Owner* owner) {
    const auto slot = FindSlot(owner);
    return slot != slots_.end() ? *slot : slots_.emplace_back(Slot{owner, {}});
  }

  std::list<Entry> entries_;
  std::vector<Slot> slots_;  // Owners with entries listed (or listed since their last removal).
  Bytes bytes_ = 0;
};

}  // namespace tcb
