// A TCP connection.
#include "tcp/tcp_connection.h"

#include "tcp/connection_control.h"

namespace tcb {

std::unique_ptr<CongestionControl> MakeIndependentController(const TcpConfig& config,
                                                             SenderHandle& sender,
                                                             const ConnectionContext&) {
  return std::make_unique<ConnectionControl>(config, sender);
}

}  // namespace tcb
