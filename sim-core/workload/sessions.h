// Transfers whose sizes and gaps are drawn from distributions, optionally grouped into sessions:
// Savorić §4.1's simplified WWW model (Table 1): sessions separated by exponential inter-session
// times, a lognormal number of pages per session, gamma reading times between pages and Pareto page
// sizes, each page one TCP connection. Without sessions it is one endless session (the model's
// "short TCP connections" with a fixed size, and the background senders that restart at once).
#pragma once

#include <optional>

#include "core/distributions.h"
#include "core/rng.h"
#include "workload/application.h"

namespace tcb {

struct SessionModel {
  Distribution bytes;                  // Size of each transfer.
  Distribution gap;                    // Seconds from a transfer's arrival to the next one's start.
  std::optional<Distribution> session_gap;        // Seconds between sessions.
  std::optional<Distribution> session_transfers;  // Transfers per session, rounded, at least 1.
};

class SessionsApp final : public Application, public TcpApplication {
 public:
  SessionsApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, SessionModel model, Rng rng)
      : Application(context, std::move(placement)), tcp_(tcp), model_(std::move(model)), rng_(rng) {}

  void OnEvent() override;  // Starts the next transfer.

  void OnConnected(TcpEndpoint& endpoint) override;
  void OnDataReceived(TcpEndpoint& endpoint, Bytes total) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override;

 private:
  TcpConfig tcp_;
  SessionModel model_;
  Rng rng_;
  int64_t started_ = 0;
  int64_t left_in_session_ = 0;  // 0: a session must begin.
  Bytes bytes_ = 0;              // Of the transfer in progress.
  size_t transfer_ = 0;
};

}  // namespace tcb
