// RFC 9959 Careful Resume ("Convergence of Congestion Control from Retained State"): a connection
// saves the capacity it observed (saved_cwnd) and its minimum RTT (saved_rtt) for its remote
// endpoint; a later connection to that endpoint that confirms the path jumps to half the saved
// capacity, paced, and validates the jump within about one RTT, retreating safely (and deleting the
// saved values) if the jump met congestion. Phases (§4): Reconnaissance, Unvalidated, Validating,
// Safe Retreat, Normal. Over BBR the jump is by rate, as Appendix C describes: BBR paces at half the
// saved bandwidth from Startup for a round, validates in the next, and retreats by Drain
// (BbrOps::StartCarefulResume in tcp/bbr.h).
#pragma once

#include <memory>
#include <optional>

#include "sharing/cache_scheme.h"

namespace tcb {

// A connection's Careful Resume phase (the series column crPhase). Normal means Careful Resume is
// not (or no longer) in use.
enum class CrPhase : uint8_t { kNormal, kReconnaissance, kUnvalidated, kValidating, kSafeRetreat };
std::string_view CrPhaseName(CrPhase phase);

// The CC parameters saved for one remote endpoint (RFC 9959 §4.1).
struct SavedPath {
  Bytes saved_cwnd = 0;
  SimTime saved_rtt;
  SimTime saved_at;   // The Lifetime counts from here.
  bool in_use = false;  // A connection has jumped with it and not finished Careful Resume (§4.2).
};

// Why a connection did not (or could not finish to) use the saved parameters; counted per path.
enum class CarefulResumeOutcome : uint8_t {
  kNoSavedParameters,  // Nothing saved for the endpoint (or the saved set expired).
  kExpired,        // §4.2 "Lifetime of saved CC parameters".
  kInUse,          // §4.2 "Using saved_cwnd": another connection is resuming from it.
  kRttTooSmall,    // §4.2 "Minimum RTT too small" (<= saved_rtt / 2).
  kPathChanged,    // §4.2 "Path change" / §4.3 "Confirming the path" (then through Safe Retreat).
  kCongestion,     // §4.2: congestion in Reconnaissance, before any jump.
  kNothingToGain,  // The jump would not exceed the current window.
  kRateLimited,    // §4.3 "Check flight_size": too little data used the jump.
  kValidated,      // §4.4: the unvalidated packets were acknowledged without congestion.
  kRetreated,      // §4.5: congestion during the jump; Safe Retreat.
  kTimeout,        // §4.6: a retransmission timeout ended Careful Resume.
  kCount,
};

struct CarefulResumeEntry : CacheEntry {
  using CacheEntry::CacheEntry;
  std::optional<SavedPath> saved;
  int64_t outcomes[static_cast<size_t>(CarefulResumeOutcome::kCount)] = {};
};

class CarefulResumeScheme final : public CacheScheme<CarefulResumeEntry> {
 public:
  CarefulResumeScheme(const SharingConfig& config, const SharingEnvironment& env)
      : CacheScheme("careful-resume", config, env) {}

  std::unique_ptr<CongestionControl> Attach(const TcpConfig& config, SenderHandle& sender,
                                            const ConnectionContext& context) override;

  using Outcome = CarefulResumeOutcome;

  // For tests: the saved parameters of a path key, if any.
  const SavedPath* Saved(uint64_t key) const;
  // Saves parameters for `key` as a connection observed them (RFC 9959 §4.1).
  void Save(uint64_t key, const SavedPath& path);

 private:
  class Member;
  using Entry = CarefulResumeEntry;
  void DescribeEntry(const Entry& e, nlohmann::json& group) const override;
};

}  // namespace tcb
