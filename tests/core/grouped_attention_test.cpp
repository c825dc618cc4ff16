// MHA, GQA and MQA: bit-for-bit equal to the multi-head layer when nothing is shared, equal to
// an MHA layer whose heads repeat their group's K/V tables when something is, against a
// float64 recomputation, and refusing groupings that do not divide the heads.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "attention/layers/grouped_attention.h"
#include "attention/layers/multi_head.h"
#include "explore_test_helpers.h"
#include "sequel_test_helpers.h"

namespace {

using sequel_test::words;

struct Shape {
  std::size_t d_model, n_heads;
};

void check_against_f64(const attn::GroupedAttentionInput& input, const std::string& what) {
  REQUIRE_FALSE(attn::validate_grouped_input(input).has_value());
  const attn::GroupedAttentionLayer layer = attn::compute_grouped_attention(input);
  const std::size_t T = input.tokens.size();
  const std::size_t d_model = input.d_model();
  const std::size_t head_dim = input.head_dim();
  const std::size_t group = input.n_heads / input.n_kv_heads;
  const std::vector<double> x = attn_test::values_f64(input.x);
  std::vector<std::vector<double>> q, k, v;
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    const std::size_t g = h / group;  // the K/V head of query head h, from the definition
    q.push_back(attn_test::multiply_f64(x, attn_test::values_f64(input.w_q[h]), T, d_model, head_dim));
    k.push_back(attn_test::multiply_f64(x, attn_test::values_f64(input.w_k[g]), T, d_model, head_dim));
    v.push_back(attn_test::multiply_f64(x, attn_test::values_f64(input.w_v[g]), T, d_model, head_dim));
  }
  const sequel_test::LayerF64 ref = sequel_test::layer_f64(
      q, k, v, attn_test::values_f64(input.w_o), T, head_dim, d_model,
      input.mask == attn::MaskKind::causal, input.mask_fill == attn::MaskFill::zero,
      sequel_test::divisor_f64(input.scale, head_dim));

  REQUIRE(layer.heads.size() == input.n_heads);
  REQUIRE(layer.kv_heads.size() == input.n_kv_heads);
  CHECK(layer.group_size == group);
  CHECK(layer.head_dim == head_dim);
  for (std::size_t g = 0; g < input.n_kv_heads; ++g) {
    const std::string kv = what + ", K/V head " + std::to_string(g);
    sequel_test::check_close(layer.kv_heads[g].k, k[g * group], 1e-5, kv + " k");
    sequel_test::check_close(layer.kv_heads[g].v, v[g * group], 1e-5, kv + " v");
    std::vector<std::size_t> expected;
    for (std::size_t h = g * group; h < (g + 1) * group; ++h) expected.push_back(h);
    CHECK(layer.kv_heads[g].query_heads == expected);
  }
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    const std::string head = what + ", head " + std::to_string(h);
    const attn::QueryHeadOfLayer& query_head = layer.heads[h];
    CHECK(query_head.kv_head == h / group);
    CHECK(attn::kv_head_of(h, input.n_heads, input.n_kv_heads) == h / group);
    // A query head reads its group's cached K and V, not a copy made differently.
    CHECK(query_head.trace.k.values == layer.kv_heads[h / group].k.values);
    CHECK(query_head.trace.v.values == layer.kv_heads[h / group].v.values);
    sequel_test::check_close(query_head.trace.q, q[h], 1e-5, head + " q");
    sequel_test::check_close(query_head.trace.weights, ref.heads[h].weights, 1e-4, head + " weights");
    sequel_test::check_close(query_head.trace.out, ref.heads[h].out, 1e-4, head + " out");
  }
  sequel_test::check_close(layer.concat, ref.concat, 1e-4, what + " concat");
  sequel_test::check_close(layer.out, ref.out, 2e-4, what + " out");
}

}  // namespace

