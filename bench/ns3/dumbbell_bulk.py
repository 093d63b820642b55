#!/usr/bin/env python3
"""The `dumbbell-bulk` benchmark scenario in ns-3, for a side-by-side wall-time reference.

Mirrors sim-core/scenario/presets/dumbbell-bulk.json:
  20 left hosts --1 Gb/s, 1 ms-- router0 ==100 Mb/s, 10 ms== router1 --1 Gb/s, 1 ms-- 20 right hosts,
  every device queue a 100-packet drop-tail FIFO; one long-lived TCP NewReno bulk flow
  left_i -> right_i per pair, started uniformly at random in [0, 1) s; 60 s simulated;
  MSS 1000 bytes, initial window 1 segment, an ACK for every segment, 131072-byte buffers.
  No tracing, pcap or flow monitor.

Prints one JSON line on stdout. wallSeconds covers Simulator::Run() only; setupSeconds covers
building the topology (after `from ns import ns`); importSeconds the import itself.
Run with the python of the venv that bench/ns3/setup.sh prints.
"""

import argparse
import json
import sys
import time

import dumbbell

PAIRS = 20
MSS = 1000
BUFFER_BYTES = 131072
QUEUE_PACKETS = 100
BOTTLENECK_RATE, BOTTLENECK_DELAY = "100Mbps", "10ms"
ACCESS_RATE, ACCESS_DELAY = "1Gbps", "1ms"
BOTTLENECK_BPS = 100e6
PORT = 5000


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duration", type=float, default=60.0, help="simulated seconds (default 60)")
    p.add_argument("--seed", type=int, default=1, help="ns-3 RngSeedManager seed (default 1)")
    p.add_argument("--run", type=int, default=1, help="ns-3 RngSeedManager run number (default 1)")
    p.add_argument(
        "--ns3-tcp-defaults",
        action="store_true",
        help="keep ns-3's defaults for SACK, timestamps and recovery (SACK on, timestamps on, PRR) "
        "instead of matching our model (no SACK, no timestamps, classic NewReno recovery)",
    )
    return p.parse_args()


def main():
    args = parse_args()

    t0 = time.perf_counter()
    from ns import ns  # cppyy JIT-loads the ns-3 headers and libraries: several seconds.

    t1 = time.perf_counter()

    ns.RngSeedManager.SetSeed(args.seed)
    ns.RngSeedManager.SetRun(args.run)

    # TCP: NewReno without SACK, classic (RFC 6582) fast recovery rather than ns-3's default PRR,
    # no timestamps (40-byte TCP/IP headers like our model), MSS 1000, IW 1, ACK every segment.
    # Window scaling stays on (ns-3's default): a 131072-byte window needs it.
    ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType", ns.TypeIdValue(ns.TcpNewReno.GetTypeId()))
    if not args.ns3_tcp_defaults:
        ns.Config.SetDefault("ns3::TcpL4Protocol::RecoveryType", ns.TypeIdValue(ns.TcpClassicRecovery.GetTypeId()))
        ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
        ns.Config.SetDefault("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(MSS))
    ns.Config.SetDefault("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(1))
    ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))
    ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", ns.UintegerValue(BUFFER_BYTES))
    ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(BUFFER_BYTES))

    # The device queues are 100-packet drop-tail FIFOs without a queue disc (bench/ns3/dumbbell.py).
    net = dumbbell.build(
        ns,
        PAIRS,
        {"rate": BOTTLENECK_RATE, "delay": BOTTLENECK_DELAY, "queuePackets": QUEUE_PACKETS},
        {"rate": ACCESS_RATE, "delay": ACCESS_DELAY, "queuePackets": QUEUE_PACKETS},
    )

    start = ns.CreateObject[ns.UniformRandomVariable]()
    start.SetAttribute("Min", ns.DoubleValue(0.0))
    start.SetAttribute("Max", ns.DoubleValue(1.0))

    stop = ns.Seconds(args.duration)
    sinks, start_times = [], []
    for i in range(PAIRS):
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
        )
        sink_apps = sink_helper.Install(net.right.Get(i))
        sink_apps.Start(ns.Seconds(0.0))
        sink_apps.Stop(stop)
        sinks.append(ns.DynamicCast[ns.PacketSink](sink_apps.Get(0)))

        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(net.right_addresses[i], PORT).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk_apps = bulk.Install(net.left.Get(i))
        t = start.GetValue()
        start_times.append(t)
        bulk_apps.Start(ns.Seconds(t))
        bulk_apps.Stop(stop)

    # Count packets dropped anywhere: with no queue disc, a packet meeting a full (stopped) device
    # queue is dropped by TrafficControlLayer. A C++ callback, so Python never runs during Run().
    import cppyy

    cppyy.cppdef(
        """
        namespace tcblab {
        uint64_t g_drops = 0;
        void CountDrop(ns3::Ptr<const ns3::Packet>) { ++g_drops; }
        void ConnectDropCounter() {
          ns3::Config::ConnectWithoutContext("/NodeList/*/$ns3::TrafficControlLayer/TcDrop",
                                             ns3::MakeCallback(&CountDrop));
        }
        }  // namespace tcblab
        """
    )
    cppyy.gbl.tcblab.ConnectDropCounter()

    ns.Simulator.Stop(stop)
    t2 = time.perf_counter()
    ns.Simulator.Run()
    t3 = time.perf_counter()

    events = int(ns.Simulator.GetEventCount())
    rx = [int(s.GetTotalRx()) for s in sinks]
    drops = int(cppyy.gbl.tcblab.g_drops) + dumbbell.device_drops(ns, net.all_devices)
    ns.Simulator.Destroy()

    wall = t3 - t2
    result = {
        "simulator": "ns-3 " + ns3_version(),
        "scenario": "dumbbell-bulk",
        "seed": args.seed,
        "run": args.run,
        "tcp": "ns-3 defaults (SACK, timestamps, PRR)" if args.ns3_tcp_defaults else "NewReno, no SACK, no timestamps, classic recovery",
        "simulatedSeconds": args.duration,
        "wallSeconds": wall,
        "setupSeconds": t2 - t1,
        "importSeconds": t1 - t0,
        "events": events,
        "eventsPerSecond": events / wall if wall > 0 else None,
        "bottleneckUtilization": sum(rx) * 8 / (BOTTLENECK_BPS * args.duration),
        "drops": drops,
        # Like tcpsim's goodputBps: bytes delivered to the receiver / (end - flow start).
        "goodputMbps": [rx[i] * 8 / (args.duration - start_times[i]) / 1e6 for i in range(PAIRS)],
        "startS": start_times,
    }
    print(json.dumps(result))
    sys.stdout.flush()


def ns3_version():
    try:
        from importlib.metadata import version

        return version("ns3")
    except Exception:
        return "unknown"


if __name__ == "__main__":
    main()
