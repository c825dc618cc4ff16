// The fast path for callers with their own buffers (the wasm module's attend()): checks a call
// before any arithmetic, then runs one kernel in a workspace that is reused from call to call.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/kernels/kernels.h"

namespace attn {

// No trace is kept on this path, so sequences may be far longer than the trace's limits.
struct AttendLimits {
  static constexpr std::size_t max_tokens = std::size_t{1} << 20;
  static constexpr std::size_t max_head_dim = 4096;
  static constexpr std::size_t max_elements = std::size_t{1} << 24;  // t·d: 64 MiB per matrix
};

// Sizes within AttendLimits and supported by `kernel`. Errors name "t", "d" or "kernel".
std::optional<InputError> check_attend_shape(std::size_t token_count, std::size_t head_dim,
                                             const KernelInfo& kernel);

class AttendWorkspace {
 public:
  // Makes room for q, k and v (the output is written over q) and the kernel's scratch, and
  // returns where q starts (k and v follow it, t·d floats apart). Grows, never shrinks, so
  // repeated calls of one shape allocate nothing.
  std::variant<float*, InputError> prepare(std::size_t token_count, std::size_t head_dim,
                                           const KernelInfo& kernel);

  // After prepare() with the same arguments and q, k, v written: checks every value (finite,
  // within Limits::max_abs_value, errors naming "q[row][col]"), then runs the kernel. The
  // output is then where q was.
  std::optional<InputError> run(std::size_t token_count, std::size_t head_dim, MaskKind mask,
                                const KernelInfo& kernel);

  std::size_t capacity_floats() const { return buffer_.size(); }

 private:
  std::vector<float> buffer_;  // [3][t][d] q, k, v, then the kernel's scratch
};

}  // namespace attn
