// The KV-cache bill against figures worked out by hand (the arithmetic is written next to each
// expected number), for every preset and for the toy layer of each variant; the presets' shapes
// against their published configs; bad shapes refused by name.
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "attention/layers/kv_bill.h"
#include "explore_test_helpers.h"

namespace {

// 80 GiB = 80 · 1,073,741,824 = 85,899,345,920 bytes.
constexpr double gpu_80_gib = 85899345920.0;

attn::KvBill preset_bill(const char* name) {
  const attn::ModelPreset* preset = attn::find_model_preset(name);
  REQUIRE(preset != nullptr);
  const attn::ModelShape shape = attn::model_shape_of(*preset);
  REQUIRE_FALSE(attn::validate_model_shape(shape).has_value());
  return attn::compute_kv_bill(shape);
}

}  // namespace

TEST_CASE("kv bill: Llama 2 7B (MHA), by hand", "[kv_bill]") {
  const attn::KvBill bill = preset_bill("llama-2-7b");
  CHECK(bill.attention == "MHA");
  CHECK(bill.cached_values_per_token_per_layer == 8192.0);  // 2 · 32 · 128
  CHECK(bill.bytes_per_token_per_layer == 16384.0);         // 2 · 32 · 128 · 2
  CHECK(bill.working == "2 · 32 · 128 · 2 = 16384");
  CHECK(bill.formula == "2 · n_kv_heads · head_dim · dtype_bytes");
  CHECK(bill.bytes_per_token == 524288.0);                  // 16,384 · 32 layers
  CHECK(bill.bytes_per_sequence == 2147483648.0);           // 524,288 · 4096 tokens (2 GiB)
  CHECK(bill.cache_bytes == 2147483648.0);                  // batch 1
  CHECK(bill.weight_bytes == 13476831232.0);                // 6,738,415,616 · 2
  CHECK(bill.gpu_bytes == gpu_80_gib);
  CHECK(bill.fits);                                         // 13,476,831,232 + 2,147,483,648 <= 80 GiB
  // (85,899,345,920 - 13,476,831,232) / 2,147,483,648 = 72,422,514,688 / 2,147,483,648 = 33.72
  CHECK(bill.concurrent_sequences == 33.0);
}

TEST_CASE("kv bill: Llama 3 8B (GQA), by hand", "[kv_bill]") {
  const attn::KvBill bill = preset_bill("llama-3-8b");
  CHECK(bill.attention == "GQA");
  CHECK(bill.bytes_per_token_per_layer == 4096.0);   // 2 · 8 · 128 · 2
  CHECK(bill.working == "2 · 8 · 128 · 2 = 4096");
  CHECK(bill.bytes_per_token == 131072.0);           // 4096 · 32
  CHECK(bill.bytes_per_sequence == 1073741824.0);    // 131,072 · 8192 (1 GiB)
  CHECK(bill.weight_bytes == 16060522496.0);         // 8,030,261,248 · 2
  CHECK(bill.fits);
  // (85,899,345,920 - 16,060,522,496) / 1,073,741,824 = 69,838,823,424 / 1,073,741,824 = 65.04
  CHECK(bill.concurrent_sequences == 65.0);

  // Quantised to 4 bits with a 4-byte scale per vector: 16 vectors (2 · 8 K/V heads) of
  // ⌈128 · 4 / 8⌉ + 4 = 64 + 4 = 68 bytes: 16 · 68 = 1088 bytes per token per layer.
  attn::ModelShape shape = attn::model_shape_of(*attn::find_model_preset("llama-3-8b"));
  shape.kv_bits = 4;
  attn::KvBill four = attn::compute_kv_bill(shape);
  CHECK(four.bytes_per_token_per_layer == 1088.0);
  CHECK(four.cached_vectors_per_token_per_layer == 16.0);
  CHECK(four.working == "2 · 8 · (⌈128 · 4 / 8⌉ + 4) = 1088");
  CHECK(four.bytes_per_token == 34816.0);  // 1088 · 32
  // 3 bits: ⌈128 · 3 / 8⌉ + 4 = 48 + 4 = 52; 16 · 52 = 832.
  shape.kv_bits = 3;
  CHECK(attn::compute_kv_bill(shape).bytes_per_token_per_layer == 832.0);
  // A batch of 8: 8 · 1 GiB = 8,589,934,592 bytes of cache; with 16,060,522,496 of weights,
  // 24,650,457,088 bytes, which fits in 80 GiB.
  shape.kv_bits = 0;
  shape.batch = 8;
  const attn::KvBill batch = attn::compute_kv_bill(shape);
  CHECK(batch.cache_bytes == 8589934592.0);
  CHECK(batch.fits);
  // 70 sequences of 1 GiB do not: 16,060,522,496 + 75,161,927,680 = 91,222,450,176 > 80 GiB.
  shape.batch = 70;
  CHECK_FALSE(attn::compute_kv_bill(shape).fits);
}

