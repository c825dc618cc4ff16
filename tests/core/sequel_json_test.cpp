// The sequel's JSON calls: the documented answers and defaults (the four tokens, d_model 16),
// the same numbers as the C++ calls, errors that start with the field's path, and no crash on
// malformed or hostile requests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/json/json_io.h"
#include "attention/layers/multi_head.h"
#include "attention/reference/seeded_random.h"
#include "attention/json/sequel_json.h"
#include "explore_test_helpers.h"

namespace {

using attn::json::Value;
using Type = Value::Type;

void check_keys(const Value& object, const std::vector<const char*>& keys) {
  REQUIRE(object.type == Type::object);
  for (const char* key : keys) {
    INFO("key " << key);
    CHECK(object.find(key) != nullptr);
  }
  CHECK(object.object.size() == keys.size());
}

const std::vector<const char*> bill_keys = {
    "preset", "label", "citation", "attention", "layers", "d_model", "n_heads", "n_kv_heads",
    "head_dim", "d_latent", "rope_dim", "dtype_bytes", "kv_bits", "scale_bytes",
    "weight_dtype_bytes", "parameters", "context_length", "batch", "gpu_memory_gib",
    "sliding_window", "local_layers", "global_layers",
    "cached_values_per_token_per_layer", "cached_vectors_per_token_per_layer",
    "bytes_per_token_per_layer", "formula", "working", "bytes_per_token",
    "cached_tokens_per_global_layer", "cached_tokens_per_local_layer", "bytes_per_sequence",
    "sequence_formula", "sequence_working", "cache_bytes", "weight_bytes", "gpu_bytes", "fits",
    "concurrent_sequences", "max_context_tokens", "max_context_working"};

// kv_bill_json's answer: the bill, then the curve a plot draws.
std::vector<const char*> kv_bill_answer_keys() {
  std::vector<const char*> keys = bill_keys;
  keys.push_back("curve");
  return keys;
}

struct Case {
  const char* request;
  const char* path;
  const char* fragment;
};

void check_cases(attn::JsonOrError (*call)(std::string_view), const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.request);
    attn_test::check_refused(call(c.request), c.path, c.fragment);
  }
}

}  // namespace

