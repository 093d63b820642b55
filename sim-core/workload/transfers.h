// Transfers of a fixed size at given times: each on a new connection, or all on one reused
// connection so that slow-start restart after idle applies between them (TCP/SPAND §6.2's
// ssr/nssr variants send successive files on one ns-2 agent).
#pragma once

#include <vector>

#include "workload/application.h"

namespace tcb {

class TransfersApp final : public Application, public TcpApplication {
 public:
  // `starts` are absolute times, any order.
  TransfersApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, Bytes bytes,
               std::vector<SimTime> starts, bool reuse_connection);

  void Start() override;
  void OnEvent() override;

  void OnConnected(TcpEndpoint& endpoint) override;
  void OnDataReceived(TcpEndpoint& endpoint, Bytes total) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override;

 private:
  struct Pending {
    size_t transfer;     // Index into the registry's transfers.
    Bytes received_end;  // The transfer is complete when the receiver has this many bytes.
  };

  TcpConfig tcp_;
  Bytes bytes_;
  std::vector<SimTime> starts_;  // Sorted.
  bool reuse_;
  size_t next_ = 0;
  TcpConnection* shared_ = nullptr;  // The reused connection. Not owned.
  Bytes requested_ = 0;              // Bytes asked of the reused connection so far.
  std::vector<Pending> pending_;     // Reused connection: transfers in order.
  size_t next_pending_ = 0;          // First of pending_ not yet complete.
  // One connection per transfer: connection flow id -> transfer index.
  std::vector<std::pair<FlowId, size_t>> by_flow_;
};

}  // namespace tcb