TEST_CASE("kv bill: Falcon 7B (MQA), by hand", "[kv_bill]") {
  const attn::KvBill bill = preset_bill("falcon-7b");
  CHECK(bill.attention == "MQA");
  CHECK(bill.bytes_per_token_per_layer == 256.0);   // 2 · 1 · 64 · 2
  CHECK(bill.bytes_per_token == 8192.0);            // 256 · 32
  CHECK(bill.bytes_per_sequence == 16777216.0);     // 8192 · 2048
  CHECK(bill.weight_bytes == 13843441408.0);        // 6,921,720,704 · 2
  // (85,899,345,920 - 13,843,441,408) / 16,777,216 = 72,055,904,512 / 16,777,216 = 4294.87
  CHECK(bill.concurrent_sequences == 4294.0);
}

TEST_CASE("kv bill: DeepSeek-V2-Lite and DeepSeek-V3 (MLA), by hand", "[kv_bill]") {
  const attn::KvBill lite = preset_bill("deepseek-v2-lite");
  CHECK(lite.attention == "MLA");
  CHECK(lite.cached_values_per_token_per_layer == 576.0);  // 512 + 64
  CHECK(lite.cached_vectors_per_token_per_layer == 1.0);
  CHECK(lite.bytes_per_token_per_layer == 1152.0);         // (512 + 64) · 2
  CHECK(lite.formula == "(d_latent + rope_dim) · dtype_bytes");
  CHECK(lite.working == "(512 + 64) · 2 = 1152");
  CHECK(lite.bytes_per_token == 31104.0);                  // 1152 · 27
  CHECK(lite.bytes_per_sequence == 1019215872.0);          // 31,104 · 32,768
  CHECK(lite.weight_bytes == 31400000000.0);               // 15.7e9 · 2
  // (85,899,345,920 - 31,400,000,000) / 1,019,215,872 = 54,499,345,920 / 1,019,215,872 = 53.47
  CHECK(lite.concurrent_sequences == 53.0);

  const attn::KvBill v3 = preset_bill("deepseek-v3");
  CHECK(v3.attention == "MLA");
  CHECK(v3.bytes_per_token_per_layer == 1152.0);  // (512 + 64) · 2
  CHECK(v3.bytes_per_token == 70272.0);           // 1152 · 61
  CHECK(v3.bytes_per_sequence == 11513364480.0);  // 70,272 · 163,840
  CHECK(v3.weight_bytes == 671000000000.0);       // 671e9 · 1 (FP8)
  // 671,000,000,000 > 85,899,345,920: the weights alone do not fit one 80 GiB GPU.
  CHECK_FALSE(v3.fits);
  CHECK(v3.concurrent_sequences == 0.0);
  // On eight of them (640 GiB = 687,194,767,360 bytes): (687,194,767,360 - 671,000,000,000)
  // / 11,513,364,480 = 16,194,767,360 / 11,513,364,480 = 1.41: one sequence of 163,840 tokens.
  attn::ModelShape node = attn::model_shape_of(*attn::find_model_preset("deepseek-v3"));
  node.gpu_memory_gib = 640;
  CHECK(attn::compute_kv_bill(node).concurrent_sequences == 1.0);
  // Quantised to 4 bits: ⌈576 · 4 / 8⌉ + 4 = 288 + 4 = 292 bytes per token per layer.
  node.kv_bits = 4;
  const attn::KvBill four = attn::compute_kv_bill(node);
  CHECK(four.bytes_per_token_per_layer == 292.0);
  CHECK(four.working == "⌈(512 + 64) · 4 / 8⌉ + 4 = 292");
}

