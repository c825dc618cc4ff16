// The core's vocabulary: every mask and scale variant named once, by the names the readers
// accept, and every default it states is the one a request gets when it leaves the member out
// (checked by asking the readers, not by reading the constants back).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "attention/json/explore_json.h"
#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/json/sequel_json.h"
#include "attention/json/vocabulary_json.h"
#include "attention/reference/attention_input.h"
#include "attention/reference/vocabulary.h"
#include "explore_test_helpers.h"

namespace {

using attn::json::Value;

const Value& member(const Value& object, const char* key) {
  INFO("member " << key);
  const Value* found = object.find(key);
  REQUIRE(found != nullptr);
  return *found;
}

// Scalars and arrays of them (what the defaults are): equal type and equal value.
bool same_value(const Value& a, const Value& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case Value::Type::boolean: return a.boolean == b.boolean;
    case Value::Type::number: return a.number == b.number;
    case Value::Type::string: return a.string == b.string;
    case Value::Type::array:
      if (a.array.size() != b.array.size()) return false;
      for (std::size_t n = 0; n < a.array.size(); ++n)
        if (!same_value(a.array[n], b.array[n])) return false;
      return true;
    default: return a.type == Value::Type::null;
  }
}

// The input of the article's two words with "mask" and "scale" set by `extra` (JSON members).
std::string two_words_request(const std::string& extra) {
  return "{\"tokens\":[\"the\",\"cat\"],\"q\":[[1,0],[0,1]],\"k\":[[1,0],[0,1]],"
         "\"v\":[[1,2],[3,4]]" + extra + "}";
}

}  // namespace

TEST_CASE("vocabulary: each mask and scale variant once, by the names the readers take",
          "[vocabulary]") {
  const Value vocabulary = attn_test::parse_json_text(attn::vocabulary_json());
  std::set<std::string> masks;
  for (const Value& mask : member(vocabulary, "masks").array) {
    const std::string name = member(mask, "name").string;
    INFO("mask " << name);
    CHECK(masks.insert(name).second);
    CHECK(member(mask, "description").string.size() > 20);
    // A control's label: short, and not the bare name (a reader reads it, not the parser).
    CHECK(!member(mask, "label").string.empty());
    CHECK(member(mask, "label").string.size() < 40);
    CHECK(member(mask, "label").string != name);
    // The trace reader takes the name and the trace says it back.
    const auto parsed = attn::parse_attention_input(two_words_request(",\"mask\":\"" + name + "\""));
    REQUIRE(std::holds_alternative<attn::AttentionInput>(parsed));
    const attn::AttentionInput& input = std::get<attn::AttentionInput>(parsed);
    CHECK(attn::mask_variant_name(input.mask, input.mask_fill) == name);
    const attn::Trace trace = attn::compute_trace(input);
    // Whether it hides later words, and what it writes there: cell [0][1] is j > i.
    const bool hides = member(mask, "hides_later_words").boolean;
    CHECK(trace.hidden[1] == (hides ? 1 : 0));
    if (hides) {
      const std::string score = member(mask, "hidden_score").string;
      CHECK(((score == "0" && trace.masked.at(0, 1) == 0.0f) ||
             (score == "-Infinity" && trace.masked.at(0, 1) < -3.4e38f)));
    }
    CHECK(member(mask, "kernels").boolean == (name != "causal_zero"));
  }
  CHECK(masks == std::set<std::string>{"causal", "none", "causal_zero"});

  std::set<std::string> scales;
  for (const Value& scale : member(vocabulary, "scales").array) {
    const std::string name = member(scale, "name").string;
    INFO("scale " << name);
    CHECK(scales.insert(name).second);
    CHECK(member(scale, "description").string.size() > 20);
    CHECK(!member(scale, "label").string.empty());
    CHECK(member(scale, "label").string.size() < 40);
    const auto parsed = attn::parse_attention_input(two_words_request(",\"scale\":\"" + name + "\""));
    REQUIRE(std::holds_alternative<attn::AttentionInput>(parsed));
    // head_dim 2: ÷ √2, ÷ 2 or ÷ 1, as the divisor's text says.
    const float divisor = attn::compute_trace(std::get<attn::AttentionInput>(parsed)).scale_divisor;
    const std::string text = member(scale, "divisor").string;
    if (text == "√d_k") CHECK(divisor == Approx(1.41421356).epsilon(1e-6));
    else if (text == "d_k") CHECK(divisor == 2.0f);
    else CHECK((text == "1" && divisor == 1.0f));
  }
  CHECK(scales == std::set<std::string>{"sqrt_d", "d", "none"});
}

