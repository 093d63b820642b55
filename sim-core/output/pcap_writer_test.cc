// Tests for PcapWriter: parses the written bytes back with an independent reader and checks every
// header field, both checksums and the TCP option layout.
#include "output/pcap_writer.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace tcb {
namespace {

// Reads fields at explicit offsets; the file is little-endian, the frame big-endian.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  uint8_t U8(size_t at) const { return static_cast<uint8_t>(bytes_.at(at)); }
  uint16_t Le16(size_t at) const { return static_cast<uint16_t>(U8(at) | (U8(at + 1) << 8)); }
  uint32_t Le32(size_t at) const { return Le16(at) | (uint32_t{Le16(at + 2)} << 16); }
  uint16_t Be16(size_t at) const { return static_cast<uint16_t>((U8(at) << 8) | U8(at + 1)); }
  uint32_t Be32(size_t at) const { return (uint32_t{Be16(at)} << 16) | Be16(at + 2); }
  size_t size() const { return bytes_.size(); }

 private:
  const std::string& bytes_;
};

// Straightforward RFC 1071 checksum over a byte vector; a correct header sums to 0.
uint16_t InternetChecksum(const std::vector<uint8_t>& bytes) {
  uint64_t sum = 0;
  for (size_t i = 0; i < bytes.size(); i += 2) {
    const uint16_t hi = bytes[i];
    const uint16_t lo = i + 1 < bytes.size() ? bytes[i + 1] : 0;
    sum += (hi << 8) | lo;
  }
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum & 0xffff);
}

struct Record {
  uint32_t ts_sec, ts_nsec, caplen, len;
  size_t frame;  // Offset of the Ethernet header in the file.
};

std::vector<Record> ParseRecords(const Reader& r) {
  std::vector<Record> records;
  size_t at = 24;
  while (at < r.size()) {
    Record rec{r.Le32(at), r.Le32(at + 4), r.Le32(at + 8), r.Le32(at + 12), at + 16};
    records.push_back(rec);
    at += 16 + rec.caplen;
  }
  EXPECT_EQ(at, r.size());
  return records;
}

// Copies the L4 header from the file and appends `zero_payload` zero bytes behind a pseudo-header.
std::vector<uint8_t> PseudoHeaderSegment(const Reader& r, size_t ip, size_t l4, size_t l4_header,
                                         size_t zero_payload) {
  std::vector<uint8_t> v;
  for (size_t i = 0; i < 8; ++i) v.push_back(r.U8(ip + 12 + i));  // Source and destination.
  const size_t l4_length = l4_header + zero_payload;
  v.push_back(0);
  v.push_back(r.U8(ip + 9));
  v.push_back(static_cast<uint8_t>(l4_length >> 8));
  v.push_back(static_cast<uint8_t>(l4_length));
  for (size_t i = 0; i < l4_header; ++i) v.push_back(r.U8(l4 + i));
  v.insert(v.end(), zero_payload, 0);
  return v;
}

std::vector<uint8_t> Slice(const Reader& r, size_t at, size_t n) {
  std::vector<uint8_t> v;
  for (size_t i = 0; i < n; ++i) v.push_back(r.U8(at + i));
  return v;
}

constexpr uint32_t kClient = 0x0A000001;  // 10.0.0.1
constexpr uint32_t kServer = 0xC0A80102;  // 192.168.1.2

class PcapWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PcapWriter writer(out_);

    PcapPacket syn;
    syn.time = SimTime::Nanoseconds(1'500'000'123);
    syn.src_ip = kClient;
    syn.dst_ip = kServer;
    syn.src_port = 40000;
    syn.dst_port = 80;
    syn.seq = 0xfffffff0;
    syn.tcp_flags = 0x02;
    syn.window = 65535;
    syn.mss_option = 1460;
    syn.sack_permitted = true;
    writer.Write(syn);

    PcapPacket data;
    data.time = SimTime::Nanoseconds(2'000'000'000);
    data.src_ip = kClient;
    data.dst_ip = kServer;
    data.src_port = 40000;
    data.dst_port = 80;
    data.seq = 1;
    data.ack = 1;
    data.tcp_flags = 0x18;
    data.window = 1024;
    data.payload_bytes = 1459;  // Odd, to exercise the padding byte of the checksum.
    writer.Write(data);

    PcapPacket ack;
    ack.time = SimTime::Nanoseconds(2'000'000'999);
    ack.src_ip = kServer;
    ack.dst_ip = kClient;
    ack.src_port = 80;
    ack.dst_port = 40000;
    ack.seq = 1;
    ack.ack = 1461;
    ack.tcp_flags = 0x10;
    ack.window = 4000;
    ack.sack_count = 2;
    ack.sack = {{{2921, 4381}, {5841, 7301}, {0, 0}, {0, 0}}};
    writer.Write(ack);

    PcapPacket udp;
    udp.time = SimTime::Nanoseconds(3'000'000'001);
    udp.src_ip = kServer;
    udp.dst_ip = kClient;
    udp.src_port = 5000;
    udp.dst_port = 6000;
    udp.protocol = 17;
    udp.payload_bytes = 1200;
    writer.Write(udp);

    bytes_ = out_.str();
  }

  // Checks Ethernet and IPv4 headers; returns the offset of the L4 header.
  size_t CheckEthernetAndIp(const Reader& r, const Record& rec, uint32_t src, uint32_t dst,
                            uint8_t protocol, uint16_t total_length, uint16_t id) {
    const size_t eth = rec.frame;
    const uint8_t dst_mac[6] = {0x02, 0x00, static_cast<uint8_t>(dst >> 24), static_cast<uint8_t>(dst >> 16),
                                static_cast<uint8_t>(dst >> 8), static_cast<uint8_t>(dst)};
    const uint8_t src_mac[6] = {0x02, 0x00, static_cast<uint8_t>(src >> 24), static_cast<uint8_t>(src >> 16),
                                static_cast<uint8_t>(src >> 8), static_cast<uint8_t>(src)};
    for (size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(r.U8(eth + i), dst_mac[i]);
      EXPECT_EQ(r.U8(eth + 6 + i), src_mac[i]);
    }
    EXPECT_EQ(r.Be16(eth + 12), 0x0800);

    const size_t ip = eth + 14;
    EXPECT_EQ(r.U8(ip), 0x45);
    EXPECT_EQ(r.U8(ip + 1), 0);
    EXPECT_EQ(r.Be16(ip + 2), total_length);
    EXPECT_EQ(r.Be16(ip + 4), id);
    EXPECT_EQ(r.Be16(ip + 6), 0x4000);  // DF, offset 0.
    EXPECT_EQ(r.U8(ip + 8), 64);
    EXPECT_EQ(r.U8(ip + 9), protocol);
    EXPECT_NE(r.Be16(ip + 10), 0);
    EXPECT_EQ(r.Be32(ip + 12), src);
    EXPECT_EQ(r.Be32(ip + 16), dst);
    EXPECT_EQ(InternetChecksum(Slice(r, ip, 20)), 0);
    // Byte-level check that the address is in network order.
    EXPECT_EQ(r.U8(ip + 12), src >> 24);
    return ip + 20;
  }

  std::ostringstream out_;
  std::string bytes_;
};

TEST_F(PcapWriterTest, GlobalHeader) {
  Reader r(bytes_);
  ASSERT_GE(r.size(), 24u);
  // The magic is written little-endian: 4d 3c b2 a1.
  EXPECT_EQ(r.U8(0), 0x4d);
  EXPECT_EQ(r.U8(1), 0x3c);
  EXPECT_EQ(r.U8(2), 0xb2);
  EXPECT_EQ(r.U8(3), 0xa1);
  EXPECT_EQ(r.Le32(0), 0xa1b23c4du);
  EXPECT_EQ(r.Le16(4), 2);
  EXPECT_EQ(r.Le16(6), 4);
  EXPECT_EQ(r.Le32(8), 0u);
  EXPECT_EQ(r.Le32(12), 0u);
  EXPECT_EQ(r.Le32(16), 65535u);
  EXPECT_EQ(r.Le32(20), 1u);
}

TEST_F(PcapWriterTest, HeaderOnlyWriterOutputsJustGlobalHeader) {
  std::ostringstream out;
  PcapWriter writer(out);
  EXPECT_EQ(out.str().size(), 24u);
}

TEST_F(PcapWriterTest, RecordHeaders) {
  Reader r(bytes_);
  const std::vector<Record> recs = ParseRecords(r);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0].ts_sec, 1u);
  EXPECT_EQ(recs[0].ts_nsec, 500'000'123u);
  EXPECT_EQ(recs[0].caplen, 14u + 20 + 28);  // MSS (4) + NOP NOP SACK-permitted (4).
  EXPECT_EQ(recs[0].len, recs[0].caplen);
  EXPECT_EQ(recs[1].ts_sec, 2u);
  EXPECT_EQ(recs[1].ts_nsec, 0u);
  EXPECT_EQ(recs[1].caplen, 14u + 20 + 20);
  EXPECT_EQ(recs[1].len, 14u + 20 + 20 + 1459);
  EXPECT_EQ(recs[2].ts_sec, 2u);
  EXPECT_EQ(recs[2].ts_nsec, 999u);
  EXPECT_EQ(recs[2].caplen, 14u + 20 + 20 + 20);  // NOP NOP SACK(2 + 16).
  EXPECT_EQ(recs[2].len, recs[2].caplen);
  EXPECT_EQ(recs[3].ts_sec, 3u);
  EXPECT_EQ(recs[3].ts_nsec, 1u);
  EXPECT_EQ(recs[3].caplen, 14u + 20 + 8);
  EXPECT_EQ(recs[3].len, 14u + 20 + 8 + 1200);
}