TEST_CASE("kv bill: the toy layer of each variant, by hand", "[kv_bill]") {
  // d_model 16, 4 heads of 4, one layer, float32 (4 bytes), four tokens, batch 1.
  struct Toy {
    const char* attention;
    attn::ModelShape shape;
    double per_token_per_layer, per_sequence, parameters;
  };
  const Toy toys[] = {
      // MHA: 2 · 4 · 4 · 4 = 128 bytes; · 4 tokens = 512; tables 16 · 4 · 2 · (4 + 4) = 1024.
      {"MHA", attn::toy_grouped_shape(16, 4, 4, 4), 128.0, 512.0, 1024.0},
      // GQA: 2 · 2 · 4 · 4 = 64; · 4 = 256; tables 16 · 4 · 2 · (4 + 2) = 768.
      {"GQA", attn::toy_grouped_shape(16, 4, 2, 4), 64.0, 256.0, 768.0},
      // MQA: 2 · 1 · 4 · 4 = 32; · 4 = 128; tables 16 · 4 · 2 · (4 + 1) = 640.
      {"MQA", attn::toy_grouped_shape(16, 4, 1, 4), 32.0, 128.0, 640.0},
      // MLA, d_latent 8, no RoPE part: (8 + 0) · 4 = 32; · 4 = 128;
      // tables 2 · 16² + 3 · 16 · 8 = 512 + 384 = 896.
      {"MLA", attn::toy_latent_shape(16, 4, 8, 4), 32.0, 128.0, 896.0},
  };
  for (const Toy& toy : toys) {
    INFO(toy.attention);
    REQUIRE_FALSE(attn::validate_model_shape(toy.shape).has_value());
    const attn::KvBill bill = attn::compute_kv_bill(toy.shape);
    CHECK(bill.attention == toy.attention);
    CHECK(bill.bytes_per_token_per_layer == toy.per_token_per_layer);
    CHECK(bill.bytes_per_token == toy.per_token_per_layer);  // one layer
    CHECK(bill.bytes_per_sequence == toy.per_sequence);
    CHECK(bill.cache_bytes == toy.per_sequence);
    CHECK(bill.shape.parameters == toy.parameters);
    CHECK(bill.weight_bytes == toy.parameters * 4.0);
    CHECK(bill.fits);
  }
  // GQA: (85,899,345,920 - 3072) / 256 = 335,544,308 sequences of four tokens.
  CHECK(attn::compute_kv_bill(toys[1].shape).concurrent_sequences == 335544308.0);
  // The toy's MLA latent quantised to 4 bits: ⌈8 · 4 / 8⌉ + 4 = 8 bytes per token per layer.
  attn::ModelShape quantised = toys[3].shape;
  quantised.kv_bits = 4;
  CHECK(attn::compute_kv_bill(quantised).bytes_per_token_per_layer == 8.0);
  CHECK(attn::quantised_vector_bytes(4, 3, 4) == 6);  // ⌈12 / 8⌉ + 4
  CHECK(attn::quantised_vector_bytes(128, 2, 0) == 32);
}

