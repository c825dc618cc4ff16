// The fast attention kernels: output rows only (no trace), for the same inputs as the
// reference. One registry lists every kernel compiled into this build; dispatch, the tests and
// the benchmark all iterate it, so a new kernel is tested as soon as it is registered.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "attention/attention_input.h"

namespace attn {

// out: [T][d]; q, k, v: [T][d] row-major; scratch: [T] floats the kernel may overwrite.
// Computes softmax(mask(q kᵀ / √d)) v with a max-subtracted (overflow-free) softmax.
using AttendFn = void (*)(float* out, const float* q, const float* k, const float* v,
                          std::size_t token_count, std::size_t head_dim, MaskKind mask,
                          float* scratch);

struct KernelInfo {
  const char* name;          // op__isa_tile, e.g. "attend__sse2_f32x4"
  const char* isa;           // "scalar", "sse2", "neon", "wasm-simd128"
  std::size_t vector_width;  // floats per vector register of the backend
  AttendFn attend;
};

// Every kernel available in this build, the portable scalar backend first. The trace
// (compute_trace) is the reference they are all tested against; it is not a kernel.
const std::vector<KernelInfo>& kernel_registry();

// nullptr when no kernel of that name is compiled in.
const KernelInfo* find_kernel(std::string_view name);

// The kernel used when the caller does not name one: the widest SIMD backend compiled in.
const KernelInfo& default_kernel();

}  // namespace attn
