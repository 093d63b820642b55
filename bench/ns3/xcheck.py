#!/usr/bin/env python3
"""One row of the fidelity comparison (`npm run xcheck`) in ns-3: a dumbbell (bench/ns3/dumbbell.py),
TCP bulk flows, and per flow its completion time, goodput, retransmissions, timeouts and congestion
window over time.

    "$PY" bench/ns3/xcheck.py SPEC.json RESULT.json

SPEC.json is written by bench/xcheck/matrix.mjs (ns3Spec) from the row's one description, so the
tcpsim scenario and this run cannot drift apart:

    {"name": "...", "durationS": 30, "seed": 1,
     "pairs": 1,
     "bottleneck": {"rate": "1.6Mbps", "delay": "50ms", "queuePackets": 10},
     "access":     {"rate": "100Mbps", "delay": "1ms",  "queuePackets": 1000},
     "flows": [{"startS": 0, "bytes": 100000}],          # bytes null: without end
     "socketType": "TcpNewReno", "recoveryType": "TcpClassicRecovery",
     "defaults": [["ns3::TcpSocket::SegmentSize", "1460"], ...]}   # Config::SetDefault, as strings

RESULT.json gets {"simulator", "flows": [{"startS", "endS", "bytes", "completionTimeS",
"goodputBps", "retransmissions", "timeouts", "cwnd": {"timeNs": [...], "cwndBytes": [...]},
"ssthresh": {"timeNs", "ssthreshBytes"}, "congState": {"timeNs", "state", "names"}}],
"drops", "events", "wallSeconds", "setupSeconds", "importSeconds"}. The definitions follow
tcpsim's summary (sim-core/metrics/summary.cc): a flow starts when its application opens the
connection and ends when the receiver has the last byte; goodput is bytes received over that span
(or over the rest of the run for a flow without end).

Everything that runs during Simulator::Run() is C++ (cppyy.cppdef below): the trace callbacks, and
the hook that attaches them to each sender's socket once its application has created it.
"""

import json
import sys
import time

import dumbbell

