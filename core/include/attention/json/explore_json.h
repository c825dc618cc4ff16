// JSON in and out for the explorable's computations: the softmax backward pass, the head_dim
// demonstration, the multi-head layer and seeded random tables. Shared by the wasm module and
// the tests, so every caller gets the same checks and the same messages, named by JSON path.
//
// Each function takes one JSON request object and returns the JSON answer, or the first problem
// found. Members not listed are refused ("colour: is not a known field ..."); seeds are whole
// numbers from 0 to 2^53 - 1 (JavaScript's safe integers).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "attention/reference/attention_input.h"
#include "attention/layers/head_dim_study.h"
#include "attention/layers/multi_head.h"

namespace attn {

using JsonOrError = std::variant<std::string, InputError>;

// Request: {"weights": p, "upstream": g} where p is one row of softmax weights (numbers in
// [0, 1] adding up to 1 within 1e-3; at most 64) or a matrix of such rows (at most 64), and g
// (dL/dp) has the same shape with finite values within ±1e15.
// Answer: {"gradient": dL/dx, same shape, p_j (g_j - g·p), exactly 0 where p_j is 0,
//          "upstream_dot_weights": g·p, a number for a row or one per row for a matrix}.
JsonOrError softmax_backward_json(std::string_view request);

// Request (every member optional): {"head_dims": [1,2,4,8,16,32,64,128], "tokens": 8,
//   "samples": 256, "seed": 1, "scale": "sqrt_d" | "d" | "none" (what the scaled side divides by),
//   "mask": "none" | "causal", "compare": [4, 128]}.
// Answer: {"head_dims", "tokens", "samples", "seed", "scale", "mask", "max_entropy": [T],
//   "points": [{"head_dim", "scale_divisor", "raw_score_spread", "scaled_score_spread",
//               "raw_score_spread_standard_error", "scaled_score_spread_standard_error",
//               "unscaled": figures, "scaled": figures}],
//   "comparison": {"from_head_dim", "to_head_dim", "raw_spread_ratio", "scaled_spread_ratio",
//                  "expected_raw_spread_ratio", "raw_spread_ratio_standard_error",
//                  "scaled_spread_ratio_standard_error"}}
// where figures = {"largest_weight": [T], "entropy": [T], "jacobian_norm": [T],
//   "mean_largest_weight", "mean_entropy", "mean_jacobian_norm", "gradient_norm", and the
//   "_standard_error" of each of those four}
// (see head_dim_study.h for what each one measures). A ratio over a spread of 0 is null. A
// standard error over one sample does not exist: {"non_finite": "NaN"}.
JsonOrError head_dim_study_json(std::string_view request);
std::string head_dim_study_to_json(const HeadDimStudy& study);

// Request: {"tokens": ["the", "cat", ...], "d_model": 16, "n_heads": 4, "seed": 1,
//   "x": [[...], ...] (optional: the token vectors, T × d_model; seeded when absent),
//   "mask": "causal" | "none" | "causal_zero", "scale": "sqrt_d" | "d" | "none"}.
// Only tokens is required; d_model defaults to x's width, or 16. The weights are always seeded
// (multi_head.h says how).
// Answer: {"tokens", "d_model", "n_heads", "head_dim", "mask", "scale", "x",
//   "heads": [{"w_q", "w_k", "w_v", "trace": the head's trace, as trace_to_json writes it}],
//   "concat", "w_o", "out"}.
JsonOrError multi_head_json(std::string_view request);
std::string multi_head_to_json(const MultiHeadLayer& layer);

// Request: {"rows": 2, "cols": 4, "seed": 1, "min": -1, "max": 1, "decimals": 1}; rows and cols
// are required, at most 65536 values in all. Answer: [[...], ...], rows × cols values uniform on
// the decimal grid (seeded_random.h), each written as its shortest decimal text (0.3, not
// 0.300000012).
JsonOrError random_matrix_json(std::string_view request);

}  // namespace attn
