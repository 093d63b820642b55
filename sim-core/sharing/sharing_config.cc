// Scheme names.
#include "sharing/sharing_config.h"

#include "core/enum_names.h"

namespace tcb {

namespace {
constexpr std::string_view kSchemeNames[] = {"independent", "rfc9040-temporal", "rfc9040-ensemble",
                                             "mv-tcbi",     "fs-tcbi",          "etcp",
                                             "tcp-int",     "spand",            "congestion-manager",
                                             "careful-resume", "linux-tcp-metrics", "bdp-resume"};
constexpr std::string_view kMergeNames[] = {"latest", "mean", "ewma"};
constexpr std::string_view kTicketNames[] = {"fair", "content", "decay", "html-pre"};

}  // namespace

bool ParseSchemeKind(std::string_view name, SchemeKind* kind) { return ParseEnumName(kSchemeNames, name, kind); }
std::string_view SchemeKindName(SchemeKind kind) { return EnumName(kSchemeNames, kind); }
bool ParseMergeRule(std::string_view name, MergeRule* rule) { return ParseEnumName(kMergeNames, name, rule); }
bool ParseTicketPolicy(std::string_view name, TicketPolicy* policy) { return ParseEnumName(kTicketNames, name, policy); }

}  // namespace tcb