TEST_CASE("grouped_attention_json: defaults, shape, the C++ numbers, errors", "[sequel_json]") {
  const Value layer = attn_test::answer_of(attn::grouped_attention_json("{}"));
  check_keys(layer, {"variant", "tokens", "d_model", "n_heads", "n_kv_heads", "head_dim",
                     "group_size", "seed", "mask", "scale", "x", "kv_heads", "heads", "concat",
                     "w_o", "out", "bill"});
  CHECK(layer.find("variant")->string == "GQA");
  const auto& tokens = layer.find("tokens")->array;
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[0].string == "the");
  CHECK(tokens[3].string == "on");
  CHECK(layer.find("d_model")->number == 16);
  CHECK(layer.find("n_heads")->number == 4);
  CHECK(layer.find("n_kv_heads")->number == 2);
  CHECK(layer.find("group_size")->number == 2);
  CHECK(layer.find("seed")->number == 1);
  const auto& kv_heads = layer.find("kv_heads")->array;
  REQUIRE(kv_heads.size() == 2);
  check_keys(kv_heads[1], {"w_k", "w_v", "k", "v", "query_heads"});
  CHECK(attn_test::numbers_of(*kv_heads[1].find("query_heads")) == std::vector<double>{2, 3});
  const auto& heads = layer.find("heads")->array;
  REQUIRE(heads.size() == 4);
  check_keys(heads[3], {"kv_head", "w_q", "trace"});
  CHECK(heads[3].find("kv_head")->number == 1);
  CHECK(attn_test::is_non_finite(heads[3].find("trace")->find("masked")->array[0].array[1], "-Infinity"));
  const Value& bill = *layer.find("bill");
  check_keys(bill, bill_keys);
  CHECK(bill.find("attention")->string == "GQA");
  CHECK(bill.find("bytes_per_token_per_layer")->number == 64);  // 2 · 2 · 4 · 4
  CHECK(bill.find("context_length")->number == 4);

  // The same text as the C++ call with the article's tokens and seed 1.
  const attn::GroupedAttentionLayer direct = attn::compute_grouped_attention(
      attn::seeded_grouped_input(attn::article::four_words().tokens, 16, 4, 2, 1));
  CHECK(std::get<std::string>(attn::grouped_attention_json("{}")) ==
        attn::grouped_attention_to_json(direct, 1));

  // n_kv_heads = n_heads: the multi-head layer's numbers; 1: MQA.
  const Value mha = attn_test::answer_of(attn::grouped_attention_json(R"({"n_kv_heads":4,"seed":3})"));
  CHECK(mha.find("variant")->string == "MHA");
  const Value multi = attn_test::answer_of(attn::multi_head_json(R"({"tokens":["the","cat","sat","on"],"seed":3})"));
  CHECK(attn_test::numbers_of(*mha.find("out")) == attn_test::numbers_of(*multi.find("out")));
  const Value mqa = attn_test::answer_of(attn::grouped_attention_json(R"({"n_kv_heads":1,"mask":"none","scale":"d"})"));
  CHECK(mqa.find("variant")->string == "MQA");
  CHECK(mqa.find("mask")->string == "none");
  CHECK(mqa.find("scale")->string == "d");
  CHECK(mqa.find("bill")->find("bytes_per_token_per_layer")->number == 32);
  // A given x sets d_model; odd head counts default to MHA.
  const Value given = attn_test::answer_of(attn::grouped_attention_json(
      R"({"tokens":["a","b"],"x":[[1,0,0,0,0,0],[0,1,0,0,0,0.5]],"n_heads":3})"));
  CHECK(given.find("d_model")->number == 6);
  CHECK(given.find("n_kv_heads")->number == 3);

  check_cases(attn::grouped_attention_json, {
      {"[]", "input", "JSON object"},
      {"{", "input", "not valid JSON"},
      {R"({"n_kv_heads":3})", "n_kv_heads", "must divide n_heads (4)"},
      {R"({"n_kv_heads":8})", "n_kv_heads", "must divide n_heads (4)"},
      {R"({"n_kv_heads":0})", "n_kv_heads", nullptr},
      {R"({"n_kv_heads":1e9})", "n_kv_heads", nullptr},
      {R"({"n_heads":5})", "n_heads", "divide d_model 16"},
      {R"({"tokens":[]})", "tokens", nullptr},
      {R"({"tokens":["a",""]})", "tokens[1]", "empty"},
      {R"({"tokens":"the cat"})", "tokens", nullptr},
      {R"({"x":[[1,2]]})", "x", "4 tokens"},
      {R"({"tokens":["a"],"x":[[1,"2"]]})", "x[0][1]", "\"2\""},
      {R"({"tokens":["a"],"x":[[1,2e7]]})", "x[0][1]", "1e6"},
      {R"({"tokens":["a"],"d_model":8,"x":[[1,2]]})", "x[0]", "expected 8"},
      {R"({"seed":-1})", "seed", nullptr},
      {R"({"mask":"zero"})", "mask", nullptr},
      {R"({"scale":2})", "scale", nullptr},
      {R"({"w_k":[]})", "w_k", "not a known field"},
      {R"({"seed":1,"seed":2})", "input", "twice"},
  });
}

TEST_CASE("latent_attention_json: defaults, shape, errors", "[sequel_json]") {
  const Value layer = attn_test::answer_of(attn::latent_attention_json("{}"));
  check_keys(layer, {"variant", "tokens", "d_model", "n_heads", "head_dim", "d_latent", "seed",
                     "mask", "scale", "positional_encoding", "x", "w_dkv", "latent", "heads",
                     "concat", "w_o", "out", "bill"});
  CHECK(layer.find("variant")->string == "MLA");
  CHECK(layer.find("d_latent")->number == 8);
  CHECK(layer.find("positional_encoding")->string.rfind("left out", 0) == 0);
  CHECK(layer.find("latent")->array.size() == 4);
  CHECK(layer.find("latent")->array[0].array.size() == 8);
  check_keys(layer.find("heads")->array[0], {"w_q", "w_uk", "w_uv", "trace"});
  const Value& bill = *layer.find("bill");
  CHECK(bill.find("attention")->string == "MLA");
  CHECK(bill.find("bytes_per_token_per_layer")->number == 32);  // 8 · 4
  CHECK(bill.find("n_kv_heads")->type == Type::null);
  CHECK(bill.find("rope_dim")->number == 0);
  const attn::LatentAttentionLayer direct = attn::compute_latent_attention(
      attn::seeded_latent_input(attn::article::four_words().tokens, 16, 4, 8, 1));
  CHECK(std::get<std::string>(attn::latent_attention_json("{}")) ==
        attn::latent_attention_to_json(direct, 1));
  const Value wide = attn_test::answer_of(attn::latent_attention_json(R"({"d_latent":16,"d_model":32,"n_heads":2})"));
  CHECK(wide.find("head_dim")->number == 16);

  check_cases(attn::latent_attention_json, {
      {R"({"d_latent":0})", "d_latent", nullptr},
      {R"({"d_latent":257})", "d_latent", nullptr},
      {R"({"tokens":["a"],"x":[[1,2e3]]})", "x[0][1]", "1e3"},
      {R"({"n_kv_heads":2})", "n_kv_heads", "not a known field"},
      {R"({"n_heads":3})", "n_heads", nullptr},
  });
}

