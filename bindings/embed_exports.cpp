// The embed build's interface: the JSON calls the elements make (the trace, the article, the
// next word, the vocabulary), as plain C exports; the Embind builds have the same and more.
// Embind's runtime is most of the generated glue (6.9 of 9 KB gzipped, with its type registry
// in the .wasm besides), and the embed build, which every page embedding an element downloads,
// only ever passes strings. So a request goes in as UTF-8 bytes the caller placed in the
// module's memory (malloc, then free after the call), and the answer stays in one buffer here
// until the next call, read through attn_answer_data and attn_answer_length.
// web/api/core-loader.js gives these exports the Embind builds' method names and shapes.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>
#include <utility>

#include "attention/article/article_data.h"
#include "attention/json/vocabulary_json.h"
#include "json_calls.h"

namespace {

std::string answer;

// Keeps the answer; 1 when it is JSON, 0 when it is the core's one-line error.
int keep(attn::bindings::JsonResult result) {
  answer = result.ok ? std::move(result.json) : std::move(result.error);
  return result.ok ? 1 : 0;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int attn_trace_json(const char* request, std::size_t length) {
  return keep(attn::bindings::trace_json(std::string(request, length)));
}

EMSCRIPTEN_KEEPALIVE int attn_next_word_json(const char* row, std::size_t length) {
  return keep(attn::bindings::next_word_json(std::string(row, length)));
}

EMSCRIPTEN_KEEPALIVE void attn_article_json() { answer = attn::article_data_to_json(); }

EMSCRIPTEN_KEEPALIVE void attn_vocabulary_json() { answer = attn::vocabulary_json(); }

EMSCRIPTEN_KEEPALIVE const char* attn_answer_data() { return answer.data(); }

EMSCRIPTEN_KEEPALIVE std::size_t attn_answer_length() { return answer.size(); }

}  // extern "C"