TEST_F(PcapWriterTest, SynWithMssAndSackPermitted) {
  Reader r(bytes_);
  const Record rec = ParseRecords(r)[0];
  const size_t tcp = CheckEthernetAndIp(r, rec, kClient, kServer, 6, 20 + 28, 0);
  EXPECT_EQ(r.Be16(tcp), 40000);
  EXPECT_EQ(r.Be16(tcp + 2), 80);
  EXPECT_EQ(r.Be32(tcp + 4), 0xfffffff0u);
  EXPECT_EQ(r.Be32(tcp + 8), 0u);
  EXPECT_EQ(r.U8(tcp + 12) >> 4, 7);  // 28 bytes.
  EXPECT_EQ(r.U8(tcp + 12) & 0x0f, 0);
  EXPECT_EQ(r.U8(tcp + 13), 0x02);
  EXPECT_EQ(r.Be16(tcp + 14), 65535);
  EXPECT_EQ(r.Be16(tcp + 18), 0);
  const std::vector<uint8_t> options = Slice(r, tcp + 20, 8);
  const std::vector<uint8_t> expected = {2, 4, 0x05, 0xb4, 1, 1, 4, 2};
  EXPECT_EQ(options, expected);
  EXPECT_EQ(InternetChecksum(PseudoHeaderSegment(r, tcp - 20, tcp, 28, 0)), 0);
}

TEST_F(PcapWriterTest, DataSegmentChecksumCoversZeroPayload) {
  Reader r(bytes_);
  const Record rec = ParseRecords(r)[1];
  const size_t tcp = CheckEthernetAndIp(r, rec, kClient, kServer, 6, 20 + 20 + 1459, 1);
  EXPECT_EQ(r.Be32(tcp + 4), 1u);
  EXPECT_EQ(r.Be32(tcp + 8), 1u);
  EXPECT_EQ(r.U8(tcp + 12), 5 << 4);
  EXPECT_EQ(r.U8(tcp + 13), 0x18);  // PSH|ACK
  EXPECT_EQ(r.Be16(tcp + 14), 1024);
  EXPECT_EQ(InternetChecksum(PseudoHeaderSegment(r, tcp - 20, tcp, 20, 1459)), 0);
  // The checksum depends on the declared length, so it is not merely the header-only one.
  EXPECT_NE(InternetChecksum(PseudoHeaderSegment(r, tcp - 20, tcp, 20, 0)), 0);
}

TEST_F(PcapWriterTest, AckWithTwoSackBlocks) {
  Reader r(bytes_);
  const Record rec = ParseRecords(r)[2];
  const size_t tcp = CheckEthernetAndIp(r, rec, kServer, kClient, 6, 20 + 40, 2);
  EXPECT_EQ(r.Be16(tcp), 80);
  EXPECT_EQ(r.Be16(tcp + 2), 40000);
  EXPECT_EQ(r.Be32(tcp + 8), 1461u);
  EXPECT_EQ(r.U8(tcp + 12) >> 4, 10);
  EXPECT_EQ(r.U8(tcp + 13), 0x10);
  EXPECT_EQ(r.Be16(tcp + 14), 4000);
  EXPECT_EQ(r.U8(tcp + 20), 1);
  EXPECT_EQ(r.U8(tcp + 21), 1);
  EXPECT_EQ(r.U8(tcp + 22), 5);
  EXPECT_EQ(r.U8(tcp + 23), 18);
  EXPECT_EQ(r.Be32(tcp + 24), 2921u);
  EXPECT_EQ(r.Be32(tcp + 28), 4381u);
  EXPECT_EQ(r.Be32(tcp + 32), 5841u);
  EXPECT_EQ(r.Be32(tcp + 36), 7301u);
  EXPECT_EQ(InternetChecksum(PseudoHeaderSegment(r, tcp - 20, tcp, 40, 0)), 0);
}

