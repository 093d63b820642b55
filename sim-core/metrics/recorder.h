// The trace sink of a run: keeps every row its level asks for in column buffers (the tables of
// trace/columns.json), from which the exporters write series.json and trace.csv; or, given a
// RecorderBlocks, hands the rows over in blocks as they fill and keeps at most one block per table
// (the WASM bindings copy each block out of the module's memory, so that a long run's trace is not
// bounded by it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/memory_budget.h"
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

class Recorder final : public TraceSink, public MemoryPart {
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

  // Charges the rows it keeps to `budget` from now on, in steps of kChargeRows rows per table (not
  // owned; null detaches it, refunding what was charged: the recorder outlives its run's budget).
  void SetMemoryBudget(MemoryBudget* budget) {
    if (budget_ != nullptr) budget_->Refund(charged_bytes_);
    memory_registration_ = MemoryBudget::Registration();
    budget_ = budget;
    charged_bytes_ = 0;
    packet_trace_charged_ = tcp_series_charged_ = queue_series_charged_ = group_series_charged_ = 0;
    if (budget_ != nullptr) memory_registration_ = budget_->Register(this);
  }

  // MemoryPart.
  Bytes MemoryBytes() const override { return charged_bytes_; }
  std::string DescribeMemory() const override {
    return "the recorder keeps " + std::to_string(packet_trace_.size()) + " packet trace rows and " +
           std::to_string(tcp_series_.size() + queue_series_.size() + group_series_.size()) +
           " series rows (a lower trace level keeps fewer)";
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
  // Rows charged at a time: the accounting costs a comparison per row.
  static constexpr size_t kChargeRows = 4096;

  template <class Table, class Row>
  void Append(Table& table, const Row& row) {
    table.Append(row);
    size_t& charged = ChargedRows(table);
    if (table.size() > charged && budget_ != nullptr) {
      const Bytes bytes = static_cast<Bytes>(kChargeRows * sizeof(Row));
      charged += kChargeRows;
      charged_bytes_ += bytes;
      budget_->Charge(bytes);
    }
    if (blocks_ != nullptr && table.size() >= block_rows_) Hand(table);
  }

  template <class Table>
  void Hand(Table& table) {
    if (blocks_ == nullptr || table.size() == 0) return;
    blocks_->Take(table);
    table.Clear();
    // The rows handed over are the caller's to hold.
    size_t& charged = ChargedRows(table);
    const Bytes bytes = static_cast<Bytes>(charged * RowBytes(table));
    if (budget_ != nullptr) budget_->Refund(bytes);
    charged_bytes_ -= bytes;
    charged = 0;
  }

  size_t& ChargedRows(const PacketTrace&) { return packet_trace_charged_; }
  size_t& ChargedRows(const TcpSeries&) { return tcp_series_charged_; }
  size_t& ChargedRows(const QueueSeries&) { return queue_series_charged_; }
  size_t& ChargedRows(const GroupSeries&) { return group_series_charged_; }
  static size_t RowBytes(const PacketTrace&) { return sizeof(PacketRow); }
  static size_t RowBytes(const TcpSeries&) { return sizeof(TcpSeriesRow); }
  static size_t RowBytes(const QueueSeries&) { return sizeof(QueueSeriesRow); }
  static size_t RowBytes(const GroupSeries&) { return sizeof(GroupSeriesRow); }

  RecorderBlocks* blocks_ = nullptr;  // Not owned.
  size_t block_rows_ = 0;
  PacketTrace packet_trace_;
  TcpSeries tcp_series_;
  QueueSeries queue_series_;
  GroupSeries group_series_;
  std::vector<std::string> group_labels_;
  MemoryBudget* budget_ = nullptr;  // Not owned; null: not accounted.
  Bytes charged_bytes_ = 0;
  size_t packet_trace_charged_ = 0;
  size_t tcp_series_charged_ = 0;
  size_t queue_series_charged_ = 0;
  size_t group_series_charged_ = 0;
  MemoryBudget::Registration memory_registration_;
};

}  // namespace tcb