TEST_CASE("grouped attention: MHA, GQA and MQA against float64", "[grouped]") {
  for (const std::size_t T : {1, 2, 4, 7, 16}) {
    for (const std::size_t n_kv_heads : {4, 2, 1}) {
      for (const char* mask : {"causal", "none", "causal_zero"}) {
        attn::GroupedAttentionInput input = attn::seeded_grouped_input(words(T), 16, 4, n_kv_heads, 2024);
        input.mask = attn::parse_mask_variant(mask)->mask;
        input.mask_fill = attn::parse_mask_variant(mask)->fill;
        check_against_f64(input, "T " + std::to_string(T) + ", n_kv_heads " +
                                     std::to_string(n_kv_heads) + ", mask " + mask);
      }
    }
  }
  for (const Shape shape : {Shape{24, 6}, Shape{64, 8}, Shape{12, 12}}) {
    for (std::size_t n_kv_heads = 1; n_kv_heads <= shape.n_heads; ++n_kv_heads) {
      if (shape.n_heads % n_kv_heads != 0) continue;
      for (const attn::ScaleKind scale : {attn::ScaleKind::sqrt_head_dim, attn::ScaleKind::none}) {
        attn::GroupedAttentionInput input =
            attn::seeded_grouped_input(words(5), shape.d_model, shape.n_heads, n_kv_heads, 9);
        input.scale = scale;
        check_against_f64(input, "d_model " + std::to_string(shape.d_model) + ", " +
                                     std::to_string(shape.n_heads) + " heads, " +
                                     std::to_string(n_kv_heads) + " K/V heads");
      }
    }
  }
}

TEST_CASE("grouped attention: n_kv_heads = n_heads is the multi-head layer, bit for bit",
          "[grouped]") {
  for (const Shape shape : {Shape{16, 4}, Shape{16, 1}, Shape{12, 3}, Shape{64, 8}}) {
    for (const std::size_t T : {1, 4, 9}) {
      for (const char* mask : {"causal", "none", "causal_zero"}) {
        const std::string what = "d_model " + std::to_string(shape.d_model) + ", " +
                                 std::to_string(shape.n_heads) + " heads, T " + std::to_string(T) +
                                 ", mask " + mask;
        INFO(what);
        attn::GroupedAttentionInput grouped =
            attn::seeded_grouped_input(words(T), shape.d_model, shape.n_heads, shape.n_heads, 77);
        attn::MultiHeadInput multi =
            attn::seeded_multi_head_input(words(T), shape.d_model, shape.n_heads, 77);
        for (auto* mask_kind : {&grouped.mask, &multi.mask}) *mask_kind = attn::parse_mask_variant(mask)->mask;
        for (auto* fill : {&grouped.mask_fill, &multi.mask_fill}) *fill = attn::parse_mask_variant(mask)->fill;
        // The same seeded tables...
        CHECK(grouped.x.values == multi.x.values);
        for (std::size_t h = 0; h < shape.n_heads; ++h) {
          CHECK(grouped.w_q[h].values == multi.w_q[h].values);
          CHECK(grouped.w_k[h].values == multi.w_k[h].values);
          CHECK(grouped.w_v[h].values == multi.w_v[h].values);
        }
        CHECK(grouped.w_o.values == multi.w_o.values);
        // ...give the same numbers, every one of them.
        const attn::GroupedAttentionLayer a = attn::compute_grouped_attention(grouped);
        const attn::MultiHeadLayer b = attn::compute_multi_head(multi);
        CHECK(attn::grouped_variant_name(shape.n_heads, shape.n_heads) == "MHA");
        for (std::size_t h = 0; h < shape.n_heads; ++h)
          sequel_test::check_identical_traces(a.heads[h].trace, b.heads[h].trace,
                                              what + ", head " + std::to_string(h));
        sequel_test::check_identical(a.concat, b.concat, what + " concat");
        sequel_test::check_identical(a.out, b.out, what + " out");
      }
    }
  }
}

