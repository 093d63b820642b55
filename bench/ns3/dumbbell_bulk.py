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

PAIRS = 20
MSS = 1000
BUFFER_BYTES = 131072
QUEUE = "100p"
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

    left, right, routers = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    left.Create(PAIRS)
    right.Create(PAIRS)
    routers.Create(2)

    def p2p(rate, delay):
        h = ns.PointToPointHelper()
        h.SetDeviceAttribute("DataRate", ns.StringValue(rate))
        h.SetChannelAttribute("Delay", ns.StringValue(delay))
        # The device's own transmit queue is the drop-tail FIFO (the helper's default type, made
        # explicit); no queue disc sits above it (see TrafficControlHelper.Uninstall below).
        h.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.StringValue(QUEUE))
        return h

    bottleneck, access = p2p(BOTTLENECK_RATE, BOTTLENECK_DELAY), p2p(ACCESS_RATE, ACCESS_DELAY)
    all_devices = ns.NetDeviceContainer()
    bottleneck_devices = bottleneck.Install(routers.Get(0), routers.Get(1))
    all_devices.Add(bottleneck_devices)
    left_links = [access.Install(left.Get(i), routers.Get(0)) for i in range(PAIRS)]
    right_links = [access.Install(routers.Get(1), right.Get(i)) for i in range(PAIRS)]
    for d in left_links + right_links:
        all_devices.Add(d)

    stack = ns.InternetStackHelper()
    stack.Install(left)
    stack.Install(right)
    stack.Install(routers)

    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
    addresses.Assign(bottleneck_devices)
    for d in left_links:
        addresses.NewNetwork()
        addresses.Assign(d)
    right_addresses = []
    for d in right_links:
        addresses.NewNetwork()
        right_addresses.append(addresses.Assign(d).GetAddress(1))

    # Ipv4AddressHelper::Assign installs the default root queue disc (FifoQueueDisc of 1000
    # packets, "pfifo_fast"-like) on every device; with it the device queue would only be a
    # flow-controlled stage and a full bottleneck would buffer ~1100 packets. Removing it makes
    # TrafficControlLayer hand packets straight to the device, dropping them while the device's
    # 100-packet queue is full: a plain 100-packet drop-tail FIFO, as in our model.
    ns.TrafficControlHelper().Uninstall(all_devices)

    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    start = ns.CreateObject[ns.UniformRandomVariable]()
    start.SetAttribute("Min", ns.DoubleValue(0.0))
    start.SetAttribute("Max", ns.DoubleValue(1.0))

    stop = ns.Seconds(args.duration)
    sinks, start_times = [], []
    for i in range(PAIRS):
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
        )
        sink_apps = sink_helper.Install(right.Get(i))
        sink_apps.Start(ns.Seconds(0.0))
        sink_apps.Stop(stop)
        sinks.append(ns.DynamicCast[ns.PacketSink](sink_apps.Get(0)))

        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(right_addresses[i], PORT).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk_apps = bulk.Install(left.Get(i))
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

    # Check the bottleneck really is a bare 100-packet drop-tail FIFO.
    tc = routers.Get(0).GetObject[ns.TrafficControlLayer]()
    dev = ns.DynamicCast[ns.PointToPointNetDevice](bottleneck_devices.Get(0))
    queue = dev.GetQueue()
    assert not tc.GetRootQueueDiscOnDevice(bottleneck_devices.Get(0)), "a queue disc is still installed"
    assert str(queue.GetMaxSize()) == QUEUE, queue.GetMaxSize()
    assert queue.GetInstanceTypeId().GetName() == "ns3::DropTailQueue<Packet>", queue.GetInstanceTypeId().GetName()

    ns.Simulator.Stop(stop)
    t2 = time.perf_counter()
    ns.Simulator.Run()
    t3 = time.perf_counter()

    events = int(ns.Simulator.GetEventCount())
    rx = [int(s.GetTotalRx()) for s in sinks]
    drops = int(cppyy.gbl.tcblab.g_drops) + sum(
        int(ns.DynamicCast[ns.PointToPointNetDevice](all_devices.Get(i)).GetQueue().GetTotalDroppedPackets())
        for i in range(all_devices.GetN())
    )
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
