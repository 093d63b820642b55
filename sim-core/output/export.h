// Writes what a run recorded beyond its summary: the time series as columnar JSON, the packet trace
// as CSV, and link captures as pcap files. Every column comes from trace/columns.json. This layer
// sits above the scenario runner whose output it writes.
#pragma once

#include <ostream>

#include "scenario/run.h"

namespace tcb {

// {"flows": [names], "links": [names], "groups": [names], "tcp": {column: [...]},
// "queue": {column: [...]}, "group": {column: [...]}}.
// An infinite ssthresh is written as -1.
void WriteSeriesJson(const RunOutput& run, std::ostream& out);
// One row per packet event: time_ns,event,flow,flow_name,from_initiator,link,seq,payload,ack,window,flags,uid.
void WriteTraceCsv(const RunOutput& run, std::ostream& out);
// The packets captured on one link (both directions), in time order, as a pcap file.
void WritePcap(const RunOutput& run, const LinkCapture& capture, std::ostream& out);

}  // namespace tcb
