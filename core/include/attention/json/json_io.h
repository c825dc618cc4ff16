// The JSON shapes shared by the CLI and the wasm module: attention input in, trace out.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/article/next_word.h"
#include "attention/reference/trace.h"

namespace attn {

// {"tokens":["the","cat"],"q":[[...]],"k":[[...]],"v":[[...]],"mask":"causal","scale":"sqrt_d"}
// mask and scale are optional; the defaults are the article's attention.
//   mask:  "causal" (the default), "none" (every token sees every token), or "causal_zero" (the
//          FAQ's mistake: causal, but hidden cells get the score 0 instead of -infinity, so
//          weight leaks onto the future words).
//   scale: "sqrt_d" (÷ √head_dim, the default), "d" (÷ head_dim) or "none" (÷ 1).
// Returns the validated input or the first error.
std::variant<AttentionInput, InputError> parse_attention_input(std::string_view json_text);

// The trace as one JSON object: tokens, mask ("causal", "none" or "causal_zero"), scale
// ("sqrt_d", "d" or "none"), token_count, head_dim, q, k, v, score_terms, scores,
// scale_divisor (√d, d or 1), scaled, masked ({"non_finite":"-Infinity"} where -infinity; 0 in hidden cells under
// "causal_zero"), hidden (T×T booleans: true where the mask hid the cell, j > i under "causal"
// and "causal_zero", all false under "none"), exponentials, row_max, row_shifted, row_totals, weights, weight_sums,
// weighted_values, out.
std::string trace_to_json(const Trace& trace);

// The input in the shape parse_attention_input reads, mask and scale always written.
std::string attention_input_to_json(const AttentionInput& input);
std::string vocabulary_to_json(const article::Vocabulary& vocabulary);
std::string next_word_to_json(const NextWordScores& scores);

}  // namespace attn

namespace attn {

// A JSON array of exactly `expected_length` finite numbers (within the value limit), such as
// one output row handed back to the step-6 demonstration. `field` names it in errors.
std::variant<std::vector<float>, InputError> parse_number_row(std::string_view json_text,
                                                              std::string_view field,
                                                              std::size_t expected_length);

// The article's data in one object: two_words, four_words, four_words_worked_rows, vocabulary.
std::string article_data_to_json();

// [{"what","printed","computed","matches"}] for every number the article prints.
std::string claim_checks_to_json();

// [{"name","isa","vector_width","query_rows","output_columns","tile_keys"}] for every kernel
// compiled into this build, in the registry's order (KernelInfo says what each field means).
std::string kernel_registry_to_json();

}  // namespace attn