TEST_CASE("flash_tiles_json: defaults, given q/k/v, errors", "[sequel_json]") {
  const Value tiles = attn_test::answer_of(attn::flash_tiles_json("{}"));
  check_keys(tiles, {"tokens", "mask", "token_count", "head_dim", "block_rows", "block_cols",
                     "query_tiles", "key_tiles", "scale_divisor", "source", "q", "k", "v", "steps",
                     "computed_tiles", "skipped_tiles", "row_max", "row_sum", "out", "untiled_out",
                     "max_abs_difference", "decimals", "agrees_to_decimals"});
  CHECK(tiles.find("head_dim")->number == 4);
  CHECK(tiles.find("block_rows")->number == 2);
  CHECK(tiles.find("skipped_tiles")->number == 1);
  CHECK(tiles.find("agrees_to_decimals")->boolean);
  const Value& source = *tiles.find("source");
  CHECK(source.find("kind")->string == "seeded_head");
  CHECK(source.find("head")->number == 0);
  const auto& steps = tiles.find("steps")->array;
  REQUIRE(steps.size() == 4);
  check_keys(steps[0], {"query_tile", "key_tile", "row_begin", "row_end", "col_begin", "col_end",
                        "skipped", "partly_masked", "scores", "tile_max", "max_before", "max_after",
                        "rescale", "exponentials", "sum_before", "sum_after", "partial_out"});
  CHECK(steps[1].find("skipped")->boolean);
  CHECK(steps[1].find("scores")->type == Type::null);
  CHECK(attn_test::is_non_finite(steps[0].find("max_before")->array[0], "-Infinity"));  // nothing seen yet
  CHECK(attn_test::is_non_finite(steps[0].find("scores")->array[0].array[1], "-Infinity"));  // hidden

  // The head is head 0 of the seeded multi-head layer.
  const attn::MultiHeadLayer layer = attn::compute_multi_head(
      attn::seeded_multi_head_input(attn::article::four_words().tokens, 16, 4, 1));
  const Value multi = attn_test::parse_json_text(attn::trace_to_json(layer.heads[0].trace));
  CHECK(attn_test::numbers_of(*tiles.find("q")) == attn_test::numbers_of(*multi.find("q")));
  CHECK(attn_test::numbers_of(*tiles.find("untiled_out")) == attn_test::numbers_of(*multi.find("out")));
  const Value head2 = attn_test::answer_of(attn::flash_tiles_json(R"({"head":2,"block_rows":3,"block_cols":1})"));
  CHECK(head2.find("query_tiles")->number == 2);
  CHECK(head2.find("key_tiles")->number == 4);

  // The article's own q, k, v.
  const Value article = attn_test::answer_of(attn::flash_tiles_json(
      R"({"q":[[-1.1,-1.1,-1.1,-0.8],[-0.7,0.8,0.7,-0.3],[-0.9,0.8,-0.2,1.0],[0.0,-0.5,-0.2,-1.1]],)"
      R"("k":[[-0.7,0.3,-0.1,-0.8],[1.1,-0.7,-0.2,0.7],[-0.4,-0.1,-0.3,1.0],[0.2,0.0,1.1,-0.8]],)"
      R"("v":[[0.4,-0.6,0.9,0.1],[-0.3,1.0,0.2,-0.8],[0.7,0.2,-0.5,0.6],[-0.9,0.3,0.4,0.5]],)"
      R"("mask":"none","block_rows":3,"block_cols":3,"decimals":6})"));
  CHECK(article.find("source")->find("kind")->string == "given");
  CHECK(article.find("mask")->string == "none");
  CHECK(article.find("skipped_tiles")->number == 0);
  CHECK(article.find("decimals")->number == 6);

  check_cases(attn::flash_tiles_json, {
      {R"({"block_rows":0})", "block_rows", nullptr},
      {R"({"block_rows":5})", "block_rows", "from 1 to 4"},
      {R"({"block_cols":2.5})", "block_cols", nullptr},
      {R"({"decimals":9})", "decimals", nullptr},
      {R"({"mask":"causal_zero"})", "mask", nullptr},
      {R"({"scale":"d"})", "scale", "not a known field"},
      {R"({"head":4})", "head", nullptr},
      {R"({"q":[[1]]})", "k", "together"},
      {R"({"q":[[1]],"k":[[1]],"v":[[1]],"head":0})", "head", "does not apply"},
      {R"({"q":[[1]],"k":[[1]],"v":[[1]]})", "q", "4 tokens"},
      {R"({"tokens":["a"],"q":[[1,2]],"k":[[1]],"v":[[1,2]]})", "k[0]", "expected 2"},
      {R"({"tokens":["a"],"q":[[1]],"k":[[1]],"v":[[2e15]]})", "v[0][0]", "1e15"},
      {R"({"tokens":["a"],"q":[[null]],"k":[[1]],"v":[[1]]})", "q[0][0]", "null"},
  });
}

