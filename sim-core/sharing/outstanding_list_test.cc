// The outstanding-packet list of TCP-INT (Balakrishnan et al. §5) and E-TCP (§3.3).
#include "sharing/outstanding_list.h"

#include <gtest/gtest.h>

#include <list>
#include <map>
#include <random>
#include <utility>

namespace tcb {
namespace {

struct Owner {
  int id;
};

using List = OutstandingList<Owner>;

// The list as the papers describe it, each operation a walk over all of it in send order: what
// OutstandingList, with its index per owner, must do exactly.
class ReferenceList {
 public:
  void Sent(Owner* owner, SeqNo seq, Bytes bytes, uint64_t uid, SimTime now) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->owner == owner && it->seq == seq) {
        entries_.erase(it);
        break;
      }
    }
    entries_.push_back(List::Entry{owner, seq, bytes, uid, now, 0, SimTime::Zero()});
  }
  void CountLaterAck(uint64_t echo_uid, SimTime now) {
    for (auto& e : entries_) {
      if (e.uid >= echo_uid) break;
      if (e.later_acks++ == 0) e.first_later_ack = now;
    }
  }
  void Acked(Owner* owner, SeqNo ack) {
    entries_.remove_if([&](const List::Entry& e) { return e.owner == owner && e.seq + e.bytes <= ack; });
  }
  void RemoveOwner(Owner* owner) {
    entries_.remove_if([&](const List::Entry& e) { return e.owner == owner; });
  }
  void Clear() { entries_.clear(); }
  const std::list<List::Entry>& entries() const { return entries_; }

 private:
  std::list<List::Entry> entries_;
};

SimTime At(int ms) { return SimTime::FromMilliseconds(ms); }

// An ACK counts the packets sent before the one it echoes; a retransmission moves its packet to
// the tail with the count reset (E-TCP §3.3); the owners with a counted packet come once each.
TEST(OutstandingListTest, AckCountsEarlierPacketsAndARetransmissionMovesToTheTail) {
  Owner a{0}, b{1};
  List list;
  list.Sent(&a, 0, 100, 1, At(0));
  list.Sent(&b, 0, 100, 2, At(1));
  list.Sent(&a, 100, 100, 3, At(2));
  list.Sent(&b, 100, 100, 4, At(3));
  EXPECT_EQ(list.bytes(), 400);
  std::vector<Owner*> owners;
  list.CountLaterAck(4, At(10), &owners);
  EXPECT_EQ(owners, (std::vector<Owner*>{&a, &b}));
  std::vector<int> counts;
  for (const auto& e : list.entries()) counts.push_back(e.later_acks);
  EXPECT_EQ(counts, (std::vector<int>{1, 1, 1, 0}));
  EXPECT_EQ(list.entries().front().first_later_ack, At(10));

  list.Sent(&a, 0, 100, 5, At(20));
  EXPECT_EQ(list.bytes(), 400);
  EXPECT_EQ(list.entries().back().owner, &a);
  EXPECT_EQ(list.entries().back().seq, 0);
  EXPECT_EQ(list.entries().back().later_acks, 0);
  EXPECT_EQ(list.entries().front().owner, &b);

  list.Acked(&a, 200);
  EXPECT_EQ(list.bytes(), 200);
  for (const auto& e : list.entries()) EXPECT_EQ(e.owner, &b);
  list.RemoveOwner(&b);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.bytes(), 0);
}

// What lets TCP-INT's candidate search (sharing/tcp_int.cc) stop at the first entry with too few
// later ACKs: under any sequence of sends, retransmissions, ACKs and removals, uids increase and
// later_acks never increases along the list, and the byte count is the entries' sum.
TEST(OutstandingListTest, LaterAcksNeverIncreaseAlongTheList) {
  std::mt19937_64 rng(7);
  Owner owners[3] = {{0}, {1}, {2}};
  std::map<Owner*, SeqNo> snd_max;
  List list;
  uint64_t uid = 0;
  for (int step = 0; step < 20000; ++step) {
    Owner* o = &owners[rng() % 3];
    const int op = static_cast<int>(rng() % 10);
    if (op < 4) {
      list.Sent(o, snd_max[o], 100, ++uid, At(step));
      snd_max[o] += 100;
    } else if (op < 6 && snd_max[o] > 0) {
      const SeqNo seq = static_cast<SeqNo>(rng() % static_cast<uint64_t>(snd_max[o] / 100)) * 100;
      list.Sent(o, seq, 100, ++uid, At(step));
    } else if (op < 9 && uid > 0) {
      list.CountLaterAck(1 + rng() % uid, At(step));
      if (op == 8 && snd_max[o] > 0) list.Acked(o, static_cast<SeqNo>(rng() % static_cast<uint64_t>(snd_max[o])));
    } else if (rng() % 50 == 0) {
      list.RemoveOwner(o);
    }
    Bytes bytes = 0;
    const List::Entry* previous = nullptr;
    std::map<std::pair<Owner*, SeqNo>, int> listed;
    for (const auto& e : list.entries()) {
      if (previous != nullptr) {
        ASSERT_LT(previous->uid, e.uid) << "step " << step;
        ASSERT_GE(previous->later_acks, e.later_acks) << "step " << step;
      }
      const int times_listed = ++listed[{e.owner, e.seq}];
      ASSERT_EQ(times_listed, 1) << "a packet listed twice, step " << step;
      bytes += e.bytes;
      previous = &e;
    }
    ASSERT_EQ(bytes, list.bytes()) << "step " << step;
  }
}

}  // namespace
}  // namespace tcb

