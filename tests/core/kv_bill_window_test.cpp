// The KV-cache bill with sliding windows and local/global layers, the six presets added with
// them, the longest context that fits and the curve a plot draws: against figures worked out by
// hand (the arithmetic next to each) and against an independent reference on whole bytes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "attention/json/sequel_json.h"
#include "attention/layers/kv_bill.h"
#include "explore_test_helpers.h"

namespace {

using attn::json::Value;
using Type = Value::Type;

attn::ModelShape preset_shape(const char* name) {
  const attn::ModelPreset* preset = attn::find_model_preset(name);
  REQUIRE(preset != nullptr);
  return attn::model_shape_of(*preset);
}

attn::KvBill bill_of(const attn::ModelShape& shape) {
  REQUIRE_FALSE(attn::validate_model_shape(shape).has_value());
  return attn::compute_kv_bill(shape);
}

// The reference, written from the definition on whole numbers: one sequence of T tokens caches
// per_layer bytes per token in each global layer and per_layer · min(T, window) in each local.
struct Reference {
  std::uint64_t per_layer, global, local, window, batch;
  long double left;  // gpu bytes - weight bytes (may hold half a byte of 4-bit weights)
  bool fits(std::uint64_t T) const {
    const std::uint64_t local_tokens = local == 0 ? 0 : (T < window ? T : window);
    const long double cache = static_cast<long double>(batch) * per_layer * (global * T + local * local_tokens);
    return cache <= left;
  }
};

Reference reference_of(const attn::ModelShape& shape, std::uint64_t per_layer, std::uint64_t local) {
  const long double gpu = static_cast<long double>(shape.gpu_memory_gib) * 1073741824.0L;
  return Reference{per_layer, shape.layers - local, local, shape.sliding_window, shape.batch,
                   static_cast<long double>(static_cast<std::uint64_t>(gpu)) -
                       static_cast<long double>(shape.parameters) * shape.weight_dtype_bytes};
}

// max_context_tokens is the largest T that fits: it fits at T and not at T + 1.
void check_longest(const attn::ModelShape& shape, std::uint64_t per_layer, std::uint64_t local) {
  const attn::KvBill bill = bill_of(shape);
  const Reference reference = reference_of(shape, per_layer, local);
  REQUIRE(bill.max_context_tokens.has_value());
  const auto T = static_cast<std::uint64_t>(*bill.max_context_tokens);
  CHECK(static_cast<double>(T) == *bill.max_context_tokens);  // whole
  if (T > 0) CHECK(reference.fits(T));
  CHECK_FALSE(reference.fits(T + 1));
}

}  // namespace

TEST_CASE("kv bill windows: the issue's three models, by hand", "[kv_bill]") {
  // Gemma 3 27B at 131,072 tokens: 2 · 16 · 128 · 2 = 8192 bytes per token per layer;
  // 10 global layers hold 131,072 tokens, 52 local ones 1024: 8192 · (1,310,720 + 53,248)
  // = 8192 · 1,363,968 = 11,173,625,856 bytes = 10.406 GiB (62 GiB without the window).
  const attn::KvBill gemma3 = bill_of(preset_shape("gemma-3-27b"));
  CHECK(gemma3.bytes_per_token_per_layer == 8192.0);
  CHECK(gemma3.local_layers == 52);
  CHECK(gemma3.global_layers == 10);
  CHECK(gemma3.cached_tokens_per_local_layer == 1024.0);
  CHECK(gemma3.cached_tokens_per_global_layer == 131072.0);
  CHECK(gemma3.bytes_per_sequence == 11173625856.0);
  CHECK(gemma3.sequence_working ==
        "8192 · (10 · 131072 + 52 · min(131072, 1024)) = 8192 · (1310720 + 53248) = 11173625856");
  // Mistral 7B at 131,072: every layer local with 4096 tokens: 2 · 8 · 128 · 2 · 32 · 4096
  // = 536,870,912 bytes (512 MiB; 16 GiB without the window).
  attn::ModelShape mistral = preset_shape("mistral-7b-v0.1");
  mistral.context_length = 131072;
  const attn::KvBill mistral_bill = bill_of(mistral);
  CHECK(mistral_bill.global_layers == 0);
  CHECK(mistral_bill.bytes_per_sequence == 536870912.0);
  // Gemma 2 9B at 8192: 2 · 8 · 256 · 2 = 8192 bytes; 21 · 8192 + 21 · 4096 = 258,048 token-
  // layers: 8192 · 258,048 = 2,113,929,216 bytes = 1.96875 GiB (2.625 GiB without the window).
  const attn::KvBill gemma2 = bill_of(preset_shape("gemma-2-9b"));
  CHECK(gemma2.bytes_per_sequence == 2113929216.0);
  CHECK(gemma2.local_layers == 21);
}

