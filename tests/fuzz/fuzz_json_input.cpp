// Fuzz target: the JSON reader (attn::json::parse) and the attention input parser the CLI and
// the wasm module's run() use (attn::parse_attention_input), on arbitrary bytes.
//   - Neither may crash, leak or hit undefined behaviour, whatever the bytes.
//   - A refusal is one line that starts with the JSON path at fault and ": ".
//   - An accepted input passes validate_input, its trace holds every invariant and matches the
//     float64 reference (fuzz_support.h), the trace's JSON reads back as JSON, and the input
//     written as JSON and read again is the same input, bit for bit.
// The same bytes also go through parse_number_row (the step-6 row the module hands back).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/reference/trace.h"
#include "fuzz_support.h"

namespace {

void check_refusal(const attn::InputError& error) {
  FUZZ_CHECK(!error.path.empty(), error.message);
  FUZZ_CHECK(error.message.rfind(error.path + ": ", 0) == 0, error.message);
  FUZZ_CHECK(error.message.size() > error.path.size() + 2, error.message);
  FUZZ_CHECK(error.message.find('\n') == std::string::npos, error.message);
}

bool same_matrix(const attn::Matrix& a, const attn::Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.values.size() == b.values.size() &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const attn::json::ParseResult parsed = attn::json::parse(text);
  if (!parsed.value) {
    FUZZ_CHECK(parsed.error.rfind("not valid JSON at line ", 0) == 0, parsed.error);
    FUZZ_CHECK(parsed.error.find('\n') == std::string::npos, parsed.error);
  } else {
    FUZZ_CHECK(parsed.error.empty(), parsed.error);
  }

  auto result = attn::parse_attention_input(text);
  if (auto* error = std::get_if<attn::InputError>(&result)) {
    check_refusal(*error);
  } else {
    FUZZ_CHECK(parsed.value.has_value(), "input accepted although json::parse refused it");
    const attn::AttentionInput& input = std::get<attn::AttentionInput>(result);
    const std::optional<attn::InputError> invalid = attn::validate_input(input);
    FUZZ_CHECK(!invalid, invalid ? invalid->message : "");

    const attn::Trace trace = attn::compute_trace(input);
    attn_fuzz::check_trace(input, trace);

    const std::string trace_json = attn::trace_to_json(trace);
    const attn::json::ParseResult trace_parsed = attn::json::parse(trace_json);
    FUZZ_CHECK(trace_parsed.value && trace_parsed.value->type == attn::json::Value::Type::object,
               trace_parsed.error);
    const attn::json::Value* out = trace_parsed.value->find("out");
    FUZZ_CHECK(out && out->array.size() == input.tokens.size(), "trace JSON out");

    // Written back as JSON and read again: the same input.
    auto again = attn::parse_attention_input(attn::attention_input_to_json(input));
    auto* round_trip = std::get_if<attn::AttentionInput>(&again);
    FUZZ_CHECK(round_trip, std::get<attn::InputError>(again).message);
    FUZZ_CHECK(round_trip->tokens == input.tokens, "tokens round trip");
    FUZZ_CHECK(same_matrix(round_trip->q, input.q) && same_matrix(round_trip->k, input.k) &&
                   same_matrix(round_trip->v, input.v),
               "q, k, v round trip");
    FUZZ_CHECK(round_trip->mask == input.mask && round_trip->mask_fill == input.mask_fill &&
                   round_trip->scale == input.scale,
               "mask and scale round trip");
  }

  auto row = attn::parse_number_row(text, "row", 3);
  if (auto* error = std::get_if<attn::InputError>(&row)) {
    check_refusal(*error);
  } else {
    const std::vector<float>& values = std::get<std::vector<float>>(row);
    FUZZ_CHECK(values.size() == 3, "row length");
    for (float x : values)
      FUZZ_CHECK(std::isfinite(x) && std::fabs(x) <= attn::Limits::max_abs_value * (1 + 1e-7),
                 attn_fuzz::num(x));
  }
  return 0;
}