TEST_CASE("quantised_cache_json: defaults, options, errors", "[sequel_json]") {
  const Value cache = attn_test::answer_of(attn::quantised_cache_json("{}"));
  check_keys(cache, {"tokens", "head_dim", "source", "rotation", "seed", "scheme",
                     "rotation_matrix", "k_rotated", "v_rotated", "reference",
                     "unquantised_bytes_per_token", "levels"});
  CHECK(cache.find("rotation")->string == "random");
  CHECK(cache.find("unquantised_bytes_per_token")->number == 32);
  const auto& levels = cache.find("levels")->array;
  REQUIRE(levels.size() == 4);
  check_keys(levels[0], {"bits", "levels_each_side", "k", "v", "trace", "k_error", "v_error",
                         "weights_error", "out_error", "bytes_per_token"});
  check_keys(*levels[0].find("k"), {"scales", "codes", "dequantised", "restored"});
  check_keys(*levels[0].find("out_error"), {"max_abs", "relative"});
  CHECK(levels[0].find("bits")->number == 8);
  CHECK(levels[3].find("bits")->number == 2);
  CHECK(levels[3].find("levels_each_side")->number == 1);
  for (const double code : attn_test::numbers_of(*levels[3].find("k")->find("codes")))
    CHECK((code == -1 || code == 0 || code == 1));
  CHECK(levels[0].find("bytes_per_token")->number == 16);

  const Value plain = attn_test::answer_of(attn::quantised_cache_json(R"({"rotation":"none","bits":[4],"mask":"none"})"));
  CHECK(plain.find("rotation")->string == "none");
  CHECK(plain.find("levels")->array.size() == 1);
  CHECK(attn_test::numbers_of(*plain.find("rotation_matrix")) ==
        std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});

  check_cases(attn::quantised_cache_json, {
      {R"({"bits":[]})", "bits", nullptr},
      {R"({"bits":4})", "bits", nullptr},
      {R"({"bits":[8,5]})", "bits[1]", "2, 3, 4 or 8"},
      {R"({"bits":["8"]})", "bits[0]", nullptr},
      {R"({"bits":[2,2,2,2,2,2,2,2,2]})", "bits", "limit"},
      {R"({"rotation":"hadamard"})", "rotation", nullptr},
      {R"({"v":[[1]]})", "q", "together"},
  });
}

