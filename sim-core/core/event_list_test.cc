// Event list: (time, sequence) order, one pending event per source, lazy timers.
#include "core/event_list.h"

#include <gtest/gtest.h>

#include <map>
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

// Sources that, when run, reschedule themselves and others (often at equal times), cancel others,
// or fall idle, checked against a reference model: every event must be the pending one with the
// least (time, seq), whatever the heap's shape, with stale entries left behind on the way.
TEST(EventListTest, RunsTheLeastPendingEventUnderRandomReschedulesAndCancels) {
  struct Model {
    EventList events;
    std::map<int, std::pair<SimTime, uint64_t>> pending;  // Source -> (time, order scheduled).
    uint64_t scheduled = 0;
    uint64_t state = 88172645463325252ull;
    uint64_t Next() {  // xorshift64
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      return state;
    }
  };
  class Source final : public EventSource {
   public:
    Source(Model& m, std::vector<std::unique_ptr<Source>>& all, int id) : m_(m), all_(all), id_(id) {}
    void Schedule(SimTime at) {
      m_.events.Schedule(*this, at);
      m_.pending[id_] = {at, ++m_.scheduled};
    }
    void Cancel() {
      m_.events.Cancel(*this);
      m_.pending.erase(id_);
    }
    void OnEvent() override {
      // The least pending (time, seq) in the model must be this source's event.
      auto least = m_.pending.begin();
      for (auto it = m_.pending.begin(); it != m_.pending.end(); ++it) {
        if (it->second < least->second) least = it;
      }
      ASSERT_NE(least, m_.pending.end());
      EXPECT_EQ(least->first, id_);
      EXPECT_EQ(least->second.first, m_.events.Now());
      m_.pending.erase(id_);
      ++runs;
      const SimTime now = m_.events.Now();
      for (int k = static_cast<int>(m_.Next() % 3); k > 0; --k) {
        Source& other = *all_[m_.Next() % all_.size()];
        switch (m_.Next() % 4) {
          case 0: other.Cancel(); break;
          case 1: other.Schedule(now); break;  // Equal times: FIFO among them.
          default: other.Schedule(now + SimTime::Nanoseconds(static_cast<int64_t>(m_.Next() % 4) * 1000)); break;
        }
      }
      if (m_.Next() % 8 != 0) Schedule(now + SimTime::Nanoseconds(static_cast<int64_t>(m_.Next() % 3) * 1000));
    }
    int runs = 0;

   private:
    Model& m_;
    std::vector<std::unique_ptr<Source>>& all_;
    int id_;
  };
  Model m;
  std::vector<std::unique_ptr<Source>> sources;
  for (int i = 0; i < 60; ++i) sources.push_back(std::make_unique<Source>(m, sources, i));
  for (auto& s : sources) s->Schedule(SimTime::Nanoseconds(static_cast<int64_t>(m.Next() % 5) * 1000));
  uint64_t ran = 0;
  while (ran < 20000 && m.events.RunNext(SimTime::Infinite())) ++ran;
  EXPECT_EQ(ran, 20000u);
  EXPECT_EQ(m.events.events_executed(), 20000u);
  for (auto& s : sources) EXPECT_GT(s->runs, 0);
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
