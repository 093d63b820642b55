// Classic libpcap writer: synthesises Ethernet, IPv4 and TCP/UDP headers for simulated packets.
#include "output/pcap_writer.h"

#include <algorithm>
#include <cstddef>

namespace tcb {

namespace {

constexpr uint32_t kMagicNanosecond = 0xa1b23c4d;
constexpr uint16_t kVersionMajor = 2;
constexpr uint16_t kVersionMinor = 4;
constexpr uint32_t kSnapLength = 65535;
constexpr uint32_t kLinkTypeEthernet = 1;

constexpr size_t kEthernetHeaderBytes = 14;
constexpr size_t kIpv4HeaderBytes = 20;
constexpr size_t kTcpBaseHeaderBytes = 20;
constexpr size_t kTcpMaxOptionBytes = 40;
constexpr size_t kMaxFrameHeaderBytes = kEthernetHeaderBytes + kIpv4HeaderBytes + kTcpBaseHeaderBytes +
                                        kTcpMaxOptionBytes;

constexpr uint8_t kProtocolTcp = 6;
constexpr uint8_t kProtocolUdp = 17;
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
constexpr uint8_t kTtl = 64;
constexpr uint16_t kDontFragment = 0x4000;

constexpr int64_t kNsPerSecond = 1000000000;

constexpr uint8_t kTcpOptionNop = 1;
constexpr uint8_t kTcpOptionMss = 2;
constexpr uint8_t kTcpOptionSackPermitted = 4;
constexpr uint8_t kTcpOptionSack = 5;

// Appends bytes to a fixed buffer; network headers are big-endian, pcap headers little-endian.
class ByteSink {
 public:
  explicit ByteSink(uint8_t* data) : data_(data) {}

  void U8(uint8_t v) { data_[size_++] = v; }
  void Be16(uint16_t v) {
    U8(static_cast<uint8_t>(v >> 8));
    U8(static_cast<uint8_t>(v));
  }
  void Be32(uint32_t v) {
    Be16(static_cast<uint16_t>(v >> 16));
    Be16(static_cast<uint16_t>(v));
  }
  void Le16(uint16_t v) {
    U8(static_cast<uint8_t>(v));
    U8(static_cast<uint8_t>(v >> 8));
  }
  void Le32(uint32_t v) {
    Le16(static_cast<uint16_t>(v));
    Le16(static_cast<uint16_t>(v >> 16));
  }
  // Writes a big-endian value over two bytes already appended (checksums and lengths filled in late).
  void PatchBe16(size_t at, uint16_t v) {
    data_[at] = static_cast<uint8_t>(v >> 8);
    data_[at + 1] = static_cast<uint8_t>(v);
  }

  size_t size() const { return size_; }
  const uint8_t* data() const { return data_; }

 private:
  uint8_t* data_;  // Not owned.
  size_t size_ = 0;
};

// RFC 1071 one's-complement sum of big-endian 16-bit words; an odd trailing byte is padded with zero.
uint32_t OnesComplementAdd(uint32_t sum, const uint8_t* data, size_t n) {
  for (size_t i = 0; i + 1 < n; i += 2) sum += (uint32_t{data[i]} << 8) | data[i + 1];
  if (n % 2 == 1) sum += uint32_t{data[n - 1]} << 8;
  return sum;
}

uint16_t FoldChecksum(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

void PutMac(ByteSink& out, uint32_t ip) {
  // Locally administered unicast (02:00:...), unique per IPv4 address.
  out.U8(0x02);
  out.U8(0x00);
  out.Be32(ip);
}

// TCP options laid out as Linux does, each group aligned to 4 bytes with leading NOPs.
void PutTcpOptions(ByteSink& out, const PcapPacket& p) {
  const size_t start = out.size();
  if (p.mss_option != 0) {
    out.U8(kTcpOptionMss);
    out.U8(4);
    out.Be16(p.mss_option);
  }
  if (p.sack_permitted) {
    out.U8(kTcpOptionNop);
    out.U8(kTcpOptionNop);
    out.U8(kTcpOptionSackPermitted);
    out.U8(2);
  }
  // Blocks that do not fit in the 40 option bytes are dropped, as a real sender would.
  const size_t used = out.size() - start;
  const size_t room = used + 4 <= kTcpMaxOptionBytes ? (kTcpMaxOptionBytes - used - 4) / 8 : 0;
  const size_t blocks = std::min<size_t>({p.sack_count, p.sack.size(), room});
  if (blocks > 0) {
    out.U8(kTcpOptionNop);
    out.U8(kTcpOptionNop);
    out.U8(kTcpOptionSack);
    out.U8(static_cast<uint8_t>(2 + 8 * blocks));
    for (size_t i = 0; i < blocks; ++i) {
      out.Be32(p.sack[i].first);
      out.Be32(p.sack[i].second);
    }
  }
  // The data offset counts 32-bit words.
  while ((out.size() - start) % 4 != 0) out.U8(kTcpOptionNop);
}

}  // namespace

PcapWriter::PcapWriter(std::ostream& out) : out_(out) {
  uint8_t bytes[24];
  ByteSink h(bytes);
  h.Le32(kMagicNanosecond);
  h.Le16(kVersionMajor);
  h.Le16(kVersionMinor);
  h.Le32(0);  // thiszone: timestamps are UTC (simulated time since 0).
  h.Le32(0);  // sigfigs
  h.Le32(kSnapLength);
  h.Le32(kLinkTypeEthernet);
  out_.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.size()));
}

