// Embind glue for the explorable's computations: JSON strings in and out, errors as values
// (JsonResult, registered in attention_bindings.cpp). Reading, checking and arithmetic all live
// in the core (explore_json.h).
#include <emscripten/bind.h>

#include <string>

#include "attention/json/explore_json.h"
#include "json_result.h"

namespace {

using attn::bindings::JsonResult;
using attn::bindings::from_json_or_error;

JsonResult softmax_backward(const std::string& request) {
  return from_json_or_error(attn::softmax_backward_json(request));
}

JsonResult head_dim_study(const std::string& request) {
  return from_json_or_error(attn::head_dim_study_json(request));
}

JsonResult multi_head(const std::string& request) {
  return from_json_or_error(attn::multi_head_json(request));
}

JsonResult random_matrix(const std::string& request) {
  return from_json_or_error(attn::random_matrix_json(request));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_explore) {
  emscripten::function("softmaxBackwardJson", &softmax_backward);
  emscripten::function("headDimStudyJson", &head_dim_study);
  emscripten::function("multiHeadJson", &multi_head);
  emscripten::function("randomMatrixJson", &random_matrix);
}
