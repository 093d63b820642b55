// End-of-run invariants.
#include "metrics/invariants.h"

#include <string>

namespace tcb {

namespace {

void CheckDirection(const FlowInfo& flow, const TcpEndpoint& sender, const TcpEndpoint& receiver) {
  // Spelled out only for a violation: this runs for every connection that closes.
  const auto where = [&] {
    return "flow \"" + flow.name + "\" (" + (sender.initiator() ? "initiator" : "responder") + " to peer): ";
  };
  const Bytes written = sender.bytes_written();
  const Bytes delivered = receiver.bytes_received();
  const Bytes acked = sender.bytes_acked();
  if (delivered > written) {
    throw InvariantViolation(where() + std::to_string(delivered) + " bytes delivered but " +
                             std::to_string(written) + " written");
  }
  if (acked > delivered) {
    throw InvariantViolation(where() + std::to_string(acked) + " bytes acknowledged but " +
                             std::to_string(delivered) + " delivered");
  }
  if (acked == written && delivered != written) {
    throw InvariantViolation(where() + "all " + std::to_string(written) +
                             " bytes acknowledged but " + std::to_string(delivered) + " delivered");
  }
}

}  // namespace

void CheckRunInvariants(const Network& network, const FlowRegistry& flows) {
  const NetworkCounters& c = network.counters();
  const int64_t live = static_cast<int64_t>(network.packets_live());
  if (c.injected != c.delivered + c.dropped + live) {
    throw InvariantViolation("packets not conserved: injected " + std::to_string(c.injected) +
                             " != delivered " + std::to_string(c.delivered) + " + dropped " +
                             std::to_string(c.dropped) + " + in flight " + std::to_string(live));
  }
  int64_t in_links = 0;
  for (size_t i = 0; i < network.link_count(); ++i) {
    in_links += static_cast<int64_t>(network.link(static_cast<LinkId>(i)).in_flight());
  }
  if (in_links != live) {
    throw InvariantViolation("packets in flight (" + std::to_string(live) +
                             ") are not all in links (" + std::to_string(in_links) + ")");
  }
  // Reclaimed connections were checked when they were destroyed.
  flows.ForEachConnection(CheckConnectionInvariants);
}

void CheckConnectionInvariants(const FlowInfo& flow, const TcpConnection& connection) {
  CheckDirection(flow, connection.initiator(), connection.responder());
  CheckDirection(flow, connection.responder(), connection.initiator());
}

}  // namespace tcb
