// Multi-head latent attention against a float64 recomputation, the cache being the latent alone,
// MLA with a full-rank latent equal to MHA with the composed weights, and its validation.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "attention/layers/latent_attention.h"
#include "attention/layers/multi_head.h"
#include "explore_test_helpers.h"
#include "sequel_test_helpers.h"

namespace {

using sequel_test::words;

// The float64 layer from the MLA tables: C = X · W_DKV, K_h = C · W_UK[h], V_h = C · W_UV[h].
sequel_test::LayerF64 latent_layer_f64(const attn::LatentAttentionInput& input, std::vector<double>* latent_out) {
  const std::size_t T = input.tokens.size();
  const std::size_t d_model = input.d_model();
  const std::size_t head_dim = input.head_dim();
  const std::vector<double> x = attn_test::values_f64(input.x);
  const std::vector<double> latent =
      attn_test::multiply_f64(x, attn_test::values_f64(input.w_dkv), T, d_model, input.d_latent);
  if (latent_out) *latent_out = latent;
  std::vector<std::vector<double>> q, k, v;
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    q.push_back(attn_test::multiply_f64(x, attn_test::values_f64(input.w_q[h]), T, d_model, head_dim));
    k.push_back(attn_test::multiply_f64(latent, attn_test::values_f64(input.w_uk[h]), T, input.d_latent, head_dim));
    v.push_back(attn_test::multiply_f64(latent, attn_test::values_f64(input.w_uv[h]), T, input.d_latent, head_dim));
  }
  return sequel_test::layer_f64(q, k, v, attn_test::values_f64(input.w_o), T, head_dim, d_model,
                                input.mask == attn::MaskKind::causal,
                                input.mask_fill == attn::MaskFill::zero,
                                sequel_test::divisor_f64(input.scale, head_dim));
}

void check_against_f64(const attn::LatentAttentionInput& input, const std::string& what) {
  REQUIRE_FALSE(attn::validate_latent_input(input).has_value());
  const attn::LatentAttentionLayer layer = attn::compute_latent_attention(input);
  std::vector<double> latent;
  const sequel_test::LayerF64 ref = latent_layer_f64(input, &latent);
  CHECK(layer.d_latent == input.d_latent);
  CHECK(layer.latent.rows == input.tokens.size());
  CHECK(layer.latent.cols == input.d_latent);
  sequel_test::check_close(layer.latent, latent, 1e-5, what + " latent");
  REQUIRE(layer.heads.size() == input.n_heads);
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    const std::string head = what + ", head " + std::to_string(h);
    sequel_test::check_close(layer.heads[h].trace.weights, ref.heads[h].weights, 1e-4, head + " weights");
    sequel_test::check_close(layer.heads[h].trace.out, ref.heads[h].out, 1e-4, head + " out");
  }
  sequel_test::check_close(layer.concat, ref.concat, 1e-4, what + " concat");
  sequel_test::check_close(layer.out, ref.out, 2e-4, what + " out");
}

}  // namespace

TEST_CASE("latent attention: against float64", "[latent]") {
  for (const std::size_t T : {1, 4, 7, 16}) {
    for (const std::size_t d_latent : {1, 2, 8, 16, 24}) {
      for (const char* mask : {"causal", "none", "causal_zero"}) {
        attn::LatentAttentionInput input = attn::seeded_latent_input(words(T), 16, 4, d_latent, 11);
        input.mask = attn::parse_mask_variant(mask)->mask;
        input.mask_fill = attn::parse_mask_variant(mask)->fill;
        check_against_f64(input, "T " + std::to_string(T) + ", d_latent " + std::to_string(d_latent) +
                                     ", mask " + mask);
      }
    }
  }
  attn::LatentAttentionInput wide = attn::seeded_latent_input(words(5), 64, 8, 32, 2);
  wide.scale = attn::ScaleKind::head_dim;
  check_against_f64(wide, "d_model 64, 8 heads, d_latent 32, scale d");
}

TEST_CASE("latent attention: the cache is the latent, and K, V are rebuilt from it", "[latent]") {
  const attn::LatentAttentionInput input = attn::seeded_latent_input(words(4), 16, 4, 8, 1);
  const attn::LatentAttentionLayer layer = attn::compute_latent_attention(input);
  // 8 numbers per token are kept, not MHA's 2 · 4 heads · 4 = 32.
  CHECK(layer.latent.values.size() == 4 * 8);
  const std::vector<double> latent = attn_test::values_f64(layer.latent);
  for (std::size_t h = 0; h < 4; ++h) {
    // Each head's K and V come from the cached latent through its own up-projection.
    sequel_test::check_close(layer.heads[h].trace.k,
                             attn_test::multiply_f64(latent, attn_test::values_f64(input.w_uk[h]), 4, 8, 4),
                             1e-6, "k of head " + std::to_string(h));
    sequel_test::check_close(layer.heads[h].trace.v,
                             attn_test::multiply_f64(latent, attn_test::values_f64(input.w_uv[h]), 4, 8, 4),
                             1e-6, "v of head " + std::to_string(h));
  }
  // The queries are MHA's: the same seeded W_Q, the same token vectors.
  const attn::MultiHeadInput multi = attn::seeded_multi_head_input(words(4), 16, 4, 1);
  CHECK(input.x.values == multi.x.values);
  for (std::size_t h = 0; h < 4; ++h) CHECK(input.w_q[h].values == multi.w_q[h].values);
  CHECK(input.w_o.values == multi.w_o.values);
  // The up-projections' grid follows d_latent: ±√(3 / 8) ≈ 0.612.
  for (const attn::Matrix& w : input.w_uk)
    for (const float value : w.values) CHECK(std::fabs(value) <= std::sqrt(3.0 / 8.0));
}

