// The SIMD backend of the vector vocabulary that this compilation targets, if any: WebAssembly
// SIMD128, x86 SSE2 or ARM NEON on AArch64, unless ATTN_NO_SIMD asks for the portable scalar
// one only. Defines ATTN_SIMD_BACKEND (the backend's type in namespace attn) when there is one.
//
// NEON is chosen on AArch64 only, not wherever __ARM_NEON is defined: f32x4_neon.h uses
// intrinsics that 32-bit ARM (ARMv7 NEON) lacks: vzip1q_f32 and vzip2q_f32 (the transpose),
// vmaxvq_u32 (the across-vector max of the range check) are AArch64-only, and vcvtnq_s32_f32
// (round to nearest even) needs ARMv8. A 32-bit ARM build therefore takes the scalar backend
// rather than failing to compile.
#pragma once

#if !defined(ATTN_NO_SIMD) && defined(__wasm_simd128__)
#include "attention/kernels/vec/f32x4_wasm_simd128.h"
#define ATTN_SIMD_BACKEND vec::WasmSimd128F32x4
#elif !defined(ATTN_NO_SIMD) && defined(__SSE2__)
#include "attention/kernels/vec/f32x4_sse2.h"
#define ATTN_SIMD_BACKEND vec::Sse2F32x4
#elif !defined(ATTN_NO_SIMD) && (defined(__aarch64__) || defined(_M_ARM64))
#include "attention/kernels/vec/f32x4_neon.h"
#define ATTN_SIMD_BACKEND vec::NeonF32x4
#endif
