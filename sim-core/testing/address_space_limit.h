// Tests that can grow memory run in a child process (a gtest death test) under an address-space
// limit (RLIMIT_AS), so that a broken memory account fails the test rather than the shared machine.
// The sanitizer build, whose shadow memory no RLIMIT_AS holds, runs under ASan's hard RSS limit
// instead (set for the whole test binary in tests/memory_limit_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdlib>
#include <functional>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TCBSIM_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TCBSIM_UNDER_ASAN 1
#endif

namespace tcb::testing {

inline constexpr rlim_t kChildAddressSpace = rlim_t{2} << 30;

// In the child: the limit, then `body`'s exit code.
[[noreturn]] inline void RunLimited(const std::function<int()>& body) {
#if !defined(TCBSIM_UNDER_ASAN)
  const rlimit limit{kChildAddressSpace, kChildAddressSpace};
  if (setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(90);
#endif
  std::_Exit(body());
}

// Runs `body` in a child process under an address-space limit of kChildAddressSpace; the test
// passes when it returns 0. What fails inside should say why on stderr (gtest shows it).
inline void InChildUnderLimit(const std::function<int()>& body) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(RunLimited(body), ::testing::ExitedWithCode(0), "");
}

}  // namespace tcb::testing
