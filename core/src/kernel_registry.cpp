#include <vector>

#include "attend_f32x4.h"
#include "attention/kernels.h"
#include "attention/vec/f32x4_scalar.h"

#if !defined(ATTN_NO_SIMD) && defined(__wasm_simd128__)
#include "attention/vec/f32x4_wasm_simd128.h"
#define ATTN_HAVE_WASM_SIMD128 1
#elif !defined(ATTN_NO_SIMD) && defined(__SSE2__)
#include "attention/vec/f32x4_sse2.h"
#define ATTN_HAVE_SSE2 1
#elif !defined(ATTN_NO_SIMD) && defined(__ARM_NEON)
#include "attention/vec/f32x4_neon.h"
#define ATTN_HAVE_NEON 1
#endif

namespace attn {

namespace {

template <class V>
KernelInfo make_f32x4_kernel(const char* name) {
  return KernelInfo{name, V::isa, V::width, &detail::attend_f32x4<V>};
}

std::vector<KernelInfo> build_registry() {
  std::vector<KernelInfo> kernels;
  kernels.push_back(make_f32x4_kernel<vec::ScalarF32x4>("attend__scalar_f32x4"));
#if defined(ATTN_HAVE_WASM_SIMD128)
  kernels.push_back(make_f32x4_kernel<vec::WasmSimd128F32x4>("attend__wasmsimd_f32x4"));
#elif defined(ATTN_HAVE_SSE2)
  kernels.push_back(make_f32x4_kernel<vec::Sse2F32x4>("attend__sse2_f32x4"));
#elif defined(ATTN_HAVE_NEON)
  kernels.push_back(make_f32x4_kernel<vec::NeonF32x4>("attend__neon_f32x4"));
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

const KernelInfo& default_kernel() { return kernel_registry().back(); }

}  // namespace attn
