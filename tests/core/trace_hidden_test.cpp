// Which cells the mask hid: the trace's `hidden` table and its JSON, for every mask variant, in
// the single-head trace and in every layer answer that carries traces. The rule is restated
// here, not taken from the core: under "causal" and "causal_zero" token i may not see token
// j > i; under "none" nothing is hidden.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"
#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/json/sequel_json.h"
#include "attention/reference/trace.h"
#include "explore_test_helpers.h"
#include "test_inputs.h"

namespace {

using attn::MaskFill;
using attn::MaskKind;
using attn::MaskVariant;
using attn::json::Value;

struct NamedMask {
  const char* name;
  MaskVariant variant;
};
const NamedMask kNamedMasks[] = {{"causal", {MaskKind::causal, MaskFill::minus_infinity}},
                            {"none", {MaskKind::none, MaskFill::minus_infinity}},
                            {"causal_zero", {MaskKind::causal, MaskFill::zero}}};

bool hidden_by_rule(const std::string& mask, std::size_t i, std::size_t j) {
  return mask != "none" && j > i;
}

// A trace's "hidden" as trace_to_json writes it: T rows of T booleans, true exactly by the rule.
void check_hidden_json(const Value& trace, const std::string& mask, const std::string& where) {
  INFO(where << ", mask " << mask);
  const Value* hidden = trace.find("hidden");
  REQUIRE(hidden != nullptr);
  const std::size_t T = static_cast<std::size_t>(trace.find("token_count")->number);
  REQUIRE(hidden->array.size() == T);
  for (std::size_t i = 0; i < T; ++i) {
    REQUIRE(hidden->array[i].array.size() == T);
    for (std::size_t j = 0; j < T; ++j) {
      INFO("cell " << i << "," << j);
      const Value& cell = hidden->array[i].array[j];
      REQUIRE(cell.type == Value::Type::boolean);
      CHECK(cell.boolean == hidden_by_rule(mask, i, j));
    }
  }
}

}  // namespace

TEST_CASE("trace hidden: true exactly where the mask hid the cell, for every variant",
          "[hidden]") {
  for (const NamedMask& mask : kNamedMasks)
    for (std::size_t T : {1u, 2u, 3u, 7u, 16u}) {
      INFO("mask " << mask.name << ", T " << T);
      attn::AttentionInput input = attn_test::random_input(T, 5, mask.variant.mask, 11 + T);
      input.mask_fill = mask.variant.fill;
      const attn::Trace trace = attn::compute_trace(input);
      REQUIRE(trace.hidden.size() == T * T);
      for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j) {
          INFO("cell " << i << "," << j);
          const bool hidden = hidden_by_rule(mask.name, i, j);
          CHECK(trace.hidden[i * T + j] == (hidden ? 1 : 0));
          // What step 3 wrote there: -infinity, or 0 under causal_zero (where a visible score
          // can be 0 too, which is why the table is needed).
          const float masked = trace.masked.at(i, j);
          if (!hidden) CHECK(masked == trace.scaled.at(i, j));
          else if (mask.variant.fill == MaskFill::zero) CHECK(masked == 0.0f);
          else CHECK((std::isinf(masked) && masked < 0));
        }
    }
}

TEST_CASE("trace hidden: the workspace fills it like compute_trace, run after run", "[hidden]") {
  attn::TraceWorkspace workspace;
  REQUIRE_FALSE(workspace.prepare(4, 3).has_value());
  const attn::AttentionInput input = attn_test::random_input(4, 3, MaskKind::causal, 5);
  const std::size_t bytes = input.q.values.size() * sizeof(float);
  // Alternate the variants so that a table left over from the run before would show.
  for (const NamedMask* mask : {&kNamedMasks[0], &kNamedMasks[1], &kNamedMasks[2], &kNamedMasks[1], &kNamedMasks[0]}) {
    INFO("mask " << mask->name);
    std::memcpy(workspace.q(), input.q.values.data(), bytes);
    std::memcpy(workspace.k(), input.k.values.data(), bytes);
    std::memcpy(workspace.v(), input.v.values.data(), bytes);
    REQUIRE_FALSE(workspace.run(mask->variant, attn::ScaleKind::sqrt_head_dim).has_value());
    const std::vector<std::uint8_t>& hidden = workspace.trace().hidden;
    REQUIRE(hidden.size() == 16);
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j) CHECK(hidden[i * 4 + j] == (hidden_by_rule(mask->name, i, j) ? 1 : 0));
  }
}

TEST_CASE("trace hidden: trace_to_json writes it as T×T booleans", "[hidden]") {
  for (const NamedMask& mask : kNamedMasks) {
    attn::AttentionInput input = attn_test::random_input(5, 2, mask.variant.mask, 3);
    input.mask_fill = mask.variant.fill;
    const Value root = attn_test::parse_json_text(attn::trace_to_json(attn::compute_trace(input)));
    CHECK(root.find("mask")->string == mask.name);
    check_hidden_json(root, mask.name, "trace_to_json");
  }
}

TEST_CASE("trace hidden: every head's trace in the layer answers carries it", "[hidden]") {
  for (const NamedMask& mask : kNamedMasks) {
    const std::string request = std::string("{\"tokens\":[\"a\",\"b\",\"c\"],\"mask\":\"") +
                                mask.name + "\"}";
    const Value multi = attn_test::answer_of(attn::multi_head_json(request));
    for (const Value& head : multi.find("heads")->array)
      check_hidden_json(*head.find("trace"), mask.name, "multi_head_json");
    const Value grouped = attn_test::answer_of(attn::grouped_attention_json(request));
    for (const Value& head : grouped.find("heads")->array)
      check_hidden_json(*head.find("trace"), mask.name, "grouped_attention_json");
    const Value latent = attn_test::answer_of(attn::latent_attention_json(request));
    for (const Value& head : latent.find("heads")->array)
      check_hidden_json(*head.find("trace"), mask.name, "latent_attention_json");
    const Value cache = attn_test::answer_of(attn::quantised_cache_json(request));
    check_hidden_json(*cache.find("reference"), mask.name, "quantised_cache_json reference");
    for (const Value& level : cache.find("levels")->array)
      check_hidden_json(*level.find("trace"), mask.name, "quantised_cache_json level");
  }
}
