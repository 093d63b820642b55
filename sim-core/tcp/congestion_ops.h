// Window rules as functions over a Tcb, in the manner of ns-3's TcpCongestionOps over
// TcpSocketState: how cwnd grows on an ACK and what ssthresh becomes after a congestion event. Loss
// detection and recovery are not here; they belong to whoever owns the Tcb (a connection's
// controller, or a sharing scheme's group), so that a group's window can follow any of these rules.
#pragma once

#include <memory>
#include <string_view>

#include "core/time.h"
#include "core/units.h"
#include "tcp/tcb.h"
#include "tcp/tcp_config.h"

namespace tcb {

class CongestionOps {
 public:
  virtual ~CongestionOps() = default;

  virtual std::string_view name() const = 0;
  // Grows tcb.cwnd for `acked` newly acknowledged bytes. Called outside loss recovery, after the
  // caller's own conditions (e.g. RFC 7661's window validation) allow growth; the caller applies
  // its cap (the receive window) afterwards.
  virtual void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) = 0;
  // The slow-start threshold after a congestion event (a loss found by fast retransmit, or a
  // retransmission timeout) with `flight` bytes outstanding. A rule may remember the event (e.g.
  // the window at which it happened).
  virtual Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) = 0;
};

// RFC 5681: slow start and congestion avoidance per ACK, ssthresh = max(FlightSize / 2, 2 * SMSS).
class RenoOps final : public CongestionOps {
 public:
  std::string_view name() const override { return "reno"; }
  void IncreaseWindow(Tcb& tcb, SimTime now, Bytes acked) override;
  Bytes SsThresh(Tcb& tcb, SimTime now, Bytes flight) override;
};

// The window rules of a connection with these options (every flavor today follows RFC 5681's).
std::unique_ptr<CongestionOps> MakeCongestionOps(const TcpConfig& config);

// RFC 7661 §4.3: the window counts as in use when an ACK finds at most one segment of it unused
// (`flight_before` is what was outstanding before the ACK); only then does it grow, with window
// validation on.
inline bool WindowInUse(const Tcb& tcb, Bytes flight_before) { return flight_before + tcb.mss >= tcb.cwnd; }

}  // namespace tcb
