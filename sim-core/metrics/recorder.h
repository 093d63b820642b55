// The trace sink of a run: keeps every row its level asks for in column buffers (the tables of
// trace/columns.json), from which the exporters write series.json and trace.csv and the WASM
// bindings copy typed arrays.
#pragma once

#include <string>
#include <vector>

#include "trace/trace_sink.h"

namespace tcb {

class Recorder final : public TraceSink {
 public:
  explicit Recorder(TraceLevel level) : TraceSink(level) {}

  void Record(const PacketRow& row) override { packet_trace_.Append(row); }
  void Record(const TcpSeriesRow& row) override { tcp_series_.Append(row); }
  void Record(const QueueSeriesRow& row) override { queue_series_.Append(row); }
  void Record(const GroupSeriesRow& row) override { group_series_.Append(row); }
  int32_t RegisterGroup(std::string label) override {
    group_labels_.push_back(std::move(label));
    return static_cast<int32_t>(group_labels_.size() - 1);
  }

  const PacketTrace& packet_trace() const { return packet_trace_; }
  const TcpSeries& tcp_series() const { return tcp_series_; }
  const QueueSeries& queue_series() const { return queue_series_; }
  const GroupSeries& group_series() const { return group_series_; }
  const std::vector<std::string>& group_labels() const { return group_labels_; }

 private:
  PacketTrace packet_trace_;
  TcpSeries tcp_series_;
  QueueSeries queue_series_;
  GroupSeries group_series_;
  std::vector<std::string> group_labels_;
};

}  // namespace tcb