TEST_CASE("vocabulary: the defaults are what the readers apply", "[vocabulary]") {
  const Value defaults = member(attn_test::parse_json_text(attn::vocabulary_json()), "defaults");

  // run(): no mask, no scale.
  const Value& run = member(defaults, "run");
  const auto parsed = attn::parse_attention_input(two_words_request(""));
  REQUIRE(std::holds_alternative<attn::AttentionInput>(parsed));
  const attn::AttentionInput& input = std::get<attn::AttentionInput>(parsed);
  CHECK(attn::mask_variant_name(input.mask, input.mask_fill) == member(run, "mask").string);
  CHECK(attn::scale_name(input.scale) == member(run, "scale").string);

  // multiHead({ tokens }): every other member left out.
  const Value& multi = member(defaults, "multi_head");
  const Value multi_answer = attn_test::answer_of(attn::multi_head_json(R"({"tokens":["a","b"]})"));
  for (const char* key : {"d_model", "n_heads", "mask", "scale"}) {
    INFO("multi_head " << key);
    CHECK(same_value(member(multi_answer, key), member(multi, key)));
  }

  // The sequel's layers from an empty request.
  const Value& layer = member(defaults, "layer");
  const Value grouped = attn_test::answer_of(attn::grouped_attention_json("{}"));
  for (const char* key : {"tokens", "d_model", "n_heads", "seed", "mask", "scale"}) {
    INFO("layer " << key);
    CHECK(same_value(member(grouped, key), member(layer, key)));
  }
  CHECK(member(grouped, "n_kv_heads").number ==
        member(member(defaults, "grouped_attention"), "n_kv_heads").number);
  const Value latent = attn_test::answer_of(attn::latent_attention_json("{}"));
  CHECK(member(latent, "d_latent").number ==
        member(member(defaults, "latent_attention"), "d_latent").number);

  const Value& tiles = member(defaults, "flash_tiles");
  const Value tiles_answer = attn_test::answer_of(attn::flash_tiles_json("{}"));
  for (const char* key : {"mask", "block_rows", "block_cols", "decimals"}) {
    INFO("flash_tiles " << key);
    CHECK(same_value(member(tiles_answer, key), member(tiles, key)));
  }
  CHECK(member(member(tiles_answer, "source"), "head").number == member(tiles, "head").number);

  const Value& cache = member(defaults, "quantised_cache");
  const Value cache_answer = attn_test::answer_of(attn::quantised_cache_json("{}"));
  CHECK(member(cache_answer, "rotation").string == member(cache, "rotation").string);
  const auto& levels = member(cache_answer, "levels").array;
  const auto& bits = member(cache, "bits").array;
  REQUIRE(levels.size() == bits.size());
  for (std::size_t n = 0; n < bits.size(); ++n) CHECK(member(levels[n], "bits").number == bits[n].number);

  const Value& study = member(defaults, "head_dim_study");
  const Value study_answer = attn_test::answer_of(attn::head_dim_study_json(R"({"samples":1})"));
  for (const char* key : {"head_dims", "tokens", "seed", "scale", "mask"}) {
    INFO("head_dim_study " << key);
    CHECK(same_value(member(study_answer, key), member(study, key)));
  }
  const Value& comparison = member(study_answer, "comparison");
  CHECK(member(comparison, "from_head_dim").number == member(study, "compare").array.at(0).number);
  CHECK(member(comparison, "to_head_dim").number == member(study, "compare").array.at(1).number);

  const Value& bill = member(defaults, "kv_bill");
  const Value bill_answer = attn_test::answer_of(attn::kv_bill_json("{}"));
  for (const char* key : {"layers", "d_model", "n_heads", "n_kv_heads", "head_dim", "dtype_bytes",
                          "scale_bytes", "weight_dtype_bytes", "context_length", "batch",
                          "gpu_memory_gib"}) {
    INFO("kv_bill " << key);
    CHECK(member(bill_answer, key).number == member(bill, key).number);
  }
}

TEST_CASE("vocabulary: the limits are the checks' limits", "[vocabulary]") {
  const Value limits = member(attn_test::parse_json_text(attn::vocabulary_json()), "limits");
  const auto tokens = [](std::size_t count) {
    std::string list;
    for (std::size_t n = 0; n < count; ++n) list += (n ? ",\"w" : "\"w") + std::to_string(n) + "\"";
    return "{\"tokens\":[" + list + "]}";
  };
  const std::size_t max_tokens = static_cast<std::size_t>(member(limits, "max_tokens").number);
  CHECK(std::holds_alternative<std::string>(attn::grouped_attention_json(tokens(max_tokens))));
  attn_test::check_refused(attn::grouped_attention_json(tokens(max_tokens + 1)), "tokens");
  const std::size_t max_d_model = static_cast<std::size_t>(member(limits, "max_d_model").number);
  attn_test::check_refused(
      attn::multi_head_json(R"({"tokens":["a"],"d_model":)" + std::to_string(max_d_model + 1) + "}"),
      "d_model");
  CHECK(member(limits, "max_head_dim").number == 256);  // README's table: head_dim 1 to 256
  CHECK(member(limits, "max_abs_value").number == 1e15);
  CHECK(member(limits, "max_token_bytes").number == 256);
}
