// The run's memory account (core/memory_budget.h): charges and refunds, the limit, and the part it
// names when the limit is reached.
#include "core/memory_budget.h"

#include <gtest/gtest.h>

#include <string>

namespace tcb {
namespace {

class FakePart final : public MemoryPart {
 public:
  FakePart(std::string name, Bytes bytes) : name_(std::move(name)), bytes_(bytes) {}
  Bytes MemoryBytes() const override { return bytes_; }
  std::string DescribeMemory() const override { return name_ + " holds " + std::to_string(bytes_) + " bytes"; }
  void Set(Bytes bytes) { bytes_ = bytes; }

 private:
  std::string name_;
  Bytes bytes_;
};

TEST(MemoryBudgetTest, CountsChargesAndRefundsAndKeepsThePeak) {
  MemoryBudget budget;
  budget.Charge(100);
  budget.Charge(50);
  budget.Refund(120);
  EXPECT_EQ(budget.used(), 30);
  EXPECT_EQ(budget.peak(), 150);
  // Without a limit nothing is ever exceeded.
  budget.Charge(int64_t{1} << 50);
  EXPECT_FALSE(budget.Exceeded());
}

TEST(MemoryBudgetTest, IsExceededOnlyAboveItsLimit) {
  MemoryBudget budget;
  budget.SetLimit(1000);
  budget.Charge(1000);
  EXPECT_FALSE(budget.Exceeded());
  budget.Charge(1);
  EXPECT_TRUE(budget.Exceeded());
  budget.Refund(1);
  EXPECT_FALSE(budget.Exceeded());
}

TEST(MemoryBudgetTest, NamesTheLargestPartWhenTheLimitIsReached) {
  MemoryBudget budget;
  budget.SetLimit(1 << 20);
  FakePart small("the small part", 10);
  FakePart queue("the queue", 3 << 20);
  const MemoryBudget::Registration a = budget.Register(&small);
  const MemoryBudget::Registration b = budget.Register(&queue);
  EXPECT_EQ(budget.LargestPart(), &queue);
  try {
    budget.ThrowExceeded(SimTime::Milliseconds(3210));
    FAIL() << "ThrowExceeded returned";
  } catch (const MemoryLimitExceeded& e) {
    EXPECT_EQ(e.limit(), 1 << 20);
    EXPECT_EQ(e.part(), "the queue holds 3145728 bytes");
    EXPECT_EQ(std::string(e.what()),
              "the run needs more than its memory limit of 1.0 MiB (at 3.210 s of simulated time): the queue holds "
              "3145728 bytes (about 3.0 MiB)");
  }
}

TEST(MemoryBudgetTest, ForgetsAPartWhoseRegistrationEnded) {
  MemoryBudget budget;
  FakePart big("big", 1000);
  FakePart later("later", 10);
  {
    const MemoryBudget::Registration r = budget.Register(&big);
    EXPECT_EQ(budget.LargestPart(), &big);
  }
  EXPECT_EQ(budget.LargestPart(), nullptr);
  // The freed slot is reused.
  const MemoryBudget::Registration r = budget.Register(&later);
  EXPECT_EQ(budget.LargestPart(), &later);
  // A moved registration ends once, with its last owner.
  MemoryBudget::Registration moved = budget.Register(&big);
  MemoryBudget::Registration target;
  target = std::move(moved);
  EXPECT_EQ(budget.LargestPart(), &big);
  target = MemoryBudget::Registration();
  EXPECT_EQ(budget.LargestPart(), &later);
}

TEST(MemoryBudgetTest, WritesByteCountsAsPeopleReadThem) {
  EXPECT_EQ(HumanBytes(512), "512 B");
  EXPECT_EQ(HumanBytes(1536), "1.5 KiB");
  EXPECT_EQ(HumanBytes(int64_t{387} << 20), "387 MiB");
  EXPECT_EQ(HumanBytes(int64_t{5} << 30), "5.0 GiB");
}

}  // namespace
}  // namespace tcb
