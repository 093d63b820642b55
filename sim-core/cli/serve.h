// tcpsim serve: a persistent runner. Reads requests, one per line (JSON), on stdin and answers
// each run with one line on stdout, in order, so that a worker keeps one process and feeds it many
// runs instead of starting tcpsim per run. The summary of a run is the one `tcpsim run` prints at
// the same trace level, to the bit.
//
// The protocol, with an example, is ServeHelp() (`tcpsim serve --help`).
//
// A successful answer ends with its summary, so that a caller can take the summary's text from the
// line as it is (to store it) without parsing it. A bad request or scenario answers with an error
// (a request's error once per run it names) and the process serves on; so does a run that fails
// inside (an internal error), since every run builds its own state. End of input ends it.
//
// Answers are flushed when the process would otherwise wait for input (no request waiting, no run
// of the current request left), and otherwise by a writer thread once the oldest has waited
// kServeFlushInterval: a caller that queues many short runs wakes up once per batch of answers, not
// once per run, and an answer reaches it at most kServeFlushInterval after its run ended, also
// while a long run follows. The caller enforces time limits (a run that takes too long is stopped
// by killing the process). With --parent-pid, the process ends when that process (its parent) does.
#pragma once

#include <chrono>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace tcb::cli {

inline constexpr std::chrono::milliseconds kServeFlushInterval{20};

// `tcpsim serve --help`: the protocol above, with an example.
std::string ServeHelp();

struct ServeOptions {
  // Each run's memory limit (--max-memory-mb; a request's "maxMemoryMb" overrides it). 0: none.
  int64_t max_memory_bytes = 0;
};

// `tcpsim serve [--max-memory-mb N] [--parent-pid PID]`: serves stdin until it ends; returns the
// exit code (0).
int Serve(const std::vector<std::string>& args);

// The loop itself, over any streams (for tests). An answer is written at most `flush_interval`
// after its run ended, also while the next run goes on.
void ServeStreams(std::istream& in, std::ostream& out,
                  std::chrono::milliseconds flush_interval = kServeFlushInterval,
                  const ServeOptions& options = {});

}  // namespace tcb::cli
