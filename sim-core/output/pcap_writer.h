// Writes simulated packets as a classic libpcap file (Ethernet link type) for Wireshark and tcptrace.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <utility>

#include "core/time.h"

namespace tcb {

// One packet as seen on a link. The simulator carries no payload bytes, so only headers are
// synthesised and `payload_bytes` is recorded as the part of the frame the capture did not keep.
struct PcapPacket {
  SimTime time;
  uint32_t src_ip = 0, dst_ip = 0;  // Host byte order values, e.g. 0x0A000001 for 10.0.0.1.
  uint16_t src_port = 0, dst_port = 0;
  uint8_t protocol = 6;             // 6 = TCP, 17 = UDP; anything else is written as UDP.
  uint32_t seq = 0, ack = 0;        // TCP only, already wrapped to 32 bits by the caller.
  uint8_t tcp_flags = 0;            // FIN=0x01 SYN=0x02 RST=0x04 PSH=0x08 ACK=0x10.
  uint16_t window = 0;              // TCP window field, already scaled by the caller.
  uint32_t payload_bytes = 0;
  uint8_t sack_count = 0;           // Up to 4 SACK blocks (TCP option kind 5).
  std::array<std::pair<uint32_t, uint32_t>, 4> sack{};
  bool sack_permitted = false;      // Emit SACK-permitted (kind 4), used on SYNs.
  uint16_t mss_option = 0;          // Emit MSS (kind 2) when nonzero, used on SYNs.
};

// Streams pcap records to `out`: nanosecond-resolution magic 0xa1b23c4d, version 2.4, snaplen 65535,
// link type 1 (Ethernet). Each record holds Ethernet + IPv4 + TCP/UDP headers only (caplen = header
// bytes) while its original length counts the payload too, as a snapped capture would.
//
// Synthesised fields: MACs are 02:00:<IPv4 address>; IPv4 has DF set, TTL 64 and an identification
// that increments per writer. TCP/UDP checksums are computed as if the payload were `payload_bytes`
// zero bytes (zeros add nothing to the one's-complement sum), so tools that check the checksum over
// the declared length with a zero-filled payload agree; tools that know the payload is missing
// report it as unverifiable. Lengths are capped so the IPv4 total length fits in 16 bits.
//
// Output is little-endian regardless of host. Stream errors are left in `out`'s state for the caller.
class PcapWriter {
 public:
  // Writes the global header immediately.
  explicit PcapWriter(std::ostream& out);
  // Appends one record. Packets should be written in time order, as readers expect.
  void Write(const PcapPacket& p);

 private:
  std::ostream& out_;  // Not owned; must outlive the writer.
  uint16_t ip_identification_ = 0;
};

}  // namespace tcb
