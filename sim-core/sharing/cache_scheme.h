// The scaffolding of the schemes that keep what connections learnt about a path for the connections
// after them, one entry per group key (RFC 9040's temporal sharing, RFC 9959 Careful Resume, Linux's
// tcp_metrics, QUIC-style BDP resumption): the entries, each with the group of the connections that
// used it (for the summary's "groups" and the group series), made on the key's first connection. A
// scheme derives its entry from CacheEntry and writes only its members (the policy), what its entries
// cache, and what they add to the summary.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "sharing/sharing_config.h"
#include "sharing/tcb_group.h"

namespace tcb {

// What every cache entry has: the connections that used it.
struct CacheEntry {
  explicit CacheEntry(TcbGroup g) : group(std::move(g)) {}
  TcbGroup group;
};

template <class Entry>
class CacheScheme : public SharingScheme {
 public:
  // One group per entry: SharingGroup's fields and the entry's own (DescribeEntry).
  void Describe(nlohmann::json& groups) const final {
    for (const auto& [key, e] : entries_) {
      nlohmann::json g = e.group.Describe();
      DescribeEntry(e, g);
      groups.push_back(std::move(g));
    }
  }

 protected:
  // `scheme` names the scheme in the summary and the series.
  CacheScheme(std::string scheme, const SharingConfig& config, const SharingEnvironment& env)
      : config_(config), env_(env), scheme_(std::move(scheme)) {}

  // Adds the entry's own fields to its group's summary.
  virtual void DescribeEntry(const Entry& e, nlohmann::json& group) const = 0;

  // The entry of group key `key` (GroupKey(config_.scope, context)), made on the key's first
  // connection.
  Entry& EntryFor(uint64_t key, const ConnectionContext& context) {
    return FindOrCreate(entries_, key, [&] { return Entry(TcbGroup(env_, scheme_, DescribeGroupKey(config_.scope, context))); });
  }
  // The entry of `key`, which a connection of the key made (std::out_of_range otherwise).
  Entry& EntryAt(uint64_t key) { return entries_.at(key); }
  // The entry of `key`, or null before its first connection.
  Entry* FindEntry(uint64_t key) {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
  }
  const Entry* FindEntry(uint64_t key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
  }
  // Adds a new connection's member to the group of the entry it uses, and hands it to the connection.
  template <class Member>
  static std::unique_ptr<CongestionControl> Join(Entry& entry, std::unique_ptr<Member> member, FlowId flow) {
    entry.group.Add(member.get(), flow);
    return member;
  }

  SharingConfig config_;
  SharingEnvironment env_;

 private:
  std::string scheme_;
  std::map<uint64_t, Entry> entries_;
};

}  // namespace tcb