TEST_CASE("kv_bill_json: toy default, presets, overrides, errors", "[sequel_json]") {
  const Value toy = attn_test::answer_of(attn::kv_bill_json("{}"));
  check_keys(toy, kv_bill_answer_keys());
  CHECK(toy.find("preset")->type == Type::null);
  CHECK(toy.find("attention")->string == "GQA");
  CHECK(toy.find("bytes_per_token_per_layer")->number == 64);
  CHECK(toy.find("parameters")->number == 768);
  CHECK(toy.find("kv_bits")->type == Type::null);
  CHECK(toy.find("d_latent")->type == Type::null);

  const Value llama = attn_test::answer_of(attn::kv_bill_json(R"({"preset":"llama-3-8b"})"));
  CHECK(llama.find("preset")->string == "llama-3-8b");
  CHECK(llama.find("label")->string == "Llama 3 8B");
  CHECK(llama.find("citation")->string == "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json");
  CHECK(llama.find("parameters")->number == 8030261248.0);
  CHECK(llama.find("bytes_per_sequence")->number == 1073741824.0);
  CHECK(llama.find("concurrent_sequences")->number == 65);
  // Byte counts are written exactly, not to 9 digits.
  CHECK(std::get<std::string>(attn::kv_bill_json(R"({"preset":"llama-3-8b"})")).find("\"weight_bytes\":16060522496") !=
        std::string::npos);

  const Value longer = attn_test::answer_of(attn::kv_bill_json(
      R"({"preset":"llama-3-8b","context_length":131072,"batch":4,"kv_bits":4,"gpu_memory_gib":141})"));
  CHECK(longer.find("bytes_per_token_per_layer")->number == 1088);
  CHECK(longer.find("bytes_per_sequence")->number == 1088.0 * 32 * 131072);
  CHECK(longer.find("cache_bytes")->number == 4.0 * 1088 * 32 * 131072);
  CHECK(longer.find("kv_bits")->number == 4);

  const Value v3 = attn_test::answer_of(attn::kv_bill_json(R"({"preset":"deepseek-v3","rope_dim":0})"));
  CHECK(v3.find("bytes_per_token_per_layer")->number == 1024);  // 512 · 2
  const Value latent = attn_test::answer_of(attn::kv_bill_json(R"({"d_latent":8})"));
  CHECK(latent.find("attention")->string == "MLA");
  CHECK(latent.find("parameters")->number == 896);
  CHECK(latent.find("bytes_per_token_per_layer")->number == 32);
  const Value mqa = attn_test::answer_of(attn::kv_bill_json(R"({"n_kv_heads":1,"parameters":1000,"weight_dtype_bytes":0.5})"));
  CHECK(mqa.find("attention")->string == "MQA");
  CHECK(mqa.find("weight_bytes")->number == 500);

  check_cases(attn::kv_bill_json, {
      {R"({"preset":"gpt-9"})", "preset", "llama-2-7b"},
      {R"({"preset":7})", "preset", nullptr},
      {R"({"n_kv_heads":3})", "n_kv_heads", "must divide n_heads (4)"},
      {R"({"preset":"llama-3-8b","n_kv_heads":5})", "n_kv_heads", "must divide n_heads (32)"},
      {R"({"preset":"deepseek-v3","n_kv_heads":8})", "n_kv_heads", "does not apply"},
      {R"({"d_latent":8,"head_dim":4})", "head_dim", "does not apply"},
      {R"({"rope_dim":64})", "rope_dim", "latent"},
      {R"({"dtype_bytes":3})", "dtype_bytes", nullptr},
      {R"({"kv_bits":5})", "kv_bits", nullptr},
      {R"({"weight_dtype_bytes":3})", "weight_dtype_bytes", nullptr},
      {R"({"parameters":0})", "parameters", nullptr},
      {R"({"parameters":1e16})", "parameters", nullptr},
      {R"({"context_length":0})", "context_length", nullptr},
      {R"({"context_length":1e12})", "context_length", nullptr},
      {R"({"batch":100000})", "batch", nullptr},
      {R"({"gpu_memory_gib":0})", "gpu_memory_gib", nullptr},
      {R"({"gpu_memory_gib":"80"})", "gpu_memory_gib", nullptr},
      {R"({"layers":-3})", "layers", nullptr},
      {R"({"colour":"red"})", "colour", "not a known field"},
  });
  // kv_bits null is the unquantised cache.
  CHECK(attn_test::answer_of(attn::kv_bill_json(R"({"kv_bits":null})")).find("kv_bits")->type == Type::null);
}

