// A TCP connection.
#include "tcp/tcp_connection.h"

#include "tcp/reno.h"

namespace tcb {

std::unique_ptr<CongestionControl> MakeIndependentController(const TcpConfig& config,
                                                             SenderHandle& sender,
                                                             const ConnectionContext&) {
  return std::make_unique<RenoControl>(config, sender);
}

}  // namespace tcb
