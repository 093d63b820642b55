// Stride scheduling as E-TCP §3.4 uses it.
#include "sharing/stride_scheduler.h"

#include <gtest/gtest.h>

#include <map>

namespace tcb {
namespace {

struct C {
  bool ready = true;
};

std::map<C*, int> Schedule(StrideScheduler<C>& s, int quanta) {
  std::map<C*, int> got;
  for (int i = 0; i < quanta; ++i) {
    C* c = s.Next([](C* x) { return x->ready; });
    if (c != nullptr) ++got[c];
  }
  return got;
}

TEST(StrideSchedulerTest, SharesInProportionToTickets) {
  StrideScheduler<C> s;
  C a, b, c;
  s.Add(&a, 12);
  s.Add(&b, 6);
  s.Add(&c, 3);
  auto got = Schedule(s, 2100);
  EXPECT_EQ(got[&a], 1200);
  EXPECT_EQ(got[&b], 600);
  EXPECT_EQ(got[&c], 300);
}

TEST(StrideSchedulerTest, EqualTicketsAlternateOnePacketAtATime) {
  StrideScheduler<C> s;
  C a, b;
  s.Add(&a, 1);
  s.Add(&b, 1);
  std::vector<C*> order;
  for (int i = 0; i < 6; ++i) order.push_back(s.Next([](C*) { return true; }));
  EXPECT_EQ(order, (std::vector<C*>{&a, &b, &a, &b, &a, &b}));
}

TEST(StrideSchedulerTest, PreemptingClientsGoFirstAndIdleOnesBankNoCredit) {
  StrideScheduler<C> s;
  C html, image;
  s.Add(&html, 12, /*preempts=*/true);
  s.Add(&image, 3);
  auto got = Schedule(s, 50);
  EXPECT_EQ(got[&html], 50);  // E-TCP §4 html-pre: image starves while HTML is ready.
  EXPECT_EQ(got[&image], 0);
  html.ready = false;
  EXPECT_EQ(Schedule(s, 10)[&image], 10);

  StrideScheduler<C> t;
  C busy, idle;
  t.Add(&busy, 1);
  t.Add(&idle, 1);
  idle.ready = false;
  Schedule(t, 100);
  idle.ready = true;
  auto after = Schedule(t, 10);
  EXPECT_EQ(after[&busy], 5);  // The returning client shares from now on instead of catching up.
  EXPECT_EQ(after[&idle], 5);
}

}  // namespace
}  // namespace tcb
