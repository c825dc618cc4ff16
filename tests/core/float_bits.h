// A float's or a double's bit pattern and back, for the tests that walk every magnitude by
// drawing random bits (std::bit_cast, which the WebAssembly build's C++ library lacks).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace attn::test {

template <typename To, typename From>
To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From>);
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

}  // namespace attn::test
