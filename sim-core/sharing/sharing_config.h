// The sharing scheme a host runs and its parameters, as chosen in the scenario ("hosts" in
// scenario.schema.json, where the defaults live).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "sharing/sharing.h"

namespace tcb {

enum class SchemeKind : uint8_t {
  kIndependent,        // Today's TCP: no sharing.
  kRfc9040Temporal,    // RFC 9040 §6 (after RFC 2140): cache on close, initialise on open.
  kRfc9040Ensemble,    // RFC 9040 §7: initialise from, and share RTT with, the live group.
  kMvTcbi,             // Savorić et al. §3.1.
  kFsTcbi,             // Savorić et al. §3.2.
  kEtcp,               // Eggert, Heidemann, Touch: Ensemble-TCP.
  kTcpInt,             // Balakrishnan et al. §5: TCP-INT.
  kSpand,              // Zhang, Qiu, Keshav: TCP/SPAND.
  kCongestionManager,  // RFC 3124.
  kCarefulResume,      // RFC 9959.
  kLinuxTcpMetrics,    // Linux's net/ipv4/tcp_metrics.c.
  kBdpResume,          // A saved BDP, as Google QUIC resumes from CachedNetworkParameters.
};
bool ParseSchemeKind(std::string_view name, SchemeKind* kind);
std::string_view SchemeKindName(SchemeKind kind);

// How RFC 9040's merge() combines a closing connection's value with the cached one.
enum class MergeRule : uint8_t { kLatest, kMean, kEwma };
bool ParseMergeRule(std::string_view name, MergeRule* rule);

// E-TCP §4's ticket policies.
enum class TicketPolicy : uint8_t { kFair, kContent, kDecay, kHtmlPre };
bool ParseTicketPolicy(std::string_view name, TicketPolicy* policy);

struct SharingConfig {
  SchemeKind scheme = SchemeKind::kIndependent;
  SharingScope scope = SharingScope::kHostPair;

  // rfc9040-temporal
  MergeRule merge = MergeRule::kLatest;
  int merge_window = 4;       // Values averaged by kMean.
  double ewma_weight = 0.25;  // Weight of the new value for kEwma.
  bool age_cwnd = true;       // Halve the cached cwnd per idle RTT (RFC 7661 §4.4, Handley et al.).
  SimTime cache_lifetime = SimTime::Seconds(600);  // After this a cache entry is forgotten (also E-TCP's cached ECBs).

  // etcp
  TicketPolicy tickets = TicketPolicy::kFair;
  bool cache = true;                // Keep ECBs after the last member closes (E-TCP §3.2).
  bool handshake_avoidance = true;  // Skip the SYN round trip on a cached ECB (E-TCP §5).
  bool pace_half_closed = true;     // Pace when every member is half-closed (E-TCP §4.2).

  // tcp-int
  bool weighted = false;       // The proxy case: the host counts as the sum of its connections' weights.
  bool delayed_ack_rules = false;  // The extra candidate rules for delayed-ACK receivers.
  SimTime delayed_ack_bound = SimTime::Milliseconds(200);

  // spand
  std::string gateway = "gateway";  // Hosts naming the same gateway share it.
  SimTime spand_window = SimTime::Seconds(300);  // S, the sliding window (§5.2.3: 5 minutes).
  int min_samples = 1;              // Fewer reports than this in the window: slow start.
  int segments_per_ack = 1;         // b of §4.1 eq. (1)-(4).
  int bucket_depth = 4;             // Token bucket depth in segments (§5.2.5).
  bool shift_optimisation = true;   // §4.2 eq. (4).
  // What the gateway knows at the start of the run (as if it had been running): per /24 network.
  struct SpandPrior {
    uint32_t network = 0;  // Address >> 8.
    double wc_packets = 0;
    SimTime rtt;
  };
  std::vector<SpandPrior> spand_priors;

  // careful-resume (cache_lifetime is the saved parameters' Lifetime)
  Bytes cr_max_jump = 0;  // max_jump (RFC 9959 §4.3); 0: no limit beyond saved_cwnd / 2.
  double cr_beta = 0.5;   // Beta of §4.5 (ssthresh after Safe Retreat = PipeSize * Beta).

  // linux-tcp-metrics (cache_lifetime is TCP_METRICS_TIMEOUT)
  bool metrics_no_save = false;          // net.ipv4.tcp_nometrics_save.
  bool metrics_no_ssthresh_save = true;  // net.ipv4.tcp_no_ssthresh_metrics_save (default 1 since Linux 5.6).
  int metrics_initcwnd = 0;              // The route's initcwnd in segments; 0: the TCP option's.
  int metrics_cwnd_lock = 0;             // A locked cwnd route metric in segments (a clamp); 0: none.

  // bdp-resume (cache_lifetime is how long a saved BDP may be used)
  // Largest resumed window; 0: no limit. Google QUIC's cap: 200 packets of 1460 bytes (quiche's
  // kMaxResumptionCongestionWindow x kDefaultTCPMSS).
  Bytes bdp_max_window = 200 * 1460;

  // mv-tcbi, fs-tcbi (Savorić et al. §3: defaults when alone, in segments)
  int tcbi_initial_cwnd = 2;
  int tcbi_initial_ssthresh = 64;
};

}  // namespace tcb
