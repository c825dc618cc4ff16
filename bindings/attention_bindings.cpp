// Embind glue only: strings in, strings out, errors as values. All parsing, validation and
// arithmetic live in the core; the JS wrapper (web/attention-explainer.js) turns these results
// into objects and exceptions. JSON crosses the boundary so that the page and the CLI share one
// parser and report the same errors, and so that no Embind handle needs deleting.
#include <emscripten/bind.h>

#include <string>
#include <variant>

#include "attention/article/article_data.h"
#include "attention/json/json_io.h"
#include "attention/article/next_word.h"
#include "attention/reference/trace.h"
#include "json_result.h"

namespace {

using attn::bindings::JsonResult;
using attn::bindings::failure;
using attn::bindings::success;

JsonResult trace_json(const std::string& input_json) {
  const auto parsed = attn::parse_attention_input(input_json);
  if (const auto* error = std::get_if<attn::InputError>(&parsed)) return failure(*error);
  return success(attn::trace_to_json(attn::compute_trace(std::get<attn::AttentionInput>(parsed))));
}

JsonResult next_word_json(const std::string& row_json) {
  const attn::article::Vocabulary vocabulary = attn::article::vocabulary();
  const auto parsed = attn::parse_number_row(row_json, "row", vocabulary.vectors.cols);
  if (const auto* error = std::get_if<attn::InputError>(&parsed)) return failure(*error);
  const std::vector<float>& row = std::get<std::vector<float>>(parsed);
  return success(attn::next_word_to_json(attn::score_next_word(row.data(), vocabulary)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  emscripten::value_object<JsonResult>("JsonResult")
      .field("ok", &JsonResult::ok)
      .field("json", &JsonResult::json)
      .field("error", &JsonResult::error);
  emscripten::function("traceJson", &trace_json);
  emscripten::function("nextWordJson", &next_word_json);
  emscripten::function("articleJson", &attn::article_data_to_json);
  emscripten::function("claimChecksJson", &attn::claim_checks_to_json);
}