TEST_CASE("kv bill: the presets' shapes are their configs'", "[kv_bill]") {
  const auto& presets = attn::model_presets();
  REQUIRE(presets.size() == 11);  // five without a window, six more (three of them windowed)
  const attn::ModelPreset& llama2 = *attn::find_model_preset("llama-2-7b");
  CHECK(llama2.d_model == 4096);
  CHECK(llama2.layers == 32);
  CHECK(llama2.n_heads == 32);
  CHECK(llama2.n_kv_heads == 32);
  CHECK(llama2.head_dim == 128);
  CHECK(llama2.max_context == 4096);
  const attn::ModelPreset& llama3 = *attn::find_model_preset("llama-3-8b");
  CHECK(llama3.n_kv_heads == 8);
  CHECK(llama3.max_context == 8192);
  const attn::ModelPreset& falcon = *attn::find_model_preset("falcon-7b");
  CHECK(falcon.d_model == 4544);
  CHECK(falcon.n_heads == 71);
  CHECK(falcon.n_kv_heads == 1);
  CHECK(falcon.head_dim * falcon.n_heads == falcon.d_model);  // 64 · 71 = 4544
  // Falcon 7B's count from its shapes: 65,024 · 4544 = 295,469,056 (tied embeddings); per
  // layer 4544 · 4672 + 4544² + 2 · 4544 · 18,176 + 2 · 4544 = 21,229,568 + 20,647,936
  // + 165,183,488 + 9088 = 207,070,080; · 32 = 6,626,242,560; + 2 · 4544 (final norm).
  CHECK(falcon.parameters == 295469056.0 + 6626242560.0 + 9088.0);
  const attn::ModelPreset& lite = *attn::find_model_preset("deepseek-v2-lite");
  CHECK(lite.layers == 27);
  CHECK(lite.d_latent == 512);
  CHECK(lite.rope_dim == 64);
  const attn::ModelPreset& v3 = *attn::find_model_preset("deepseek-v3");
  CHECK(v3.layers == 61);
  CHECK(v3.n_heads == 128);
  CHECK(v3.d_latent == 512);
  CHECK(v3.max_context == 163840);
  for (const attn::ModelPreset& preset : presets) {
    INFO(preset.name);
    CHECK(std::string(preset.citation).rfind("https://huggingface.co/", 0) == 0);
    CHECK_FALSE(preset.parameters_source.empty());
    CHECK(attn::model_shape_of(preset).preset == preset.name);
  }
  CHECK(attn::find_model_preset("gpt-5") == nullptr);
  CHECK(attn::attention_parameters(attn::toy_grouped_shape(16, 4, 2, 4)) == 768.0);
}

TEST_CASE("kv bill: bad shapes name the field", "[kv_bill]") {
  const attn::ModelShape good = attn::toy_grouped_shape(16, 4, 2, 4);
  const auto refused = [&](const char* what, const std::string& path, auto&& change) {
    attn::ModelShape shape = good;
    change(shape);
    INFO(what);
    const auto error = attn::validate_model_shape(shape);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
  };
  refused("0 layers", "layers", [](auto& s) { s.layers = 0; });
  refused("2000 layers", "layers", [](auto& s) { s.layers = 2000; });
  refused("3 K/V heads of 4", "n_kv_heads", [](auto& s) { s.n_kv_heads = 3; });
  refused("0 K/V heads", "n_kv_heads", [](auto& s) { s.n_kv_heads = 0; });
  refused("head_dim 0", "head_dim", [](auto& s) { s.head_dim = 0; });
  refused("MLA with d_latent 0", "d_latent", [](auto& s) { s.latent = true; s.d_latent = 0; });
  refused("rope_dim 5000", "rope_dim", [](auto& s) { s.latent = true; s.d_latent = 8; s.rope_dim = 5000; });
  refused("3-byte values", "dtype_bytes", [](auto& s) { s.dtype_bytes = 3; });
  refused("5-bit cache", "kv_bits", [](auto& s) { s.kv_bits = 5; });
  refused("9-byte scales", "scale_bytes", [](auto& s) { s.scale_bytes = 9; });
  refused("3-byte weights", "weight_dtype_bytes", [](auto& s) { s.weight_dtype_bytes = 3; });
  refused("no parameters", "parameters", [](auto& s) { s.parameters = 0; });
  refused("half a parameter", "parameters", [](auto& s) { s.parameters = 1.5; });
  refused("no context", "context_length", [](auto& s) { s.context_length = 0; });
  refused("batch 0", "batch", [](auto& s) { s.batch = 0; });
  refused("no GPU memory", "gpu_memory_gib", [](auto& s) { s.gpu_memory_gib = 0; });
  refused("NaN GPU memory", "gpu_memory_gib",
          [](auto& s) { s.gpu_memory_gib = std::numeric_limits<double>::quiet_NaN(); });
}