TEST_CASE("kv bill windows: below, at and above the window", "[kv_bill]") {
  attn::ModelShape gemma3 = preset_shape("gemma-3-27b");
  // Below and at the window every layer holds every token: 8192 · 62 · T.
  gemma3.context_length = 512;
  CHECK(bill_of(gemma3).bytes_per_sequence == 260046848.0);   // 8192 · 62 · 512
  gemma3.context_length = 1024;
  CHECK(bill_of(gemma3).bytes_per_sequence == 520093696.0);   // 8192 · 62 · 1024
  // Above it the local layers stop at 1024: 8192 · (10 · 2048 + 52 · 1024) = 8192 · 73,728.
  gemma3.context_length = 2048;
  CHECK(bill_of(gemma3).bytes_per_sequence == 603979776.0);
  attn::ModelShape mistral = preset_shape("mistral-7b-v0.1");
  for (const auto& [context, bytes] : {std::pair{4095, 536739840.0},   // 4096 · 32 · 4095
                                       std::pair{4096, 536870912.0},   // 4096 · 32 · 4096
                                       std::pair{4097, 536870912.0}}) {  // the window holds
    mistral.context_length = static_cast<std::size_t>(context);
    CHECK(bill_of(mistral).bytes_per_sequence == bytes);
  }
  // Every layer local by default when the window is set on a shape without a count; the window
  // on no layer at all is the plain bill.
  mistral.context_length = 8192;
  mistral.local_layers = 0;
  CHECK(bill_of(mistral).bytes_per_sequence == 4096.0 * 32 * 8192);
  mistral.local_layers = 8;  // 24 global layers of 8192 tokens and 8 local of 4096
  CHECK(bill_of(mistral).bytes_per_sequence == 4096.0 * (24 * 8192 + 8 * 4096));
  CHECK(attn::kv_sequence_bytes(bill_of(mistral), 100) == 4096.0 * 32 * 100);
}

TEST_CASE("kv bill windows: the new presets, by hand", "[kv_bill]") {
  // Qwen2.5-7B at 131,072: 2 · 4 · 128 · 2 = 2048 bytes; · 28 layers = 57,344 per token;
  // · 131,072 = 7,516,192,768. Weights 7,615,616,512 · 2 = 15,231,233,024 bytes.
  const attn::KvBill qwen25 = bill_of(preset_shape("qwen2.5-7b"));
  CHECK(qwen25.bytes_per_token == 57344.0);
  CHECK(qwen25.bytes_per_sequence == 7516192768.0);
  CHECK(qwen25.weight_bytes == 15231233024.0);
  // (85,899,345,920 - 15,231,233,024) / 7,516,192,768 = 9.40: nine sequences.
  CHECK(qwen25.concurrent_sequences == 9.0);
  // Qwen3-8B at 32,768: 2 · 8 · 128 · 2 = 4096; · 36 = 147,456; · 32,768 = 4,831,838,208.
  const attn::KvBill qwen3 = bill_of(preset_shape("qwen3-8b"));
  CHECK(qwen3.bytes_per_sequence == 4831838208.0);
  CHECK(qwen3.shape.head_dim == 128);
  // Kimi K2 (MLA) at 131,072: (512 + 64) · 2 = 1152; · 61 = 70,272; · 131,072 = 9,210,691,584.
  // 1e12 bytes of FP8 weights do not fit 80 GiB: no sequence, no context.
  const attn::KvBill kimi = bill_of(preset_shape("kimi-k2"));
  CHECK(kimi.attention == "MLA");
  CHECK(kimi.bytes_per_sequence == 9210691584.0);
  CHECK(kimi.weight_bytes == 1e12);
  CHECK(kimi.concurrent_sequences == 0.0);
  CHECK(kimi.max_context_tokens == std::optional<double>(0.0));
  // The parameter counts computed from the shapes (the arithmetic is in model_presets.cpp).
  CHECK(attn::find_model_preset("mistral-7b-v0.1")->parameters ==
        2.0 * 32000 * 4096 + 32.0 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096) + 4096);
  CHECK(attn::find_model_preset("gemma-2-9b")->parameters ==
        256000.0 * 3584 + 42.0 * (2 * 3584 * 4096 + 2 * 3584 * 2048 + 3 * 3584 * 14336 + 4 * 3584) + 3584);
  for (const char* name : {"mistral-7b-v0.1", "qwen2.5-7b", "qwen3-8b", "gemma-2-9b", "gemma-3-27b", "kimi-k2"}) {
    INFO(name);
    const attn::ModelPreset& preset = *attn::find_model_preset(name);
    CHECK(std::string(preset.citation).rfind("https://huggingface.co/", 0) == 0);
    CHECK_FALSE(preset.note.empty());
    CHECK((preset.sliding_window != 0) == !preset.window_source.empty());
  }
}

