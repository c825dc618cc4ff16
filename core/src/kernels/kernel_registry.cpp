#include <vector>

#include "kernels/attend_blocked.h"
#include "kernels/attend_f32x4.h"
#include "attention/kernels/kernels.h"
#include "attention/kernels/vec/f32x4_scalar.h"
#include "kernels/simd_backend.h"

namespace attn {

namespace {

// Measured at d = 64 (SIMD128 under V8): below 12 tokens, packing keys and blocking four rows
// costs more than it saves (T = 8: even, T = 16: blocked 35 % faster). The untiled and the
// tiled kernel run within 3 % of each other from T = 256 to 8192 (d = 64 and 128), but the
// untiled one keeps all the packed keys and values, 2·T·d floats besides q, k and v. From
// T·d = 2^20 on (T = 16 384 at d = 64) that is 8 MiB and more, and the tiled kernel, whose
// scratch stays about 2·512·d floats, is the default: T = 65 536 at d = 64 runs in a 64 MiB
// heap.
constexpr std::size_t blocked_min_tokens = 12;
constexpr std::size_t tiled_min_elements = std::size_t{1} << 20;
// 256 query rows over 256-key tiles: at T = 32 768, d = 64, 12 % faster than 64 over 64 (each
// key is packed a quarter as often), at about 2·512·d floats of scratch.
constexpr std::size_t group_rows = 256;
constexpr std::size_t tile_keys = 256;

bool any_shape(std::size_t, std::size_t) { return true; }
std::size_t one_row_of_scores(std::size_t token_count, std::size_t) { return token_count; }

template <std::size_t Tile>
std::size_t blocked_scratch(std::size_t token_count, std::size_t head_dim) {
  return detail::blocked_scratch_floats(token_count, head_dim, {group_rows, Tile});
}

template <class V, std::size_t Tile>
bool attend_blocked_kernel(float* out, const float* q, const float* k, const float* v,
                           std::size_t token_count, std::size_t head_dim, MaskKind mask,
                           float* scratch) {
  return detail::attend_blocked<V>(out, q, k, v, token_count, head_dim, mask, scratch,
                            {group_rows, Tile});
}

// The three kernels of one backend, in the order default_kernel() relies on.
template <class V>
void add_backend(std::vector<KernelInfo>& kernels, const char* rows_name, const char* blocked_name,
                 const char* tiled_name) {
  kernels.push_back({rows_name, V::isa, V::width, 0, &any_shape, &one_row_of_scores,
                     &detail::attend_f32x4<V>});
  kernels.push_back({blocked_name, V::isa, V::width, 0, &detail::blocked_supports,
                     &blocked_scratch<0>, &attend_blocked_kernel<V, 0>});
  kernels.push_back({tiled_name, V::isa, V::width, tile_keys, &detail::blocked_supports,
                     &blocked_scratch<tile_keys>, &attend_blocked_kernel<V, tile_keys>});
}

std::vector<KernelInfo> build_registry() {
  std::vector<KernelInfo> kernels;
  add_backend<vec::ScalarF32x4>(kernels, "attend__scalar_1x4", "attend__scalar_4x8",
                                "attend__scalar_4x8_tiled256");
#if defined(ATTN_SIMD_BACKEND)
  add_backend<ATTN_SIMD_BACKEND>(kernels, ATTN_SIMD_NAME("1x4"), ATTN_SIMD_NAME("4x8"),
                                 ATTN_SIMD_NAME("4x8_tiled256"));
#endif
  return kernels;
}

}  // namespace

const std::vector<KernelInfo>& kernel_registry() {
  static const std::vector<KernelInfo> kernels = build_registry();
  return kernels;
}

const KernelInfo* find_kernel(std::string_view name) {
  for (const KernelInfo& kernel : kernel_registry())
    if (name == kernel.name) return &kernel;
  return nullptr;
}

const KernelInfo& default_kernel(std::size_t token_count, std::size_t head_dim) {
  const std::vector<KernelInfo>& kernels = kernel_registry();
  const std::size_t backend = kernels.size() - 3;  // the last backend added is the widest
  const KernelInfo& rows = kernels[backend];
  const KernelInfo& blocked = kernels[backend + 1];
  const KernelInfo& tiled = kernels[backend + 2];
  if (token_count < blocked_min_tokens || !blocked.supports(token_count, head_dim)) return rows;
  return token_count * head_dim < tiled_min_elements ? blocked : tiled;
}

}  // namespace attn