TEST_CASE("model_presets_to_json: every preset with its source", "[sequel_json]") {
  const Value presets = attn_test::parse_json_text(attn::model_presets_to_json());
  REQUIRE(presets.type == Type::array);
  REQUIRE(presets.array.size() == attn::model_presets().size());
  std::vector<std::string> attentions;
  for (const Value& preset : presets.array) {
    check_keys(preset, {"name", "label", "attention", "d_model", "layers", "n_heads", "n_kv_heads",
                        "head_dim", "d_latent", "rope_dim", "parameters", "weight_dtype_bytes",
                        "dtype_bytes", "max_context", "sliding_window", "local_layers",
                        "parameters_source", "citation", "note", "window_source"});
    attentions.push_back(preset.find("attention")->string);
    const bool latent = preset.find("attention")->string == "MLA";
    CHECK((preset.find("n_kv_heads")->type == Type::null) == latent);
    CHECK((preset.find("d_latent")->type == Type::null) == !latent);
  }
  // One of each variant at least.
  for (const char* kind : {"MHA", "GQA", "MQA", "MLA"})
    CHECK(std::find(attentions.begin(), attentions.end(), kind) != attentions.end());
}

TEST_CASE("sequel JSON: hostile and random requests never crash", "[sequel_json]") {
  using Call = attn::JsonOrError (*)(std::string_view);
  const Call calls[] = {attn::grouped_attention_json, attn::latent_attention_json,
                        attn::flash_tiles_json, attn::quantised_cache_json, attn::kv_bill_json};
  const std::vector<std::string> hostile = {
      "", "null", "0", "\"x\"", "[{}]", "{\"tokens\":null}", "{\"x\":[[]]}", "{\"x\":[]}",
      "{\"x\":[[1],[2],[3],[4]],\"d_model\":1,\"n_heads\":1}", std::string(100, '['),
      "{\"tokens\":[\"a\"],\"q\":[],\"k\":[],\"v\":[]}", "{\"\\u0000\":1}",
      "{\"d_model\":256,\"n_heads\":256,\"n_kv_heads\":256}", "{\"bits\":[8,8,8,8,8,8,8,8]}",
      "{\"block_rows\":1,\"block_cols\":1,\"tokens\":[\"a\",\"b\",\"c\"]}", "{\"d_latent\":256}",
      "{\"preset\":\"deepseek-v3\",\"context_length\":16777216,\"batch\":65536,\"layers\":1024}"};
  for (const Call call : calls) {
    for (const std::string& text : hostile) {
      INFO(text);
      const attn::JsonOrError result = call(text);
      if (const auto* error = std::get_if<attn::InputError>(&result)) {
        CHECK_FALSE(error->message.empty());
        CHECK(error->message.find('\n') == std::string::npos);
        CHECK(error->message.rfind(error->path + ": ", 0) == 0);
      } else {
        CHECK(attn::json::parse(std::get<std::string>(result)).value.has_value());
      }
    }
  }
  // Seeded random mutations of good requests: answers are JSON, errors name a path.
  const std::vector<std::string> seeds = {
      R"({"tokens":["the","cat","sat"],"n_heads":2,"n_kv_heads":1,"seed":4,"mask":"none"})",
      R"({"q":[[1,2],[3,4]],"k":[[1,0],[0,1]],"v":[[0.5,0.5],[1,2]],"tokens":["a","b"],"block_rows":1})",
      R"({"preset":"falcon-7b","kv_bits":3,"context_length":2048,"gpu_memory_gib":24})"};
  attn::SeededRandom random(42);
  const std::string alphabet = "{}[]\",:0123456789.-eE truefalsnul\\abcdxyz_";
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = seeds[trial % seeds.size()];
    const int edits = 1 + static_cast<int>(random.next_uniform() * 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = static_cast<std::size_t>(random.next_uniform() * text.size());
      const char c = alphabet[static_cast<std::size_t>(random.next_uniform() * alphabet.size())];
      if (random.next_uniform() < 0.5) text[at] = c;
      else text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
    }
    for (const Call call : calls) {
      INFO(text);
      const attn::JsonOrError result = call(text);
      if (const auto* error = std::get_if<attn::InputError>(&result)) {
        CHECK(error->message.rfind(error->path + ": ", 0) == 0);
      } else {
        CHECK(attn::json::parse(std::get<std::string>(result)).value.has_value());
      }
    }
  }
}