TEST_CASE("kv bill windows: the longest context that fits, exactly", "[kv_bill]") {
  // Llama 3 8B, 80 GiB, one sequence: P = (85,899,345,920 - 16,060,522,496) / 4096
  // = 17,050,494 token-layers; / 32 layers = 532,827.9: 532,827 tokens.
  CHECK(bill_of(preset_shape("llama-3-8b")).max_context_tokens == std::optional<double>(532827.0));
  // Gemma 3 27B: P = ⌊31,881,341,440 / 8192⌋ = 3,891,765; beyond the window
  // (P - 52 · 1024) / 10 = 383,851.7: 383,851 tokens.
  CHECK(bill_of(preset_shape("gemma-3-27b")).max_context_tokens == std::optional<double>(383851.0));
  // Mistral: every layer local and 32 · 4096 = 131,072 token-layers fit: no limit.
  CHECK_FALSE(bill_of(preset_shape("mistral-7b-v0.1")).max_context_tokens.has_value());
  // Mistral on 14 GiB with two sequences: (15,032,385,536 - 14,483,464,192) / (2 · 4096)
  // = 67,007 token-layers, below 131,072: ⌊67,007 / 32⌋ = 2093 tokens, inside the window.
  attn::ModelShape tight = preset_shape("mistral-7b-v0.1");
  tight.gpu_memory_gib = 14;
  tight.batch = 2;
  CHECK(bill_of(tight).max_context_tokens == std::optional<double>(2093.0));
  check_longest(tight, 4096, 32);
  // Not one token: 100,000 bytes left beside the weights, 131,072 needed per token.
  attn::ModelShape full = preset_shape("llama-3-8b");
  full.parameters = (85899345920.0 - 100000.0) / 2;
  CHECK(bill_of(full).max_context_tokens == std::optional<double>(0.0));
  // Half a byte of 4-bit weights: 3 parameters are 1.5 bytes; ⌊1.0e-6 · 2^30⌋ = 1073 bytes;
  // 64 bytes a token: 64 · 16 = 1024 <= 1071.5 < 1088.
  attn::ModelShape toy = attn::toy_grouped_shape(16, 4, 2, 4);
  toy.parameters = 3;
  toy.weight_dtype_bytes = 0.5;
  toy.gpu_memory_gib = 1e-6;
  CHECK(bill_of(toy).max_context_tokens == std::optional<double>(16.0));
  check_longest(toy, 64, 0);

  // Against the reference at T and T + 1, for every preset, batch and GPU.
  for (const attn::ModelPreset& preset : attn::model_presets()) {
    for (std::size_t batch : {1, 3, 64}) {
      for (double gib : {24.0, 80.0, 141.0, 640.0, 2048.0}) {
        INFO(preset.name << ", batch " << batch << ", " << gib << " GiB");
        attn::ModelShape shape = attn::model_shape_of(preset);
        shape.batch = batch;
        shape.gpu_memory_gib = gib;
        const attn::KvBill bill = bill_of(shape);
        const auto per_layer = static_cast<std::uint64_t>(bill.bytes_per_token_per_layer);
        if (!bill.max_context_tokens) {
          // Only when every layer is local and the whole window fits.
          CHECK(bill.global_layers == 0);
          CHECK(reference_of(shape, per_layer, bill.local_layers).fits(shape.sliding_window));
          continue;
        }
        check_longest(shape, per_layer, bill.local_layers);
      }
    }
  }
}

