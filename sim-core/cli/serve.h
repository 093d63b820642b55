// tcpsim serve: a persistent runner. Reads one request per line (JSON) on stdin and writes one
// response per line on stdout, in order, flushing after each, so that a worker keeps one process
// and feeds it many runs instead of starting tcpsim per run. The summary of a run is the one
// `tcpsim run` prints at the same trace level, to the bit.
//
// Request:  {"id": any, "scenario": {...} | "<JSON text>", "seed"?: N, "trace"?: "none" | "summary"}
// Response: {"id": ..., "ok": true, "summary": {...}, "wallSeconds": S, "events": N}
//           {"id": ..., "ok": false, "error": {"kind": "scenario" | "request" | "memory" | "internal",
//            "message": "...", "path"?: "$...", "problem"?: "..."}}
// A bad request or scenario answers with an error and the process serves on; so does a run that
// fails inside (an internal error), since every run builds its own state. End of input ends it.
// The caller enforces time limits: a run that takes too long is stopped by killing the process.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace tcb::cli {

// `tcpsim serve`: serves stdin until it ends; returns the exit code (0).
int Serve(const std::vector<std::string>& args);

// The loop itself, over any streams (for tests).
void ServeStreams(std::istream& in, std::ostream& out);

}  // namespace tcb::cli
