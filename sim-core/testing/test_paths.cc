#include "testing/test_paths.h"

namespace tcb {

std::filesystem::path TestSourceDir() { return TCBSIM_SOURCE_DIR; }
std::filesystem::path TestTcpsimBinary() { return TCPSIM_BINARY; }

}  // namespace tcb
