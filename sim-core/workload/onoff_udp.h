// Pareto ON/OFF UDP source (TCP/SPAND §6.3.2, after ns-2's POO_Traffic): ON and OFF periods drawn
// from Pareto distributions of the given means and shape; during ON, packets at a constant rate.
#pragma once

#include "core/rng.h"
#include "workload/application.h"

namespace tcb {

class OnOffUdpApp final : public Application {
 public:
  OnOffUdpApp(WorkloadContext& context, AppPlacement placement, BitsPerSec rate, Bytes payload,
              SimTime mean_on, SimTime mean_off, double shape, Rng rng);

  void OnEvent() override;

 private:
  void SendPacket();

  Bytes payload_;
  double mean_on_s_;
  double mean_off_s_;
  double shape_;
  Rng rng_;
  SimTime interval_;
  FlowId flow_ = -1;
  UdpSink* sink_ = nullptr;         // The flow's, in the flow registry. Not owned.
  UdpFlowStats* stats_ = nullptr;  // Likewise.
  SimTime on_until_;  // End of the current ON period.
  bool on_ = false;
};

}  // namespace tcb
