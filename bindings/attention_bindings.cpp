// Embind glue only: strings in, strings out, errors as values. All parsing, validation and
// arithmetic live in the core; the JS wrapper (web/api/attention-api.js) turns these results
// into objects and exceptions. JSON crosses the boundary so that the page and the CLI share one
// parser and report the same errors, and so that no Embind handle needs deleting.
#include <emscripten/bind.h>

#include "attention/article/article_data.h"
#include "json_calls.h"
#include "json_result.h"

using attn::bindings::JsonResult;

EMSCRIPTEN_BINDINGS(attention_core) {
  emscripten::value_object<JsonResult>("JsonResult")
      .field("ok", &JsonResult::ok)
      .field("json", &JsonResult::json)
      .field("error", &JsonResult::error);
  emscripten::function("traceJson", &attn::bindings::trace_json);
  emscripten::function("nextWordJson", &attn::bindings::next_word_json);
  emscripten::function("articleJson", &attn::article_data_to_json);
  emscripten::function("claimChecksJson", &attn::claim_checks_to_json);
}