void PcapWriter::Write(const PcapPacket& p) {
  const bool tcp = p.protocol == kProtocolTcp;
  const uint8_t ip_protocol = tcp ? kProtocolTcp : kProtocolUdp;

  uint8_t frame[kMaxFrameHeaderBytes];
  ByteSink f(frame);

  PutMac(f, p.dst_ip);
  PutMac(f, p.src_ip);
  f.Be16(kEtherTypeIpv4);

  const size_t ip_start = f.size();
  f.U8(0x45);  // Version 4, IHL 5 words.
  f.U8(0);     // DSCP/ECN
  const size_t ip_total_length_at = f.size();
  f.Be16(0);
  f.Be16(ip_identification_++);
  f.Be16(kDontFragment);
  f.U8(kTtl);
  f.U8(ip_protocol);
  const size_t ip_checksum_at = f.size();
  f.Be16(0);
  f.Be32(p.src_ip);
  f.Be32(p.dst_ip);

  const size_t l4_start = f.size();
  size_t l4_checksum_at = 0;
  size_t udp_length_at = 0;
  f.Be16(p.src_port);
  f.Be16(p.dst_port);
  if (tcp) {
    f.Be32(p.seq);
    f.Be32(p.ack);
    const size_t data_offset_at = f.size();
    f.U8(0);
    f.U8(p.tcp_flags);
    f.Be16(p.window);
    l4_checksum_at = f.size();
    f.Be16(0);
    f.Be16(0);  // Urgent pointer.
    PutTcpOptions(f, p);
    frame[data_offset_at] = static_cast<uint8_t>(((f.size() - l4_start) / 4) << 4);
  } else {
    udp_length_at = f.size();
    f.Be16(0);
    l4_checksum_at = f.size();
    f.Be16(0);
  }
  const size_t l4_header_bytes = f.size() - l4_start;

  // The IPv4 total length is 16 bits; larger declared payloads are capped to what it can express.
  const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(
      p.payload_bytes, 0xffff - kIpv4HeaderBytes - l4_header_bytes));
  const uint16_t l4_length = static_cast<uint16_t>(l4_header_bytes + payload);
  f.PatchBe16(ip_total_length_at, static_cast<uint16_t>(kIpv4HeaderBytes + l4_length));
  f.PatchBe16(ip_checksum_at, FoldChecksum(OnesComplementAdd(0, frame + ip_start, kIpv4HeaderBytes)));
  if (!tcp) f.PatchBe16(udp_length_at, l4_length);

  // Pseudo-header (RFC 793 §3.1, RFC 768) + header; the zero payload adds nothing to the sum.
  uint32_t sum = (p.src_ip >> 16) + (p.src_ip & 0xffff) + (p.dst_ip >> 16) + (p.dst_ip & 0xffff);
  sum += ip_protocol;
  sum += l4_length;
  uint16_t l4_checksum = FoldChecksum(OnesComplementAdd(sum, frame + l4_start, l4_header_bytes));
  // RFC 768: a computed UDP checksum of zero is sent as all ones (zero means "no checksum").
  if (!tcp && l4_checksum == 0) l4_checksum = 0xffff;
  f.PatchBe16(l4_checksum_at, l4_checksum);

  const int64_t ns = std::max<int64_t>(p.time.ns(), 0);
  uint8_t record[16];
  ByteSink r(record);
  r.Le32(static_cast<uint32_t>(std::min<int64_t>(ns / kNsPerSecond, 0xffffffff)));
  r.Le32(static_cast<uint32_t>(ns % kNsPerSecond));
  r.Le32(static_cast<uint32_t>(f.size()));
  r.Le32(static_cast<uint32_t>(f.size() + payload));
  out_.write(reinterpret_cast<const char*>(r.data()), static_cast<std::streamsize>(r.size()));
  out_.write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(f.size()));
}

}  // namespace tcb