TEST_F(PcapWriterTest, UdpDatagram) {
  Reader r(bytes_);
  const Record rec = ParseRecords(r)[3];
  const size_t udp = CheckEthernetAndIp(r, rec, kServer, kClient, 17, 20 + 8 + 1200, 3);
  EXPECT_EQ(r.Be16(udp), 5000);
  EXPECT_EQ(r.Be16(udp + 2), 6000);
  EXPECT_EQ(r.Be16(udp + 4), 8 + 1200);
  EXPECT_NE(r.Be16(udp + 6), 0);  // Zero would mean "no checksum".
  EXPECT_EQ(InternetChecksum(PseudoHeaderSegment(r, udp - 20, udp, 8, 1200)), 0);
}

TEST(PcapWriterLimitsTest, OptionsNeverExceedFortyBytes) {
  std::ostringstream out;
  PcapWriter writer(out);
  PcapPacket p;
  p.src_ip = kClient;
  p.dst_ip = kServer;
  p.tcp_flags = 0x12;
  p.mss_option = 1460;
  p.sack_permitted = true;
  p.sack_count = 4;
  p.sack = {{{1, 2}, {3, 4}, {5, 6}, {7, 8}}};
  writer.Write(p);
  const std::string bytes = out.str();
  Reader r(bytes);
  const size_t tcp = 24 + 16 + 14 + 20;
  // 20 + MSS 4 + SACK-permitted 4 + NOP NOP SACK header 4 leaves room for 3 of the 4 blocks.
  EXPECT_EQ(r.U8(tcp + 12) >> 4, 14);
  EXPECT_EQ(r.U8(tcp + 30), 5);
  EXPECT_EQ(r.U8(tcp + 31), 2 + 3 * 8);
  EXPECT_EQ(r.Be32(tcp + 48), 5u);
  EXPECT_EQ(r.Be32(tcp + 52), 6u);
  EXPECT_EQ(bytes.size(), tcp + 56);
  EXPECT_EQ(InternetChecksum(PseudoHeaderSegment(r, tcp - 20, tcp, 56, 0)), 0);
}

TEST(PcapWriterLimitsTest, OversizedPayloadIsCappedToIpv4TotalLength) {
  std::ostringstream out;
  PcapWriter writer(out);
  PcapPacket p;
  p.src_ip = kClient;
  p.dst_ip = kServer;
  p.payload_bytes = 100000;
  writer.Write(p);
  const std::string bytes = out.str();
  Reader r(bytes);
  const size_t ip = 24 + 16 + 14;
  EXPECT_EQ(r.Be16(ip + 2), 65535);
  EXPECT_EQ(r.Le32(24 + 12), 14u + 65535);
  EXPECT_EQ(InternetChecksum(PseudoHeaderSegment(r, ip, ip + 20, 20, 65535 - 40)), 0);
}

TEST(PcapWriterLimitsTest, IdentificationIncrementsPerWriter) {
  std::ostringstream a_out, b_out;
  PcapWriter a(a_out);
  PcapWriter b(b_out);
  PcapPacket p;
  a.Write(p);
  a.Write(p);
  b.Write(p);
  const std::string a_bytes = a_out.str();
  const std::string b_bytes = b_out.str();
  Reader ra(a_bytes);
  Reader rb(b_bytes);
  const size_t first_ip = 24 + 16 + 14;
  const size_t second_ip = first_ip + 20 + 20 + 16 + 14;
  EXPECT_EQ(ra.Be16(first_ip + 4), 0);
  EXPECT_EQ(ra.Be16(second_ip + 4), 1);
  EXPECT_EQ(rb.Be16(first_ip + 4), 0);
}

}  // namespace
}  // namespace tcb