TEST_CASE("latent attention: a full-rank latent is MHA with the composed weights", "[latent]") {
  // d_latent = d_model: W_K[h] = W_DKV · W_UK[h], W_V[h] = W_DKV · W_UV[h] make an MHA layer that
  // computes the same attention (the products are associative). Both are compared with the one
  // float64 answer and with each other.
  for (const std::size_t T : {2, 4, 9}) {
    for (const char* mask : {"causal", "none"}) {
      const std::string what = "T " + std::to_string(T) + ", mask " + mask;
      INFO(what);
      attn::LatentAttentionInput latent = attn::seeded_latent_input(words(T), 16, 4, 16, 31);
      latent.mask = attn::parse_mask_variant(mask)->mask;
      const std::vector<double> w_dkv = attn_test::values_f64(latent.w_dkv);

      attn::MultiHeadInput multi = attn::seeded_multi_head_input(words(T), 16, 4, 31);
      multi.mask = latent.mask;
      multi.x = latent.x;
      multi.w_o = latent.w_o;
      for (std::size_t h = 0; h < 4; ++h) {
        multi.w_q[h] = latent.w_q[h];
        const std::vector<double> w_k = attn_test::multiply_f64(w_dkv, attn_test::values_f64(latent.w_uk[h]), 16, 16, 4);
        const std::vector<double> w_v = attn_test::multiply_f64(w_dkv, attn_test::values_f64(latent.w_uv[h]), 16, 16, 4);
        for (std::size_t n = 0; n < w_k.size(); ++n) {
          multi.w_k[h].values[n] = static_cast<float>(w_k[n]);
          multi.w_v[h].values[n] = static_cast<float>(w_v[n]);
        }
      }
      REQUIRE_FALSE(attn::validate_multi_head_input(multi).has_value());
      const attn::LatentAttentionLayer a = attn::compute_latent_attention(latent);
      const attn::MultiHeadLayer b = attn::compute_multi_head(multi);
      const sequel_test::LayerF64 ref = latent_layer_f64(latent, nullptr);
      sequel_test::check_close(a.out, ref.out, 2e-4, what + " MLA out");
      sequel_test::check_close(b.out, ref.out, 2e-4, what + " MHA (composed) out");
      sequel_test::check_close(a.out, attn_test::values_f64(b.out), 2e-4, what + " MLA against MHA");
      for (std::size_t h = 0; h < 4; ++h)
        sequel_test::check_close(a.heads[h].trace.weights, attn_test::values_f64(b.heads[h].trace.weights),
                                 1e-4, what + " weights of head " + std::to_string(h));
    }
  }
}

TEST_CASE("latent attention: bad sizes and tables name the field", "[latent]") {
  const attn::LatentAttentionInput good = attn::seeded_latent_input(words(3), 16, 4, 8, 1);
  REQUIRE_FALSE(attn::validate_latent_input(good).has_value());
  const auto refused = [&](const char* what, const std::string& path, const char* fragment, auto&& change) {
    attn::LatentAttentionInput input = good;
    change(input);
    INFO(what);
    const auto error = attn::validate_latent_input(input);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
    if (fragment) {
      INFO("message: " << error->message);
      CHECK(error->message.find(fragment) != std::string::npos);
    }
  };
  refused("d_latent 0", "d_latent", "at least 1", [](auto& in) { in.d_latent = 0; });
  refused("d_latent 300", "d_latent", "256", [](auto& in) { in.d_latent = 300; });
  refused("3 heads of 16", "n_heads", "divide", [](auto& in) { in.n_heads = 3; });
  refused("2e3 in x", "x[0][3]", "1e3", [](auto& in) { in.x.at(0, 3) = 2e3f; });
  refused("infinity in W_DKV", "w_dkv[15][7]", "finite",
          [](auto& in) { in.w_dkv.at(15, 7) = std::numeric_limits<float>::infinity(); });
  refused("W_DKV too narrow", "w_dkv", "d_model × d_latent", [](auto& in) { in.w_dkv = attn::Matrix(16, 7); });
  refused("W_UK of head 1 the wrong height", "w_uk[1]", "d_latent × head_dim",
          [](auto& in) { in.w_uk[1] = attn::Matrix(16, 4); });
  refused("three W_UV", "w_uv", "one per head", [](auto& in) { in.w_uv.pop_back(); });
  refused("-5e3 in W_UV", "w_uv[2][0][1]", "1e3", [](auto& in) { in.w_uv[2].at(0, 1) = -5e3f; });
  refused("W_O", "w_o[4][9]", nullptr, [](auto& in) { in.w_o.at(4, 9) = 1e4f; });
  refused("W_Q", "w_q[0]", nullptr, [](auto& in) { in.w_q[0] = attn::Matrix(8, 4); });

  // The largest allowed values cannot overflow: 256 · 1e3 · 1e3 per latent, 256 more per key.
  attn::LatentAttentionInput extreme = attn::seeded_latent_input(words(2), 256, 1, 256, 1);
  for (float& value : extreme.x.values) value = 1e3f;
  for (float& value : extreme.w_dkv.values) value = 1e3f;
  for (float& value : extreme.w_uk[0].values) value = -1e3f;
  for (float& value : extreme.w_uv[0].values) value = 1e3f;
  for (float& value : extreme.w_q[0].values) value = 1e3f;
  REQUIRE_FALSE(attn::validate_latent_input(extreme).has_value());
  const attn::LatentAttentionLayer layer = attn::compute_latent_attention(extreme);
  for (const float value : layer.heads[0].trace.weights.values) CHECK(std::isfinite(value));
  for (const float value : layer.out.values) CHECK(std::isfinite(value));
}
