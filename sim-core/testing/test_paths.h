// Where the tests find the source tree (golden files, shared test cases) and the tcpsim binary. The
// paths are compiled into test_paths.cc alone, so that the other test files compile to the same
// objects in every checkout and the compiler cache can share them.
#pragma once

#include <filesystem>

namespace tcb {

// sim-core/ of the checkout the tests were built from.
std::filesystem::path TestSourceDir();
// The tcpsim built beside the tests.
std::filesystem::path TestTcpsimBinary();

}  // namespace tcb
