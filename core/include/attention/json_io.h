// The JSON shapes shared by the CLI and the wasm module: attention input in, trace out.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "attention/attention_input.h"
#include "attention/next_word.h"
#include "attention/trace.h"

namespace attn {

// {"tokens":["the","cat"],"q":[[...]],"k":[[...]],"v":[[...]],"mask":"causal"}
// mask is optional ("causal" by default). Returns the validated input or the first error.
std::variant<AttentionInput, InputError> parse_attention_input(std::string_view json_text);

// The trace as one JSON object: tokens, mask, token_count, head_dim, q, k, v, score_terms,
// scores, scale_divisor, scaled, masked (null where -infinity), exponentials, row_max,
// row_shifted, row_totals, weights, weight_sums, weighted_values, out.
std::string trace_to_json(const Trace& trace);

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

// [{"name","isa","vector_width"}] for every kernel compiled into this build.
std::string kernel_registry_to_json();

}  // namespace attn
