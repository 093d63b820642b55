// Invariants checked at the end of every run; a violation is a simulator bug and throws
// InvariantViolation (the CLI reports it as an internal error, exit code 1).
//  - Packet conservation: injected = delivered + dropped + in flight, and every packet in flight sits
//    in a link.
//  - Exactly-once, in-order delivery: per connection direction, bytes delivered in order never exceed
//    what was written and transmitted, acknowledged bytes never exceed delivered ones, and a fully
//    acknowledged stream was delivered completely.
// (Time never decreases: the event list refuses to schedule in the past.)
#pragma once

#include <stdexcept>

#include "net/network.h"
#include "workload/flow_registry.h"

namespace tcb {

class InvariantViolation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

void CheckRunInvariants(const Network& network, const FlowRegistry& flows);
// The delivery invariants of one connection (also checked before a finished one is destroyed).
void CheckConnectionInvariants(const FlowInfo& flow, const TcpConnection& connection);

}  // namespace tcb
