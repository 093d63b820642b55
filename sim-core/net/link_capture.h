// Packets captured on chosen links, for pcap export: what a tap on the wire would have seen, stamped
// with the time each packet started to be transmitted.
#pragma once

#include <array>
#include <vector>

#include "net/packet.h"

namespace tcb {

struct CapturedPacket {
  SimTime time;
  FlowId flow = -1;
  bool from_initiator = true;
  Protocol protocol = Protocol::kTcp;
  uint8_t flags = 0;
  uint8_t sack_count = 0;
  SeqNo seq = 0;
  SeqNo ack = 0;
  Bytes window = 0;
  Bytes payload = 0;
  std::array<SackBlock, kMaxSackBlocks> sack{};
};

struct LinkCapture {
  std::vector<CapturedPacket> packets;
  void Add(SimTime t, const Packet& p) {
    packets.push_back(CapturedPacket{t, p.flow, p.from_initiator, p.protocol, p.flags,
                                     p.sack_count, p.seq, p.ack, p.window, p.payload, p.sack});
  }
};

}  // namespace tcb
