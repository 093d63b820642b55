// Stride scheduling (Waldspurger and Weihl), as E-TCP §3.4 uses it to share an ensemble's window:
// each client holds tickets, the quantum is one packet, and the client with the smallest pass value
// sends next; its pass then advances by its stride, 1/tickets. A client that preempts (E-TCP §4's
// html-pre: "an infinite number of tickets") goes before every non-preempting one.
#pragma once

#include <cstdint>
#include <vector>

namespace tcb {

template <class Client>
class StrideScheduler {
 public:
  // Adds a client (or updates it) with `tickets` > 0.
  void Add(Client* c, double tickets, bool preempts = false) {
    for (State& s : clients_) {
      if (s.client == c) {
        s.tickets = tickets;
        s.preempts = preempts;
        return;
      }
    }
    // A newcomer starts at the current virtual time, so it can neither catch up nor wait.
    clients_.push_back(State{c, tickets, preempts, global_pass_});
  }
  void Remove(Client* c) {
    for (auto it = clients_.begin(); it != clients_.end(); ++it) {
      if (it->client == c) {
        clients_.erase(it);
        return;
      }
    }
  }
  void SetTickets(Client* c, double tickets) {
    for (State& s : clients_) {
      if (s.client == c) s.tickets = tickets;
    }
  }

  // The client to send next among those for which `eligible(client)` holds, or nullptr. Ties go to
  // the client added first. `eligible` must not change the clients: it is asked only of a client
  // that would go before the best eligible one found so far (asking every client, a group of 50
  // connections spent most of its time in the question).
  template <class Eligible>
  Client* Next(Eligible eligible) {
    State* best = nullptr;
    for (State& s : clients_) {
      if (best != nullptr && !Precedes(s, *best)) continue;
      if (eligible(s.client)) best = &s;
    }
    if (best == nullptr) return nullptr;
    global_pass_ = Effective(*best);
    best->pass = global_pass_ + 1.0 / best->tickets;
    return best->client;
  }

 private:
  struct State {
    Client* client;
    double tickets;
    bool preempts;
    double pass;
  };
  // A client that was idle does not bank credit: its pass counts from the current virtual time.
  double Effective(const State& s) const { return s.pass < global_pass_ ? global_pass_ : s.pass; }
  // `a` goes before `b`: it preempts and `b` does not, or neither or both do and its pass is lower.
  bool Precedes(const State& a, const State& b) const {
    return a.preempts != b.preempts ? a.preempts : Effective(a) < Effective(b);
  }

  std::vector<State> clients_;
  double global_pass_ = 0;
};

}  // namespace tcb
