// Stride scheduling as E-TCP §3.4 uses it.
#include "sharing/stride_scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

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

// Stride scheduling as Waldspurger and Weihl describe it, every client asked whether it is eligible:
// what StrideScheduler, which asks only the clients that could go first, must choose exactly.
class ReferenceScheduler {
 public:
  void Add(C* c, double tickets, bool preempts) {
    for (State& s : clients_) {
      if (s.client == c) {
        s.tickets = tickets;
        s.preempts = preempts;
        return;
      }
    }
    clients_.push_back(State{c, tickets, preempts, global_pass_});
  }
  void Remove(C* c) {
    for (auto it = clients_.begin(); it != clients_.end(); ++it) {
      if (it->client == c) {
        clients_.erase(it);
        return;
      }
    }
  }
  void SetTickets(C* c, double tickets) {
    for (State& s : clients_) {
      if (s.client == c) s.tickets = tickets;
    }
  }
  C* Next() {
    auto effective = [this](const State& s) { return s.pass < global_pass_ ? global_pass_ : s.pass; };
    State* best = nullptr;
    for (State& s : clients_) {
      if (!s.client->ready) continue;
      if (best == nullptr || (s.preempts && !best->preempts) ||
          (s.preempts == best->preempts && effective(s) < effective(*best))) {
        best = &s;
      }
    }
    if (best == nullptr) return nullptr;
    global_pass_ = effective(*best);
    best->pass = global_pass_ + 1.0 / best->tickets;
    return best->client;
  }

 private:
  struct State {
    C* client;
    double tickets;
    bool preempts;
    double pass;
  };
  std::vector<State> clients_;
  double global_pass_ = 0;
};

// Under random tickets (some equal, so that passes tie), preempting clients, clients going idle and
// back, ticket changes, and clients leaving and joining, the scheduler picks the client the
// reference picks at every quantum.
TEST(StrideSchedulerTest, PicksWhatAskingEveryClientPicks) {
  std::mt19937_64 rng(11);
  std::vector<C> clients(50);
  StrideScheduler<C> s;
  ReferenceScheduler reference;
  std::vector<bool> joined(clients.size(), false);
  int asked = 0;
  for (int step = 0; step < 100000; ++step) {
    C* c = &clients[rng() % clients.size()];
    const size_t i = static_cast<size_t>(c - clients.data());
    const int op = static_cast<int>(rng() % 100);
    if (op < 3 || !joined[i]) {
      const double tickets = static_cast<double>(1 + rng() % 4);
      const bool preempts = rng() % 25 == 0;
      s.Add(c, tickets, preempts);
      reference.Add(c, tickets, preempts);
      joined[i] = true;
    } else if (op < 4) {
      s.Remove(c);
      reference.Remove(c);
      joined[i] = false;
    } else if (op < 6) {
      const double tickets = static_cast<double>(1 + rng() % 4);
      s.SetTickets(c, tickets);
      reference.SetTickets(c, tickets);
    } else if (op < 20) {
      c->ready = !c->ready;
    }
    C* expected = reference.Next();
    C* got = s.Next([&asked](C* x) {
      ++asked;
      return x->ready;
    });
    ASSERT_EQ(got, expected) << "step " << step;
  }
  // With 50 clients, far fewer are asked than there are clients per quantum.
  EXPECT_LT(asked, 100000 * 10);
}

}  // namespace
}  // namespace tcb