namespace tcb {
namespace {

// The index per owner changes nothing: under random sends of random sizes, retransmissions (some
// of another size than the packet they repeat, some of sequence numbers not listed, so that packets
// overlap and an ACK can cover a packet but not one of lower sequence number), ACKs at a packet's
// end or anywhere, removals and clears, the list holds the same entries in the same order as the
// walk over all of it would leave.
TEST(OutstandingListTest, SameEntriesAsAWalkOverTheWholeList) {
  for (const uint64_t seed : {1, 2, 3}) {
    std::mt19937_64 rng(seed);
    Owner owners[4] = {{0}, {1}, {2}, {3}};
    std::map<Owner*, SeqNo> snd_max;
    List list;
    ReferenceList reference;
    uint64_t uid = 0;
    for (int step = 0; step < 20000; ++step) {
      Owner* o = &owners[rng() % 4];
      const int op = static_cast<int>(rng() % 20);
      const SimTime now = At(step);
      if (op < 8) {
        const Bytes bytes = rng() % 2 == 0 ? 1 + static_cast<Bytes>(rng() % 150) : 100;
        list.Sent(o, snd_max[o], bytes, ++uid, now);
        reference.Sent(o, snd_max[o], bytes, uid, now);
        snd_max[o] += bytes;
      } else if (op < 12 && snd_max[o] > 0) {
        // A listed packet's sequence number, or (one time in three) any below the highest sent.
        SeqNo seq = static_cast<SeqNo>(rng() % static_cast<uint64_t>(snd_max[o]));
        std::vector<SeqNo> listed;
        for (const auto& e : reference.entries()) {
          if (e.owner == o) listed.push_back(e.seq);
        }
        if (!listed.empty() && rng() % 3 != 0) seq = listed[rng() % listed.size()];
        const Bytes bytes = rng() % 2 == 0 ? 1 + static_cast<Bytes>(rng() % 300) : 100;
        list.Sent(o, seq, bytes, ++uid, now);
        reference.Sent(o, seq, bytes, uid, now);
      } else if (op < 15 && uid > 0) {
        const uint64_t echo = 1 + rng() % uid;
        list.CountLaterAck(echo, now);
        reference.CountLaterAck(echo, now);
      } else if (op < 19) {
        // The end of one of the owner's packets (half the time), or anywhere up to the highest sent.
        SeqNo ack = static_cast<SeqNo>(rng() % static_cast<uint64_t>(snd_max[o] + 1));
        std::vector<SeqNo> ends;
        for (const auto& e : reference.entries()) {
          if (e.owner == o) ends.push_back(e.seq + e.bytes);
        }
        if (!ends.empty() && rng() % 2 == 0) ack = ends[rng() % ends.size()];
        list.Acked(o, ack);
        reference.Acked(o, ack);
      } else if (rng() % 10 == 0) {
        list.RemoveOwner(o);
        reference.RemoveOwner(o);
      } else if (rng() % 50 == 0) {
        list.Clear();
        reference.Clear();
      }
      ASSERT_EQ(list.entries().size(), reference.entries().size()) << "seed " << seed << ", step " << step;
      Bytes bytes = 0;
      auto expected = reference.entries().begin();
      for (const auto& e : list.entries()) {
        ASSERT_EQ(e.owner, expected->owner) << "seed " << seed << ", step " << step;
        ASSERT_EQ(e.seq, expected->seq) << "seed " << seed << ", step " << step;
        ASSERT_EQ(e.bytes, expected->bytes) << "seed " << seed << ", step " << step;
        ASSERT_EQ(e.uid, expected->uid) << "seed " << seed << ", step " << step;
        ASSERT_EQ(e.later_acks, expected->later_acks) << "seed " << seed << ", step " << step;
        ASSERT_EQ(e.first_later_ack, expected->first_later_ack) << "seed " << seed << ", step " << step;
        bytes += e.bytes;
        ++expected;
      }
      ASSERT_EQ(bytes, list.bytes()) << "seed " << seed << ", step " << step;
    }
  }
}

}  // namespace
}  // namespace tcb