CPP = r"""
#include <string>
#include <vector>

namespace tcblab {
using namespace ns3;

// Counts retransmission timeouts. TcpSocketBase::ReTxTimeout is the only place that raises
// CA_EVENT_LOSS (src/internet/model/tcp-socket-base.cc), once per expiry, also when the state is
// CA_LOSS already (where the CongState trace would not fire again).
struct TimeoutCounter {
  uint64_t timeouts = 0;
  virtual ~TimeoutCounter() = default;
};

// The algorithm `Algo` unchanged, plus the timeout counter: every call goes to Algo.
template <class Algo>
class Counted : public Algo, public TimeoutCounter {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("tcblab::Counted" + Algo::GetTypeId().GetName().substr(5))
                            .template SetParent<Algo>()
                            .SetGroupName("Internet")
                            .template AddConstructor<Counted<Algo>>();
    return tid;
  }
  Counted() = default;
  Counted(const Counted& other) = default;
  void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override {
    if (event == TcpSocketState::CA_EVENT_LOSS) ++timeouts;
    Algo::CwndEvent(tcb, event);
  }
  Ptr<TcpCongestionOps> Fork() override { return CopyObject<Counted<Algo>>(this); }
};

TypeId CountedTypeId(const std::string& algo) {
  if (algo == "TcpNewReno") return Counted<TcpNewReno>::GetTypeId();
  if (algo == "TcpCubic") return Counted<TcpCubic>::GetTypeId();
  if (algo == "TcpBbr") return Counted<TcpBbr>::GetTypeId();
  NS_FATAL_ERROR("bench/ns3/xcheck.py: no counting wrapper for " << algo);
}

struct FlowProbe {
  uint64_t target = 0;  // Bytes of a finite transfer; 0 for a flow without end.
  uint64_t rx = 0;
  int64_t done_ns = -1;
  uint64_t retransmissions = 0;
  Ptr<TcpCongestionOps> ops;  // The sender's algorithm, to read its timeout count at the end.
  std::vector<int64_t> cwnd_t;
  std::vector<uint32_t> cwnd;
  std::vector<int64_t> ssthresh_t;
  std::vector<uint32_t> ssthresh;
  std::vector<int64_t> state_t;  // TcpSocketState::TcpCongState_t changes.
  std::vector<int32_t> state;
};
std::vector<FlowProbe> g_flows;
uint64_t g_drops = 0;

void OnCwnd(size_t flow, uint32_t, uint32_t now) {
  g_flows[flow].cwnd_t.push_back(Simulator::Now().GetNanoSeconds());
  g_flows[flow].cwnd.push_back(now);
}
void OnSsthresh(size_t flow, uint32_t, uint32_t now) {
  g_flows[flow].ssthresh_t.push_back(Simulator::Now().GetNanoSeconds());
  g_flows[flow].ssthresh.push_back(now);
}
void OnCongState(size_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
  g_flows[flow].state_t.push_back(Simulator::Now().GetNanoSeconds());
  g_flows[flow].state.push_back(static_cast<int32_t>(now));
}
void OnRx(size_t flow, Ptr<const Packet> p, const Address&) {
  FlowProbe& f = g_flows[flow];
  f.rx += p->GetSize();
  if (f.target > 0 && f.done_ns < 0 && f.rx >= f.target) f.done_ns = Simulator::Now().GetNanoSeconds();
}
void OnRetransmission(size_t flow, Ptr<const Packet>, const TcpHeader&, const Address&, const Address&,
                      Ptr<const TcpSocketBase>) {
  ++g_flows[flow].retransmissions;
}
void OnDrop(Ptr<const Packet>) { ++g_drops; }

// Runs once the application has created its socket (StartApplication), before any data is sent.
void Hook(Ptr<BulkSendApplication> app, size_t flow) {
  Ptr<TcpSocketBase> socket = DynamicCast<TcpSocketBase>(app->GetSocket());
  NS_ABORT_MSG_IF(!socket, "flow " << flow << ": no TCP socket at its start");
  socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, flow));
  socket->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&OnSsthresh, flow));
  socket->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, flow));
  PointerValue ops;
  socket->GetAttribute("CongestionOps", ops);
  g_flows[flow].ops = ops.Get<TcpCongestionOps>();
}

void AddFlow(Ptr<Application> sender, Ptr<Application> sink, double start_s, uint64_t target) {
  const size_t flow = g_flows.size();
  g_flows.emplace_back();
  g_flows[flow].target = target;
  Ptr<BulkSendApplication> app = DynamicCast<BulkSendApplication>(sender);
  app->TraceConnectWithoutContext("TcpRetransmission", MakeBoundCallback(&OnRetransmission, flow));
  sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, flow));
  // Application::StartApplication is scheduled when the node initialises (time 0, during Run), so
  // an event scheduled now for the start time would run before it; one nanosecond later it runs
  // after the socket exists and long before the SYN-ACK sets the first window.
  Simulator::Schedule(Seconds(start_s) + NanoSeconds(1), &Hook, app, flow);
}

void ConnectDropCounter() {
  Config::ConnectWithoutContext("/NodeList/*/$ns3::TrafficControlLayer/TcDrop", MakeCallback(&OnDrop));
}

uint64_t Timeouts(size_t flow) {
  const Ptr<TcpCongestionOps>& ops = g_flows[flow].ops;
  if (!ops) return 0;
  auto* counter = dynamic_cast<TimeoutCounter*>(PeekPointer(ops));
  NS_ABORT_MSG_IF(counter == nullptr, "flow " << flow << ": the socket's algorithm is not counted");
  return counter->timeouts;
}

// "t1 v1 t2 v2 ...": one string per trace, so that Python reads a trace in one call.
template <class T>
std::string Pairs(const std::vector<int64_t>& t, const std::vector<T>& v) {
  std::string out;
  out.reserve(v.size() * 20);
  for (size_t i = 0; i < v.size(); ++i) {
    out += std::to_string(t[i]);
    out += ' ';
    out += std::to_string(v[i]);
    out += ' ';
  }
  return out;
}
std::string CwndTrace(size_t flow) { return Pairs(g_flows[flow].cwnd_t, g_flows[flow].cwnd); }
std::string SsthreshTrace(size_t flow) { return Pairs(g_flows[flow].ssthresh_t, g_flows[flow].ssthresh); }
std::string StateTrace(size_t flow) { return Pairs(g_flows[flow].state_t, g_flows[flow].state); }
}  // namespace tcblab
"""

