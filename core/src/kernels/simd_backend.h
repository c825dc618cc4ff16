// The SIMD backend of the vector vocabulary that this compilation targets, if any: WebAssembly
// SIMD128, x86 SSE2 or ARM NEON, unless ATTN_NO_SIMD asks for the portable scalar one only.
// Defines ATTN_SIMD_BACKEND (the backend's type in namespace attn) and ATTN_SIMD_NAME(kernel)
// (a kernel name with the backend's tag) when there is one.
#pragma once

#if !defined(ATTN_NO_SIMD) && defined(__wasm_simd128__)
#include "attention/kernels/vec/f32x4_wasm_simd128.h"
#define ATTN_SIMD_BACKEND vec::WasmSimd128F32x4
#define ATTN_SIMD_NAME(kernel) "attend__wasmsimd_" kernel
#elif !defined(ATTN_NO_SIMD) && defined(__SSE2__)
#include "attention/kernels/vec/f32x4_sse2.h"
#define ATTN_SIMD_BACKEND vec::Sse2F32x4
#define ATTN_SIMD_NAME(kernel) "attend__sse2_" kernel
#elif !defined(ATTN_NO_SIMD) && defined(__ARM_NEON)
#include "attention/kernels/vec/f32x4_neon.h"
#define ATTN_SIMD_BACKEND vec::NeonF32x4
#define ATTN_SIMD_NAME(kernel) "attend__neon_" kernel
#endif
