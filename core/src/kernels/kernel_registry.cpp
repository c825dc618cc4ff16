#include <string>
#include <string_view>
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

// The ISA as kernel names spell it: "wasm-simd128" is "wasmsimd" (as XNNPACK spells it).
std::string_view name_tag(std::string_view isa) {
  return isa == "wasm-simd128" ? std::string_view("wasmsimd") : isa;
}

// "attend__<isa>_<rows>x<columns>", then "_tiled<keys>" for a tiled softmax.
std::string kernel_name(const KernelInfo& kernel) {
  std::string name = "attend__";
  name += name_tag(kernel.isa);
  name += '_' + std::to_string(kernel.query_rows) + 'x' + std::to_string(kernel.output_columns);
  if (kernel.tile_keys != 0) name += "_tiled" + std::to_string(kernel.tile_keys);
  return name;
}

// The three kernels of one backend: one query row over vectors of V::width keys, and the
// register-blocked rows untiled and tiled. `simd`: V runs on the CPU's vector registers.
template <class V>
void add_backend(std::vector<KernelInfo>& kernels, bool simd) {
  kernels.push_back({nullptr, V::isa, V::width, 0, &any_shape, &one_row_of_scores,
                     &detail::attend_f32x4<V>, 1, V::width, simd});
  kernels.push_back({nullptr, V::isa, V::width, 0, &detail::blocked_supports, &blocked_scratch<0>,
                     &attend_blocked_kernel<V, 0>, detail::block_rows, detail::panel_keys, simd});
  kernels.push_back({nullptr, V::isa, V::width, tile_keys, &detail::blocked_supports,
                     &blocked_scratch<tile_keys>, &attend_blocked_kernel<V, tile_keys>,
                     detail::block_rows, detail::panel_keys, simd});
}

struct Registry {
  std::vector<std::string> names;  // what each entry's name points into; never resized after
  std::vector<KernelInfo> kernels;
};

Registry build_registry() {
  Registry registry;
  add_backend<vec::ScalarF32x4>(registry.kernels, false);
#if defined(ATTN_SIMD_BACKEND)
  add_backend<ATTN_SIMD_BACKEND>(registry.kernels, true);
#endif
  registry.names.reserve(registry.kernels.size());
  for (KernelInfo& kernel : registry.kernels) {
    registry.names.push_back(kernel_name(kernel));
    kernel.name = registry.names.back().c_str();
  }
  return registry;
}

// Whether `a`'s backend is preferred to `b`'s for the default: SIMD over the scalar
// emulation, then the wider vectors.
bool better_backend(const KernelInfo& a, const KernelInfo& b) {
  if (a.simd != b.simd) return a.simd;
  return a.vector_width > b.vector_width;
}

// The kernel of `isa` with these properties that supports the shape, or nullptr.
const KernelInfo* find_supporting(std::string_view isa, std::size_t token_count,
                                  std::size_t head_dim, bool blocked, bool tiled) {
  for (const KernelInfo& kernel : kernel_registry())
    if (isa == kernel.isa && (kernel.query_rows > 1) == blocked &&
        (kernel.tile_keys != 0) == tiled && kernel.supports(token_count, head_dim))
      return &kernel;
  return nullptr;
}

}  // namespace

const std::vector<KernelInfo>& kernel_registry() {
  static const Registry registry = build_registry();
  return registry.kernels;
}

const KernelInfo* find_kernel(std::string_view name) {
  for (const KernelInfo& kernel : kernel_registry())
    if (name == kernel.name) return &kernel;
  return nullptr;
}

const KernelInfo& default_kernel(std::size_t token_count, std::size_t head_dim) {
  const KernelInfo* backend = &kernel_registry().front();
  for (const KernelInfo& kernel : kernel_registry())
    if (better_backend(kernel, *backend)) backend = &kernel;
  const bool blocked = token_count >= blocked_min_tokens;
  const bool tiled = token_count * head_dim >= tiled_min_elements;
  if (blocked)
    if (const KernelInfo* kernel = find_supporting(backend->isa, token_count, head_dim, true, tiled))
      return *kernel;
  // One query row at a time supports every shape.
  return *find_supporting(backend->isa, token_count, head_dim, false, false);
}

}  // namespace attn