TEST_CASE("kv bill windows: the curve a plot draws", "[kv_bill]") {
  const attn::KvBill gemma3 = bill_of(preset_shape("gemma-3-27b"));
  const attn::KvCurve curve = attn::compute_kv_curve(gemma3, 16, 1048576);
  // 16 doublings from 16 to 2^20, four points each, both ends: 65; plus the window (1024 is
  // already a point) and the crossing, 383,851: 66.
  REQUIRE(curve.points.size() == 66);
  CHECK(curve.points.front().context_tokens == 16.0);
  CHECK(curve.points.back().context_tokens == 1048576.0);
  CHECK(curve.memory_left_bytes == 85899345920.0 - 54018004480.0);  // 27,009,002,240 · 2 weights
  CHECK(curve.crossing_tokens == std::optional<double>(383851.0));
  bool crossing_drawn = false;
  for (std::size_t n = 0; n < curve.points.size(); ++n) {
    const attn::KvCurvePoint& point = curve.points[n];
    const double T = point.context_tokens;
    INFO("T = " << T);
    if (n) CHECK(T > curve.points[n - 1].context_tokens);
    CHECK(point.bytes_per_sequence == 8192.0 * (10 * T + 52 * (T < 1024 ? T : 1024)));
    crossing_drawn = crossing_drawn || T == 383851.0;
  }
  CHECK(crossing_drawn);
  // Every layer local: no crossing.
  CHECK_FALSE(attn::compute_kv_curve(bill_of(preset_shape("mistral-7b-v0.1")), 16, 64).crossing_tokens);
  CHECK(curve.batch == 1);
  CHECK(curve.memory_left_per_sequence_bytes == curve.memory_left_bytes);

  // A batch shares the memory left: Llama 3 8B, four sequences on 80 GiB. Each may hold
  // (85,899,345,920 - 16,060,522,496) / 4 = 17,459,705,856 bytes; P = ⌊69,838,823,424 /
  // (4 · 4096)⌋ = 4,262,623 token-layers; / 32 layers = 133,206.9: 133,206 tokens, the bill's
  // max_context_tokens, and drawn among the points.
  attn::ModelShape four = preset_shape("llama-3-8b");
  four.batch = 4;
  const attn::KvBill llama4 = bill_of(four);
  const attn::KvCurve shared = attn::compute_kv_curve(llama4, 16, 1048576);
  CHECK(shared.batch == 4);
  CHECK(shared.memory_left_bytes == 85899345920.0 - 16060522496.0);
  CHECK(shared.memory_left_per_sequence_bytes == 17459705856.0);
  CHECK(shared.crossing_tokens == std::optional<double>(133206.0));
  CHECK(shared.crossing_tokens == llama4.max_context_tokens);
  bool shared_crossing_drawn = false;
  for (const attn::KvCurvePoint& point : shared.points)
    shared_crossing_drawn = shared_crossing_drawn || point.context_tokens == 133206.0;
  CHECK(shared_crossing_drawn);
}

