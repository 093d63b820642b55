// The outstanding-packet list of TCP-INT (Balakrishnan et al. §5) and E-TCP (§3.3).
#include "sharing/outstanding_list.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

namespace tcb {
namespace {

struct Owner {
  int id;
};

using List = OutstandingList<Owner>;

SimTime At(int ms) { return SimTime::FromMilliseconds(ms); }

// An ACK counts the packets sent before the one it echoes; a retransmission moves its packet to
// the tail with the count reset (E-TCP §3.3); the owners with a counted packet come once each.
TEST(OutstandingListTest, AckCountsEarlierPacketsAndARetransmissionMovesToTheTail) {
  Owner a{0}, b{1};
  List list;
  list.Sent(&a, 0, 100, 1, At(0), false);
  list.Sent(&b, 0, 100, 2, At(1), false);
  list.Sent(&a, 100, 100, 3, At(2), false);
  list.Sent(&b, 100, 100, 4, At(3), false);
  EXPECT_EQ(list.bytes(), 400);
  std::vector<Owner*> owners;
  list.CountLaterAck(4, At(10), &owners);
  EXPECT_EQ(owners, (std::vector<Owner*>{&a, &b}));
  std::vector<int> counts;
  for (const auto& e : list.entries()) counts.push_back(e.later_acks);
  EXPECT_EQ(counts, (std::vector<int>{1, 1, 1, 0}));
  EXPECT_EQ(list.entries().front().first_later_ack, At(10));

  list.Sent(&a, 0, 100, 5, At(20), true);
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
      list.Sent(o, snd_max[o], 100, ++uid, At(step), false);
      snd_max[o] += 100;
    } else if (op < 6 && snd_max[o] > 0) {
      const SeqNo seq = static_cast<SeqNo>(rng() % static_cast<uint64_t>(snd_max[o] / 100)) * 100;
      list.Sent(o, seq, 100, ++uid, At(step), true);
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
