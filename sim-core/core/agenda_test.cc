#include "core/agenda.h"

#include <gtest/gtest.h>

#include <string>

namespace tcb {
namespace {

TEST(Agenda, RunsActionsInTimeThenInsertionOrder) {
  EventList events;
  Agenda agenda(events);
  std::string log;
  agenda.At(SimTime::FromMilliseconds(20), [&] { log += "c"; });
  agenda.At(SimTime::FromMilliseconds(10), [&] { log += "a"; });
  agenda.At(SimTime::FromMilliseconds(10), [&] { log += "b"; });
  while (events.RunNext(SimTime::Infinite())) {
  }
  EXPECT_EQ(log, "abc");
  EXPECT_EQ(events.Now(), SimTime::FromMilliseconds(20));
  EXPECT_TRUE(agenda.empty());
}

// An action that adds a later item must not delay an earlier one already waiting.
TEST(Agenda, AnActionAddingALaterItemKeepsTheEarlierOneOnTime) {
  EventList events;
  Agenda agenda(events);
  std::string log;
  SimTime b_at;
  agenda.At(SimTime::FromMilliseconds(5), [&] {
    log += "a";
    agenda.At(SimTime::FromMilliseconds(12), [&] { log += "c"; });
  });
  agenda.At(SimTime::FromMilliseconds(10), [&] {
    log += "b";
    b_at = events.Now();
  });
  while (events.RunNext(SimTime::Infinite())) {
  }
  EXPECT_EQ(log, "abc");
  EXPECT_EQ(b_at, SimTime::FromMilliseconds(10));
}

TEST(Agenda, ActionsAddedForNowRunInTheSameEvent) {
  EventList events;
  Agenda agenda(events);
  int runs = 0;
  agenda.At(SimTime::Zero(), [&] {
    ++runs;
    agenda.After(SimTime::Zero(), [&] { ++runs; });
  });
  ASSERT_TRUE(events.RunNext(SimTime::Infinite()));
  EXPECT_EQ(runs, 2);
  EXPECT_FALSE(events.RunNext(SimTime::Infinite()));
}

}  // namespace
}  // namespace tcb
