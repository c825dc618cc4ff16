// The fast attention kernels: output rows only (no trace), for the same inputs as the
// reference. One registry lists every kernel compiled into this build; dispatch, the tests and
// the benchmark all iterate it, so a new kernel is tested as soon as it is registered.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "attention/reference/attention_input.h"

namespace attn {

// out: [T][d]; q, k, v: [T][d] row-major; scratch: scratch_floats(T, d) floats the kernel may
// overwrite. Computes softmax(mask(q kᵀ / √d)) v with a max-subtracted (overflow-free) softmax.
// `out` may be the same buffer as `q` (each query row is read before its output is written).
// Returns false, with `out` of no use, when a value of q, k or v is NaN, infinite or beyond
// ±max_abs_float; a kernel finds that out before any arithmetic on the value (the untiled
// blocked kernel as it packs its operands, which spares a pass over them; the others first).
using AttendFn = bool (*)(float* out, const float* q, const float* k, const float* v,
                          std::size_t token_count, std::size_t head_dim, MaskKind mask,
                          float* scratch);

// One entry of the registry. The registry is data: each entry says its backend and its shape
// (query rows × output columns, keys per softmax tile), and its name is derived from them, so
// the name and the default choice cannot drift from what the kernel is.
struct KernelInfo {
  const char* name;          // op__isa_tile, derived from the fields below: "attend__sse2_1x4"
                             // (one query row, 4-float vectors), "attend__sse2_4x8" (4 query
                             // rows × 8 output columns), "attend__sse2_4x8_tiled256" (online
                             // softmax over 256-key tiles)
  const char* isa;           // "scalar", "sse2", "neon", "wasm-simd128"
  std::size_t vector_width;  // floats per vector register of the backend
  std::size_t tile_keys;     // keys per softmax tile; 0 when a whole row is one tile
  bool (*supports)(std::size_t token_count, std::size_t head_dim);
  std::size_t (*scratch_floats)(std::size_t token_count, std::size_t head_dim);
  AttendFn attend;
  // Last, so that a kernel written out by hand for a test (name to attend) stays a valid
  // aggregate:
  std::size_t query_rows = 0;      // query rows computed together: 1, or 4 (register-blocked)
  std::size_t output_columns = 0;  // keys per score block and output columns per sum block
  bool simd = false;  // on the CPU's vector registers (false: the portable scalar emulation)
};

// Every kernel available in this build, the portable scalar backend first. The trace
// (compute_trace) is the reference they are all tested against; it is not a kernel.
const std::vector<KernelInfo>& kernel_registry();

// nullptr when no kernel of that name is compiled in.
const KernelInfo* find_kernel(std::string_view name);

// The kernel used when the caller does not name one, chosen by the entries' properties, not
// their order: the backend is a SIMD one over the scalar emulation, then the widest; for that
// backend, the fastest kernel for the shape (measured by the benchmark): one query row at a
// time for very short sequences or a head_dim the blocked kernels do not support, register-
// blocked rows up to a few thousand tokens, the tiled online softmax beyond. Every shape is
// supported by some kernel.
const KernelInfo& default_kernel(std::size_t token_count, std::size_t head_dim);

}  // namespace attn