PORT = 5000


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: xcheck.py SPEC.json RESULT.json")
    with open(sys.argv[1]) as f:
        spec = json.load(f)

    t0 = time.perf_counter()
    from ns import ns  # cppyy JIT-loads the ns-3 headers and libraries: several seconds.
    import cppyy

    cppyy.cppdef(CPP)
    lab = cppyy.gbl.tcblab
    t1 = time.perf_counter()

    ns.RngSeedManager.SetSeed(spec.get("seed", 1))
    ns.RngSeedManager.SetRun(1)
    for name, value in spec["defaults"]:
        ns.Config.SetDefault(name, ns.StringValue(str(value)))
    ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType", ns.TypeIdValue(lab.CountedTypeId(spec["socketType"])))
    ns.Config.SetDefault(
        "ns3::TcpL4Protocol::RecoveryType", ns.TypeIdValue(ns.TypeId.LookupByName("ns3::" + spec["recoveryType"]))
    )

    pairs = spec["pairs"]
    net = dumbbell.build(ns, pairs, spec["bottleneck"], spec["access"])

    stop = ns.Seconds(spec["durationS"])
    flows = spec["flows"]
    if len(flows) > pairs:
        sys.exit(f"{len(flows)} flows need as many dumbbell pairs (have {pairs})")
    for i, flow in enumerate(flows):
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
        )
        sink_apps = sink_helper.Install(net.right.Get(i))
        sink_apps.Start(ns.Seconds(0.0))
        sink_apps.Stop(stop)
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(net.right_addresses[i], PORT).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(flow["bytes"] or 0))
        # Whole segments per write; the socket's buffer (SndBufSize) holds them until sent.
        bulk.SetAttribute("SendSize", ns.UintegerValue(spec["sendSize"]))
        bulk_apps = bulk.Install(net.left.Get(i))
        bulk_apps.Start(ns.Seconds(flow["startS"]))
        bulk_apps.Stop(stop)
        lab.AddFlow(bulk_apps.Get(0), sink_apps.Get(0), float(flow["startS"]), int(flow["bytes"] or 0))
    lab.ConnectDropCounter()

    ns.Simulator.Stop(stop)
    t2 = time.perf_counter()
    ns.Simulator.Run()
    t3 = time.perf_counter()

    duration = spec["durationS"]
    out_flows = []
    for i, flow in enumerate(flows):
        probe = lab.g_flows[i]
        done = int(probe.done_ns)
        end = done / 1e9 if done >= 0 else None
        rx = int(probe.rx)
        span = (end if end is not None else duration) - flow["startS"]
        out_flows.append(
            {
                "startS": flow["startS"],
                "endS": end,
                "bytes": rx,
                "completionTimeS": end - flow["startS"] if end is not None else None,
                "goodputBps": rx * 8 / span if span > 0 else 0.0,
                "retransmissions": int(probe.retransmissions),
                "timeouts": int(lab.Timeouts(i)),
                "cwnd": trace_arrays(lab.CwndTrace(i), "cwndBytes"),
                "ssthresh": trace_arrays(lab.SsthreshTrace(i), "ssthreshBytes"),
                # TcpSocketState::TcpCongStateName's order.
                "congState": {
                    **trace_arrays(lab.StateTrace(i), "state"),
                    "names": ["CA_OPEN", "CA_DISORDER", "CA_CWR", "CA_RECOVERY", "CA_LOSS"],
                },
            }
        )
    drops = int(lab.g_drops) + dumbbell.device_drops(ns, net.all_devices)
    events = int(ns.Simulator.GetEventCount())
    ns.Simulator.Destroy()

    result = {
        "simulator": "ns-3 " + ns3_version(),
        "name": spec["name"],
        "flows": out_flows,
        "drops": drops,
        "events": events,
        "wallSeconds": t3 - t2,
        "setupSeconds": t2 - t1,
        "importSeconds": t1 - t0,
    }
    with open(sys.argv[2], "w") as f:
        json.dump(result, f)


def trace_arrays(text, key):
    values = [int(x) for x in str(text).split()]
    return {"timeNs": values[0::2], key: values[1::2]}


def ns3_version():
    try:
        from importlib.metadata import version

        return version("ns3")
    except Exception:
        return "unknown"


if __name__ == "__main__":
    main()
