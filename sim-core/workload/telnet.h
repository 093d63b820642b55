// Telnet-like interactive traffic: small writes at exponentially distributed intervals on one
// connection (ns-2's Telnet application with a fixed mean interval; TCP/SPAND §6.3.1 adds five such
// sessions "to avoid deterministic behavior").
#pragma once

#include "core/rng.h"
#include "workload/application.h"

namespace tcb {

class TelnetApp final : public Application, public TcpApplication {
 public:
  TelnetApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, SimTime mean_interval,
            Bytes write_bytes, Rng rng)
      : Application(context, std::move(placement)),
        tcp_(tcp),
        mean_interval_(mean_interval),
        write_bytes_(write_bytes),
        rng_(rng) {}

  void OnEvent() override;
  void OnConnected(TcpEndpoint& endpoint) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override;
  void OnClosed(TcpEndpoint& endpoint) override;

 private:
  void ScheduleNextWrite();

  TcpConfig tcp_;
  SimTime mean_interval_;
  Bytes write_bytes_;
  Rng rng_;
  TcpConnection* connection_ = nullptr;  // Not owned.
};

}  // namespace tcb
