// The calls that take a JSON request and answer with JSON or the core's error, in one place
// for both ways the core is bound: Embind (attention_bindings.cpp, the full builds) and the
// embed build's plain C exports (embed_exports.cpp).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "attention/article/next_word.h"
#include "attention/json/json_io.h"
#include "attention/reference/trace.h"
#include "json_result.h"

namespace attn::bindings {

// The full trace of one head for a request (tokens, q, k, v, mask, scale).
inline JsonResult trace_json(const std::string& input_json) {
  const auto parsed = parse_attention_input(input_json);
  if (const auto* error = std::get_if<InputError>(&parsed)) return failure(*error);
  return success(trace_to_json(compute_trace(std::get<AttentionInput>(parsed))));
}

// The article's next-word scores for one row of the embedding width.
inline JsonResult next_word_json(const std::string& row_json) {
  const article::Vocabulary vocabulary = article::vocabulary();
  const auto parsed = parse_number_row(row_json, "row", vocabulary.vectors.cols);
  if (const auto* error = std::get_if<InputError>(&parsed)) return failure(*error);
  const std::vector<float>& row = std::get<std::vector<float>>(parsed);
  return success(next_word_to_json(score_next_word(row.data(), vocabulary)));
}

}  // namespace attn::bindings
