// Enum <-> name tables for the scenario's string enums: one array of names per enum, in enum order.
#pragma once

#include <cstddef>
#include <string_view>

namespace tcb {

template <class Enum, size_t N>
bool ParseEnumName(const std::string_view (&names)[N], std::string_view name, Enum* out) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) {
      *out = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}

template <class Enum, size_t N>
std::string_view EnumName(const std::string_view (&names)[N], Enum value) {
  return names[static_cast<size_t>(value)];
}

}  // namespace tcb
