// The trace sink of a run: keeps every row its level asks for in column buffers (the tables of
// trace/columns.json), from which the exporters write series.json and trace.csv; or, given a
// RecorderBlocks, hands the rows over in blocks as they fill and keeps at most one block per table
// (the WASM bindings copy each block out of the module's memory, so that a long run's trace is not
// bounded by it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "trace/trace_sink.h"

namespace tcb {

// Takes a run's rows, table by table, in blocks of consecutive rows in recording order. Each call
// must copy what it keeps: the recorder clears the table after it returns. A call may throw (e.g.
// when the rows exceed what the caller can hold); the exception leaves RunScenario.
class RecorderBlocks {
 public:
  virtual ~RecorderBlocks() = default;
  virtual void Take(const PacketTrace& rows) = 0;
  virtual void Take(const TcpSeries& rows) = 0;
  virtual void Take(const QueueSeries& rows) = 0;
  virtual void Take(const GroupSeries& rows) = 0;
};

class Recorder final : public TraceSink {
 public:
  explicit Recorder(TraceLevel level) : TraceSink(level) {}
  // Rows go to `blocks` (not owned; must outlive the recorder's use) in blocks of `block_rows`,
  // and the rest when Flush is called.
  Recorder(TraceLevel level, RecorderBlocks* blocks, size_t block_rows)
      : TraceSink(level), blocks_(blocks), block_rows_(block_rows == 0 ? 1 : block_rows) {}

  void Record(const PacketRow& row) override { Append(packet_trace_, row); }
  void Record(const TcpSeriesRow& row) override { Append(tcp_series_, row); }
  void Record(const QueueSeriesRow& row) override { Append(queue_series_, row); }
  void Record(const GroupSeriesRow& row) override { Append(group_series_, row); }
  int32_t RegisterGroup(std::string label) override {
    group_labels_.push_back(std::move(label));
    return static_cast<int32_t>(group_labels_.size() - 1);
  }

  // Hands the rows not yet handed over to the blocks, table by table; the tables are then empty.
  // Without blocks it does nothing.
  void Flush() {
    Hand(packet_trace_);
    Hand(tcp_series_);
    Hand(queue_series_);
    Hand(group_series_);
  }

  // The rows kept: all of them without blocks; with blocks, those recorded since the last block.
  const PacketTrace& packet_trace() const { return packet_trace_; }
  const TcpSeries& tcp_series() const { return tcp_series_; }
  const QueueSeries& queue_series() const { return queue_series_; }
  const GroupSeries& group_series() const { return group_series_; }
  const std::vector<std::string>& group_labels() const { return group_labels_; }

 private:
  template <class Table, class Row>
  void Append(Table& table, const Row& row) {
    table.Append(row);
    if (blocks_ != nullptr && table.size() >= block_rows_) Hand(table);
  }

  template <class Table>
  void Hand(Table& table) {
    if (blocks_ == nullptr || table.size() == 0) return;
    blocks_->Take(table);
    table.Clear();
  }

  RecorderBlocks* blocks_ = nullptr;  // Not owned.
  size_t block_rows_ = 0;
  PacketTrace packet_trace_;
  TcpSeries tcp_series_;
  QueueSeries queue_series_;
  GroupSeries group_series_;
  std::vector<std::string> group_labels_;
};

}  // namespace tcb