TEST_CASE("grouped attention: sharing is MHA with the group's K/V tables repeated, bit for bit",
          "[grouped]") {
  // MQA (one group of all the heads) and GQA equal an MHA layer in which every query head is
  // handed its group's W_K and W_V: sharing changes what is cached, not what is computed.
  for (const std::size_t n_kv_heads : {1, 2, 4, 8}) {
    for (const char* mask : {"causal", "none"}) {
      const std::string what = std::to_string(n_kv_heads) + " K/V heads of 8, mask " + mask;
      INFO(what);
      attn::GroupedAttentionInput grouped = attn::seeded_grouped_input(words(6), 32, 8, n_kv_heads, 5);
      grouped.mask = attn::parse_mask_variant(mask)->mask;
      attn::MultiHeadInput multi = attn::seeded_multi_head_input(words(6), 32, 8, 5);
      multi.mask = grouped.mask;
      for (std::size_t h = 0; h < 8; ++h) {
        multi.w_k[h] = grouped.w_k[h / (8 / n_kv_heads)];
        multi.w_v[h] = grouped.w_v[h / (8 / n_kv_heads)];
      }
      const attn::GroupedAttentionLayer a = attn::compute_grouped_attention(grouped);
      const attn::MultiHeadLayer b = attn::compute_multi_head(multi);
      for (std::size_t h = 0; h < 8; ++h)
        sequel_test::check_identical_traces(a.heads[h].trace, b.heads[h].trace,
                                            what + ", head " + std::to_string(h));
      sequel_test::check_identical(a.out, b.out, what + " out");
    }
  }

  // MQA is GQA with one group: its single K/V head is the first K/V head of every grouping
  // (the tables are seeded per K/V head index), and all query heads read it.
  const attn::GroupedAttentionLayer mqa =
      attn::compute_grouped_attention(attn::seeded_grouped_input(words(4), 16, 4, 1, 3));
  const attn::GroupedAttentionLayer gqa =
      attn::compute_grouped_attention(attn::seeded_grouped_input(words(4), 16, 4, 2, 3));
  CHECK(attn::grouped_variant_name(4, 1) == "MQA");
  CHECK(attn::grouped_variant_name(4, 2) == "GQA");
  CHECK(attn::grouped_variant_name(1, 1) == "MHA");
  REQUIRE(mqa.kv_heads.size() == 1);
  CHECK(mqa.group_size == 4);
  CHECK(mqa.kv_heads[0].query_heads == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(mqa.kv_heads[0].k.values == gqa.kv_heads[0].k.values);
  // Query heads 0 and 1 read K/V head 0 in both layers: the same traces.
  for (std::size_t h = 0; h < 2; ++h)
    sequel_test::check_identical_traces(mqa.heads[h].trace, gqa.heads[h].trace,
                                        "head " + std::to_string(h));
  // Heads 2 and 3 read a different K/V head in GQA.
  CHECK(mqa.heads[2].trace.k.values != gqa.heads[2].trace.k.values);
}

TEST_CASE("grouped attention: bad groupings and tables name the field", "[grouped]") {
  const attn::GroupedAttentionInput good = attn::seeded_grouped_input(words(3), 16, 4, 2, 1);
  REQUIRE_FALSE(attn::validate_grouped_input(good).has_value());
  const auto refused = [&](const char* what, const std::string& path, const char* fragment, auto&& change) {
    attn::GroupedAttentionInput input = good;
    change(input);
    INFO(what);
    const auto error = attn::validate_grouped_input(input);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
    if (fragment) {
      INFO("message: " << error->message);
      CHECK(error->message.find(fragment) != std::string::npos);
    }
  };
  refused("3 K/V heads for 4 heads", "n_kv_heads", "must divide n_heads (4)",
          [](auto& in) { in.n_kv_heads = 3; });
  refused("8 K/V heads for 4 heads", "n_kv_heads", "must divide n_heads (4)",
          [](auto& in) { in.n_kv_heads = 8; });
  refused("0 K/V heads", "n_kv_heads", "at least 1", [](auto& in) { in.n_kv_heads = 0; });
  refused("0 heads", "n_heads", nullptr, [](auto& in) { in.n_heads = 0; });
  refused("5 heads of 16", "n_heads", "divide d_model 16", [](auto& in) { in.n_heads = 5; in.n_kv_heads = 1; });
  refused("no tokens", "tokens", nullptr, [](auto& in) { in.tokens.clear(); in.x = attn::Matrix(0, 16); });
  refused("an empty token", "tokens[2]", "empty", [](auto& in) { in.tokens[2] = ""; });
  refused("x a row short", "x", "one row per token", [](auto& in) { in.x = attn::Matrix(2, 16); });
  refused("NaN in x", "x[1][4]", "finite",
          [](auto& in) { in.x.at(1, 4) = std::numeric_limits<float>::quiet_NaN(); });
  refused("one W_K per query head", "w_k", "one per K/V head",
          [](auto& in) { in.w_k.push_back(in.w_k[0]); in.w_k.push_back(in.w_k[0]); });
  refused("W_Q of head 3 too narrow", "w_q[3]", "d_model × head_dim",
          [](auto& in) { in.w_q[3] = attn::Matrix(16, 3); });
  refused("2e6 in W_V", "w_v[1][15][3]", "1e6", [](auto& in) { in.w_v[1].at(15, 3) = 2e6f; });
  refused("W_O not square", "w_o", nullptr, [](auto& in) { in.w_o = attn::Matrix(16, 4); });

  CHECK_FALSE(attn::validate_grouping(8, 2).has_value());
  CHECK_FALSE(attn::validate_grouping(71, 1).has_value());
  const auto error = attn::validate_grouping(32, 12);
  REQUIRE(error.has_value());
  CHECK(error->message == "n_kv_heads: must divide n_heads (32) into groups of equal size; 12 does not");
}