TEST_CASE("kv_bill_json: windows, the longest context, the curve, errors", "[sequel_json]") {
  const Value gemma3 = attn_test::answer_of(attn::kv_bill_json(R"({"preset":"gemma-3-27b"})"));
  CHECK(gemma3.find("sliding_window")->number == 1024);
  CHECK(gemma3.find("local_layers")->number == 52);
  CHECK(gemma3.find("bytes_per_sequence")->number == 11173625856.0);
  CHECK(gemma3.find("max_context_tokens")->number == 383851);
  const Value& curve = *gemma3.find("curve");
  CHECK(curve.find("context_tokens")->array.size() == 66);
  CHECK(curve.find("bytes_per_sequence")->array.size() == 66);
  CHECK(curve.find("crossing_tokens")->number == 383851);
  CHECK(curve.find("batch")->number == 1);
  CHECK(curve.find("memory_left_per_sequence_bytes")->number == curve.find("memory_left_bytes")->number);
  const Value batch4 = attn_test::answer_of(attn::kv_bill_json(R"({"preset":"llama-3-8b","batch":4})"));
  CHECK(batch4.find("curve")->find("batch")->number == 4);
  CHECK(batch4.find("curve")->find("memory_left_per_sequence_bytes")->number == 17459705856.0);
  CHECK(batch4.find("curve")->find("crossing_tokens")->number == batch4.find("max_context_tokens")->number);
  // Without the window: 62 layers of every token, 8192 · 62 · 131,072 = 66,571,993,088.
  const Value plain = attn_test::answer_of(attn::kv_bill_json(R"({"preset":"gemma-3-27b","sliding_window":null})"));
  CHECK(plain.find("sliding_window")->type == Type::null);
  CHECK(plain.find("local_layers")->number == 0);
  CHECK(plain.find("bytes_per_sequence")->number == 66571993088.0);
  // A window given alone applies to every layer: Llama 3 8B with 4096 tokens of window at
  // 8192: 4096 · 32 · 4096 = 536,870,912; and the cache stops growing: null.
  const Value windowed = attn_test::answer_of(attn::kv_bill_json(R"({"preset":"llama-3-8b","sliding_window":4096})"));
  CHECK(windowed.find("local_layers")->number == 32);
  CHECK(windowed.find("bytes_per_sequence")->number == 536870912.0);
  CHECK(windowed.find("max_context_tokens")->type == Type::null);
  CHECK(windowed.find("curve")->find("crossing_tokens")->type == Type::null);
  const Value half = attn_test::answer_of(
      attn::kv_bill_json(R"({"preset":"llama-3-8b","sliding_window":4096,"local_layers":16,"curve_from_tokens":1000,"curve_to_tokens":2000})"));
  CHECK(half.find("bytes_per_sequence")->number == 4096.0 * (16 * 8192 + 16 * 4096));
  CHECK(half.find("curve")->find("context_tokens")->array.front().number == 1000);
  CHECK(half.find("curve")->find("context_tokens")->array.back().number == 2000);
  // Mistral with every layer local, on fewer layers: still every layer.
  CHECK(attn_test::answer_of(attn::kv_bill_json(R"({"preset":"mistral-7b-v0.1","layers":8})"))
            .find("local_layers")->number == 8);
  CHECK(attn_test::answer_of(attn::kv_bill_json(R"({"preset":"gemma-3-27b","local_layers":null})"))
            .find("global_layers")->number == 0);

  attn_test::check_refused(attn::kv_bill_json(R"({"sliding_window":0})"), "sliding_window", "or null for no window");
  attn_test::check_refused(attn::kv_bill_json(R"({"sliding_window":1.5})"), "sliding_window", "got 1.5");
  attn_test::check_refused(attn::kv_bill_json(R"({"sliding_window":16777217})"), "sliding_window");
  attn_test::check_refused(attn::kv_bill_json(R"({"sliding_window":"4k"})"), "sliding_window", "got \"4k\"");
  attn_test::check_refused(attn::kv_bill_json(R"({"local_layers":1})"), "local_layers", "needs a sliding_window");
  attn_test::check_refused(attn::kv_bill_json(R"({"sliding_window":8,"local_layers":2})"), "local_layers", "only 1 layers");
  attn_test::check_refused(attn::kv_bill_json(R"({"preset":"gemma-3-27b","layers":40})"), "local_layers", "is 52");
  attn_test::check_refused(attn::kv_bill_json(R"({"local_layers":-1,"sliding_window":8})"), "local_layers");
  attn_test::check_refused(attn::kv_bill_json(R"({"curve_from_tokens":0})"), "curve_from_tokens");
  attn_test::check_refused(attn::kv_bill_json(R"({"curve_to_tokens":16777217})"), "curve_to_tokens");
  attn_test::check_refused(attn::kv_bill_json(R"({"curve_from_tokens":64,"curve_to_tokens":64})"),
                           "curve_to_tokens", "above curve_from_tokens (64)");
}
