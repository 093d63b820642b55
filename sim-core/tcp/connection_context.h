// What a connection endpoint is to its host: where it leads and what it carries. Sharing schemes
// group and schedule connections by it.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/units.h"

namespace tcb {

// What a connection carries, for E-TCP's content-dependent tickets (E-TCP §4).
enum class ContentType : uint8_t { kHtml, kImage, kJava, kFtp, kOther };
bool ParseContentType(std::string_view name, ContentType* type);
std::string_view ContentTypeName(ContentType type);

// Per-connection settings a scheme may use.
struct ConnectionTraits {
  ContentType content = ContentType::kOther;
  double tickets = 0;  // E-TCP stride-scheduler tickets; 0: from the scheme's ticket policy.
  double weight = 1;   // TCP-INT / Congestion Manager share (TCP-INT §5's proxy case).
};

// One endpoint of a connection.
struct ConnectionContext {
  FlowId flow = -1;
  NodeId local = kNoNode;
  NodeId remote = kNoNode;
  uint32_t local_address = 0;
  uint32_t remote_address = 0;
  ConnectionTraits traits;
};

}  // namespace tcb
