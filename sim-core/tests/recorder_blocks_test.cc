// RunScenario with RecorderBlocks (metrics/recorder.h): a run handed over block by block records
// exactly the rows, in the same order, that a run kept whole records, and leaves nothing behind.
#include "metrics/recorder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "scenario/presets.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

namespace tcb {
namespace {

// Appends every block to tables of its own, and counts the blocks and their largest size.
class Collect final : public RecorderBlocks {
 public:
  void Take(const PacketTrace& rows) override { Add(trace, rows); }
  void Take(const TcpSeries& rows) override { Add(tcp, rows); }
  void Take(const QueueSeries& rows) override { Add(queue, rows); }
  void Take(const GroupSeries& rows) override { Add(group, rows); }

  PacketTrace trace;
  TcpSeries tcp;
  QueueSeries queue;
  GroupSeries group;
  size_t blocks = 0;
  size_t largest = 0;

 private:
  template <class Table>
  void Add(Table& into, const Table& rows) {
    ++blocks;
    largest = std::max(largest, rows.size());
#define TCB_APPEND(member, type, key, csv_name, csv, infinite, indexes) \
  into.member.insert(into.member.end(), rows.member.begin(), rows.member.end());
    if constexpr (std::is_same_v<Table, PacketTrace>) {
      TCB_TRACE_COLUMNS(TCB_APPEND)
    } else if constexpr (std::is_same_v<Table, TcpSeries>) {
      TCB_TCP_COLUMNS(TCB_APPEND)
    } else if constexpr (std::is_same_v<Table, QueueSeries>) {
      TCB_QUEUE_COLUMNS(TCB_APPEND)
    } else {
      TCB_GROUP_COLUMNS(TCB_APPEND)
    }
#undef TCB_APPEND
  }
};

template <class Table>
bool SameRows(const Table& a, const Table& b) {
  bool same = a.size() == b.size();
#define TCB_SAME(member, type, key, csv_name, csv, infinite, indexes) same = same && a.member == b.member;
  if constexpr (std::is_same_v<Table, PacketTrace>) {
    TCB_TRACE_COLUMNS(TCB_SAME)
  } else if constexpr (std::is_same_v<Table, TcpSeries>) {
    TCB_TCP_COLUMNS(TCB_SAME)
  } else if constexpr (std::is_same_v<Table, QueueSeries>) {
    TCB_QUEUE_COLUMNS(TCB_SAME)
  } else {
    TCB_GROUP_COLUMNS(TCB_SAME)
  }
#undef TCB_SAME
  return same;
}

// scheme-etcp records every table: packets, connections, queues and the ensembles' group series.
TEST(RecorderBlocksTest, BlocksHoldTheRowsOfAWholeRecordingInOrder) {
  const Scenario scenario = ParseScenarioText(*PresetText("scheme-etcp"));
  RunOptions whole;
  whole.trace = TraceLevel::kFull;
  const RunOutput kept = RunScenario(scenario, whole);
  ASSERT_GT(kept.recorder->group_series().size(), 0u);

  Collect collect;
  RunOptions blocks = whole;
  blocks.record_blocks = &collect;
  blocks.record_block_rows = 1000;
  const RunOutput handed = RunScenario(scenario, blocks);

  EXPECT_EQ(handed.result_hash, kept.result_hash);
  EXPECT_TRUE(SameRows(collect.trace, kept.recorder->packet_trace()));
  EXPECT_TRUE(SameRows(collect.tcp, kept.recorder->tcp_series()));
  EXPECT_TRUE(SameRows(collect.queue, kept.recorder->queue_series()));
  EXPECT_TRUE(SameRows(collect.group, kept.recorder->group_series()));
  EXPECT_EQ(handed.recorder->group_labels(), kept.recorder->group_labels());
  // Blocks of at most the size asked for, more than one per table here, and nothing left behind.
  EXPECT_LE(collect.largest, 1000u);
  EXPECT_GT(collect.blocks, kept.recorder->packet_trace().size() / 1000);
  EXPECT_EQ(handed.recorder->packet_trace().size(), 0u);
  EXPECT_EQ(handed.recorder->tcp_series().size(), 0u);
  EXPECT_EQ(handed.recorder->queue_series().size(), 0u);
  EXPECT_EQ(handed.recorder->group_series().size(), 0u);
}

TEST(RecorderBlocksTest, AThrowingTakeStopsTheRun) {
  class Refuse final : public RecorderBlocks {
   public:
    void Take(const PacketTrace&) override { throw std::length_error("too many rows"); }
    void Take(const TcpSeries&) override {}
    void Take(const QueueSeries&) override {}
    void Take(const GroupSeries&) override {}
  } refuse;
  RunOptions options;
  options.trace = TraceLevel::kFull;
  options.record_blocks = &refuse;
  options.record_block_rows = 100;
  EXPECT_THROW(RunScenario(ParseScenarioText(*PresetText("dumbbell-bulk")), options), std::length_error);
}

}  // namespace
}  // namespace tcb
