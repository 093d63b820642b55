// TCP/SPAND §6.2's experiment rounds: "Each experiment consists of 40 rounds. In each round every
// sender transfers one file with start time uniformly distributed around a central point by a time
// interval (denoted as jitter). Between each round there is 120 seconds of idle time."
// Every rounds item of a scenario follows one schedule: round r + 1 begins `idle` after the last
// transfer of round r, of any item, has arrived; each sender starts its transfer at a uniformly drawn
// offset in [0, jitter) from the round's beginning. Senders may reuse one connection for all their
// transfers, so that slow-start restart after idle (ssr/nssr, §6.2) applies between rounds.
#pragma once

#include <vector>

#include "core/rng.h"
#include "workload/application.h"

namespace tcb {

class RoundsApp;

class RoundSchedule final : public EventSource {
 public:
  RoundSchedule(Simulation& sim, int rounds, SimTime idle) : sim_(sim), rounds_(rounds), idle_(idle) {}

  void Join(RoundsApp* sender) { senders_.push_back(sender); }
  void Start() { sim_.events().Schedule(*this, SimTime::Zero()); }
  // A sender's transfer of the current round has arrived.
  void TransferDone();

  void OnEvent() override;  // Begins the next round.

 private:
  Simulation& sim_;
  int rounds_;
  SimTime idle_;
  std::vector<RoundsApp*> senders_;  // Not owned.
  int round_ = 0;                    // Rounds begun.
  size_t waiting_ = 0;               // Transfers of the current round not yet arrived.
};

class RoundsApp final : public Application, public TcpApplication {
 public:
  RoundsApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, Bytes bytes,
            SimTime jitter, bool reuse_connection, RoundSchedule& schedule, Rng rng);

  void Start() override { schedule_.Join(this); }  // The schedule starts the rounds.
  // Round `round` begins now: draws this sender's start within the jitter window. After the last
  // round's transfer the sender closes its connection.
  void BeginRound(int round, bool last);
  void OnEvent() override;  // Starts this round's transfer.

  void OnConnected(TcpEndpoint& endpoint) override;
  void OnDataReceived(TcpEndpoint& endpoint, Bytes total) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override;

 private:
  TcpConfig tcp_;
  Bytes bytes_;
  SimTime jitter_;
  bool reuse_;
  RoundSchedule& schedule_;
  Rng rng_;
  int round_ = 0;
  bool last_ = false;
  size_t transfer_ = 0;              // Record of the transfer in progress.
  TcpConnection* shared_ = nullptr;  // The reused connection. Not owned.
  Bytes requested_ = 0;              // Bytes asked of the reused connection so far.
};

}  // namespace tcb
