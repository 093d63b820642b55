// Event list: (time, sequence) order, one pending event per source, lazy timers.
#include "core/event_list.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/units.h"

namespace tcb {
namespace {

class Recording final : public EventSource {
 public:
  Recording(EventList& events, std::vector<int>& log, int id) : events_(events), log_(log), id_(id) {}
  void OnEvent() override { log_.push_back(id_); times.push_back(events_.Now()); }
  std::vector<SimTime> times;

 private:
  EventList& events_;
  std::vector<int>& log_;
  int id_;
};

TEST(EventListTest, RunsInTimeOrderAndEqualTimesFifo) {
  EventList events;
  std::vector<int> log;
  Recording a(events, log, 1), b(events, log, 2), c(events, log, 3);
  events.Schedule(c, SimTime::Milliseconds(5));
  events.Schedule(b, SimTime::Milliseconds(2));
  events.Schedule(a, SimTime::Milliseconds(5));  // Same time as c, scheduled later: runs after c.
  while (events.RunNext(SimTime::Infinite())) {
  }
  EXPECT_EQ(log, (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(events.events_executed(), 3u);
  EXPECT_EQ(events.Now(), SimTime::Milliseconds(5));
}

TEST(EventListTest, ManyEqualTimesKeepInsertionOrder) {
  EventList events;
  std::vector<int> log;
  std::vector<std::unique_ptr<Recording>> sources;
  for (int i = 0; i < 200; ++i) {
    sources.push_back(std::make_unique<Recording>(events, log, i));
    events.Schedule(*sources.back(), SimTime::Seconds(1));
  }
  while (events.RunNext(SimTime::Infinite())) {
  }
  for (int i = 0; i < 200; ++i) EXPECT_EQ(log[i], i);
}

// The run loop's batches: at most max_events, none due after `until`, and the order is RunNext's.
TEST(EventListTest, RunBatchStopsAtTheCountOrTheHorizon) {
  EventList events;
  std::vector<int> log;
  std::vector<std::unique_ptr<Recording>> sources;
  for (int i = 0; i < 5; ++i) {
    sources.push_back(std::make_unique<Recording>(events, log, i));
    events.Schedule(*sources.back(), SimTime::Seconds(5 - i));
  }
  EXPECT_EQ(events.RunBatch(SimTime::Infinite(), 2), 2u);
  EXPECT_EQ(log, (std::vector<int>{4, 3}));
  EXPECT_EQ(events.RunBatch(SimTime::Seconds(4), 10), 2u);  // Events at 3 s and 4 s; 5 s is later.
  EXPECT_EQ(log, (std::vector<int>{4, 3, 2, 1}));
  EXPECT_EQ(events.RunBatch(SimTime::Infinite(), 10), 1u);
  EXPECT_EQ(events.RunBatch(SimTime::Infinite(), 10), 0u);
  EXPECT_EQ(events.events_executed(), 5u);
}

TEST(EventListTest, RescheduleReplacesThePendingEvent) {
  EventList events;
  std::vector<int> log;
  Recording a(events, log, 1);
  events.Schedule(a, SimTime::Seconds(1));
  events.Schedule(a, SimTime::Seconds(3));
  events.Schedule(a, SimTime::Seconds(2));
  while (events.RunNext(SimTime::Infinite())) {
  }
  ASSERT_EQ(a.times.size(), 1u);
  EXPECT_EQ(a.times[0], SimTime::Seconds(2));
}

TEST(EventListTest, CancelAndUntil) {
  EventList events;
  std::vector<int> log;
  Recording a(events, log, 1), b(events, log, 2);
  events.Schedule(a, SimTime::Seconds(1));
  events.Schedule(b, SimTime::Seconds(2));
  events.Cancel(a);
  EXPECT_FALSE(a.IsScheduled());
  EXPECT_EQ(events.NextTime(), SimTime::Seconds(2));
  EXPECT_FALSE(events.RunNext(SimTime::Milliseconds(1999)));
  EXPECT_TRUE(events.RunNext(SimTime::Seconds(2)));
  EXPECT_EQ(log, (std::vector<int>{2}));
  EXPECT_EQ(events.NextTime(), SimTime::Infinite());
}

TEST(EventListTest, SchedulingInThePastIsABug) {
  EventList events;
  std::vector<int> log;
  Recording a(events, log, 1);
  events.Schedule(a, SimTime::Seconds(1));
  events.RunNext(SimTime::Infinite());
  EXPECT_THROW(events.Schedule(a, SimTime::Milliseconds(500)), std::logic_error);
}

struct TimerOwner {
  explicit TimerOwner(EventList& events) : events(events), timer(Timer::For<&TimerOwner::Fire>(events, this)) {}
  void Fire() { fired.push_back(events.Now()); }
  EventList& events;
  Timer timer;
  std::vector<SimTime> fired;
};

TEST(TimerTest, PostponingCostsNoHeapEntryAndFiresAtTheLastDeadline) {
  EventList events;
  TimerOwner owner(events);
  owner.timer.Set(SimTime::Seconds(1));
  const size_t heap_after_first = events.heap_size();
  for (int i = 2; i <= 50; ++i) owner.timer.Set(SimTime::Seconds(i));
  EXPECT_EQ(events.heap_size(), heap_after_first);  // Later deadlines do not push.
  while (events.RunNext(SimTime::Infinite())) {
  }
  EXPECT_EQ(owner.fired, (std::vector<SimTime>{SimTime::Seconds(50)}));
}

TEST(TimerTest, EarlierDeadlineAndStop) {
  EventList events;
  TimerOwner owner(events);
  owner.timer.Set(SimTime::Seconds(5));
  owner.timer.Set(SimTime::Seconds(2));
  while (events.RunNext(SimTime::Infinite())) {
  }
  EXPECT_EQ(owner.fired, (std::vector<SimTime>{SimTime::Seconds(2)}));
  owner.timer.Set(SimTime::Seconds(3));
  owner.timer.Stop();
  EXPECT_FALSE(owner.timer.IsArmed());
  while (events.RunNext(SimTime::Infinite())) {
  }
  EXPECT_EQ(owner.fired.size(), 1u);
}

TEST(SimTimeTest, ConversionsAndTicks) {
  EXPECT_EQ(SimTime::FromSeconds(1.5).ns(), 1500000000);
  EXPECT_EQ(SimTime::FromMilliseconds(0.0005).ns(), 500);
  EXPECT_EQ(SimTime::FromSeconds(0.1).ns(), 100000000);
  EXPECT_EQ(CeilToTick(SimTime::Milliseconds(1001), SimTime::Milliseconds(500)), SimTime::Milliseconds(1500));
  EXPECT_EQ(CeilToTick(SimTime::Milliseconds(1000), SimTime::Milliseconds(500)), SimTime::Milliseconds(1000));
  EXPECT_EQ(CeilToTick(SimTime::Milliseconds(7), SimTime::Zero()), SimTime::Milliseconds(7));
  EXPECT_EQ(TransmissionTime(1000, 8000000).ns(), 1000000);  // 1000 B at 8 Mb/s: 1 ms.
  EXPECT_EQ(TransmissionTime(1, 3).ns(), 2666666667);        // Rounded up.
}

}  // namespace
}  // namespace tcb
