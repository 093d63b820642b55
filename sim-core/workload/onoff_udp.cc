// Pareto ON/OFF UDP source.
#include "workload/onoff_udp.h"

#include "core/distributions.h"

namespace tcb {

OnOffUdpApp::OnOffUdpApp(WorkloadContext& context, AppPlacement placement, BitsPerSec rate,
                         Bytes payload, SimTime mean_on, SimTime mean_off, double shape, Rng rng)
    : Application(context, std::move(placement)),
      payload_(payload),
      mean_on_s_(mean_on.seconds()),
      mean_off_s_(mean_off.seconds()),
      shape_(shape),
      rng_(rng),
      interval_(TransmissionTime(payload + kIpHeaderBytes + kUdpHeaderBytes, rate)) {}

namespace {
// Heavy tails can draw periods far beyond any run (at most 10^6 s); clamp them so that times stay
// representable.
SimTime Period(double seconds) { return SimTime::FromSeconds(seconds < 1e7 ? seconds : 1e7); }
}  // namespace

void OnOffUdpApp::OnEvent() {
  const SimTime now = context_.sim.Now();
  if (flow_ < 0) {
    flow_ = context_.flows.AddUdp(placement_.flow_name, placement_.item, placement_.from,
                                  placement_.to);
    sink_ = &context_.flows.udp_sink(flow_);
    stats_ = &context_.flows.udp_stats(flow_);
  }
  if (now >= placement_.stop) {
    context_.flows.EndFlow(flow_);
    return;
  }
  if (!on_) {
    // A new ON period; at least one packet is sent in it.
    on_ = true;
    const double on_s = Pareto(rng_, shape_, ParetoScaleForMean(mean_on_s_, shape_));
    on_until_ = now + Period(on_s);
  }
  SendPacket();
  const SimTime next = now + interval_;
  if (next < on_until_) {
    context_.sim.events().Schedule(*this, next);
    return;
  }
  on_ = false;
  const double off_s = Pareto(rng_, shape_, ParetoScaleForMean(mean_off_s_, shape_));
  context_.sim.events().Schedule(*this, Max(next, on_until_) + Period(off_s));
}

void OnOffUdpApp::SendPacket() {
  Network& net = context_.network;
  Packet& p = net.NewPacket();
  p.flow = flow_;
  p.src = placement_.from;
  p.dst = placement_.to;
  p.endpoint = sink_;
  p.protocol = Protocol::kUdp;
  p.payload = payload_;
  p.size = payload_ + kIpHeaderBytes + kUdpHeaderBytes;
  ++stats_->packets_sent;
  stats_->payload_sent += payload_;
  TraceSink* trace = net.trace();
  if (trace != nullptr && trace->packets()) {
    trace->Record(TraceRow(context_.sim.Now(), PacketEvent::kSend, p));
  }
  net.Inject(p);
}

}  // namespace tcb
