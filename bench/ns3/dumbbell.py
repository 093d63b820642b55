"""The dumbbell both ns-3 scripts build (bench/ns3/dumbbell_bulk.py, bench/ns3/xcheck.py), as
tcpsim's dumbbell builder makes it (sim-core/net/topology.cc): `pairs` left hosts on access links to
router0, router0 joined to router1 by the bottleneck, `pairs` right hosts on access links to router1,
and every device queue a bare drop-tail FIFO.

A link is {"rate": "100Mbps", "delay": "10ms", "queuePackets": 100}.
"""

from types import SimpleNamespace


def build(ns, pairs, bottleneck, access):
    """Nodes, links, addresses and routes; returns left, right, routers (NodeContainers),
    bottleneck_devices, all_devices (NetDeviceContainers) and right_addresses (per pair)."""
    left, right, routers = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    left.Create(pairs)
    right.Create(pairs)
    routers.Create(2)

    def p2p(link):
        h = ns.PointToPointHelper()
        h.SetDeviceAttribute("DataRate", ns.StringValue(link["rate"]))
        h.SetChannelAttribute("Delay", ns.StringValue(link["delay"]))
        # The device's own transmit queue is the drop-tail FIFO (the helper's default type, made
        # explicit); no queue disc sits above it (see TrafficControlHelper.Uninstall below).
        h.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.StringValue(f"{link['queuePackets']}p"))
        return h

    bottleneck_helper, access_helper = p2p(bottleneck), p2p(access)
    all_devices = ns.NetDeviceContainer()
    bottleneck_devices = bottleneck_helper.Install(routers.Get(0), routers.Get(1))
    all_devices.Add(bottleneck_devices)
    left_links = [access_helper.Install(left.Get(i), routers.Get(0)) for i in range(pairs)]
    right_links = [access_helper.Install(routers.Get(1), right.Get(i)) for i in range(pairs)]
    for d in left_links + right_links:
        all_devices.Add(d)

    stack = ns.InternetStackHelper()
    for nodes in (left, right, routers):
        stack.Install(nodes)

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
    # flow-controlled stage and a full bottleneck would buffer ~1000 packets more. Removing it makes
    # TrafficControlLayer hand packets straight to the device, dropping them while the device's
    # queue is full: a plain drop-tail FIFO, as in tcpsim.
    ns.TrafficControlHelper().Uninstall(all_devices)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    # Check that the bottleneck really is a bare drop-tail FIFO of the asked size.
    tc = routers.Get(0).GetObject[ns.TrafficControlLayer]()
    assert not tc.GetRootQueueDiscOnDevice(bottleneck_devices.Get(0)), "a queue disc is still installed"
    queue = ns.DynamicCast[ns.PointToPointNetDevice](bottleneck_devices.Get(0)).GetQueue()
    assert str(queue.GetMaxSize()) == f"{bottleneck['queuePackets']}p", queue.GetMaxSize()
    assert queue.GetInstanceTypeId().GetName() == "ns3::DropTailQueue<Packet>", queue.GetInstanceTypeId().GetName()

    return SimpleNamespace(
        left=left,
        right=right,
        routers=routers,
        bottleneck_devices=bottleneck_devices,
        all_devices=all_devices,
        right_addresses=right_addresses,
    )


def device_drops(ns, devices):
    """Packets the device queues themselves dropped (without a queue disc, TrafficControlLayer's
    TcDrop counts the packets that met a full queue)."""
    return sum(
        int(ns.DynamicCast[ns.PointToPointNetDevice](devices.Get(i)).GetQueue().GetTotalDroppedPackets())
        for i in range(devices.GetN())
    )
