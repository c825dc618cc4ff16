// The multi-head layer against a float64 recomputation (projections, one head each, the
// concatenation, W_O), its seeded tables, its validation, and the JSON call.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/json/explore_json.h"
#include "attention/layers/multi_head.h"
#include "attention/reference/trace.h"
#include "explore_test_helpers.h"
#include "reference_variants_f64.h"
#include "sequel_test_helpers.h"

namespace {

using sequel_test::check_close;
using sequel_test::words;

// Columns [from, from + count) of a [rows][cols] row-major table.
std::vector<double> columns(const std::vector<double>& m, std::size_t rows, std::size_t cols,
                            std::size_t from, std::size_t count) {
  std::vector<double> out;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = from; c < from + count; ++c) out.push_back(m[r * cols + c]);
  return out;
}

// The whole layer in double from the same tables, and the core's layer compared with it.
void check_layer_against_f64(const attn::MultiHeadInput& input, const std::string& what) {
  REQUIRE_FALSE(attn::validate_multi_head_input(input).has_value());
  const attn::MultiHeadLayer layer = attn::compute_multi_head(input);
  const std::size_t T = input.tokens.size();
  const std::size_t d_model = input.d_model();
  const std::size_t head_dim = d_model / input.n_heads;
  REQUIRE(layer.heads.size() == input.n_heads);
  CHECK(layer.d_model == d_model);
  CHECK(layer.head_dim == head_dim);

  const std::vector<double> x = attn_test::values_f64(input.x);
  std::vector<double> concat(T * d_model, 0.0);  // [T][d_model]
  const double divisor = input.scale == attn::ScaleKind::sqrt_head_dim
                             ? std::sqrt(static_cast<double>(head_dim))
                         : input.scale == attn::ScaleKind::head_dim ? static_cast<double>(head_dim)
                                                                    : 1.0;
  for (std::size_t h = 0; h < input.n_heads; ++h) {
    const std::string head = what + ", head " + std::to_string(h);
    const std::vector<double> q = attn_test::multiply_f64(x, attn_test::values_f64(input.w_q[h]), T, d_model, head_dim);
    const std::vector<double> k = attn_test::multiply_f64(x, attn_test::values_f64(input.w_k[h]), T, d_model, head_dim);
    const std::vector<double> v = attn_test::multiply_f64(x, attn_test::values_f64(input.w_v[h]), T, d_model, head_dim);
    const attn::Trace& trace = layer.heads[h].trace;
    check_close(trace.q, q, 1e-5, head + " q");
    check_close(trace.k, k, 1e-5, head + " k");
    check_close(trace.v, v, 1e-5, head + " v");
    CHECK(trace.tokens == input.tokens);
    CHECK(trace.mask == input.mask);
    CHECK(trace.mask_fill == input.mask_fill);
    CHECK(trace.scale == input.scale);
    CHECK(layer.heads[h].w_q.values == input.w_q[h].values);
    const attn_test::HeadF64 ref = attn_test::reference_head_f64(
        q, k, v, T, head_dim, input.mask == attn::MaskKind::causal,
        input.mask_fill == attn::MaskFill::zero, divisor);
    check_close(trace.weights, ref.weights, 1e-4, head + " weights");
    check_close(trace.out, ref.out, 1e-4, head + " out");
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t c = 0; c < head_dim; ++c) concat[t * d_model + h * head_dim + c] = ref.out[t * head_dim + c];
    // The head's slice of the concatenation is its output, exactly.
    const std::vector<double> slice = columns(attn_test::values_f64(layer.concat), T, d_model, h * head_dim, head_dim);
    CHECK(slice == attn_test::values_f64(trace.out));
  }
  check_close(layer.concat, concat, 1e-4, what + " concat");
  check_close(layer.out, attn_test::multiply_f64(concat, attn_test::values_f64(input.w_o), T, d_model, d_model),
              2e-4, what + " out");
  CHECK(layer.w_o.values == input.w_o.values);
  CHECK(layer.x.values == input.x.values);
}

}  // namespace

TEST_CASE("multi-head: d_model 16, 4 heads of 4, against float64", "[multi_head]") {
  for (const std::size_t T : {1, 2, 4, 7, 16}) {
    for (const char* mask : {"causal", "none", "causal_zero"}) {
      attn::MultiHeadInput input = attn::seeded_multi_head_input(words(T), 16, 4, 2024);
      input.mask = attn::parse_mask_variant(mask)->mask;
      input.mask_fill = attn::parse_mask_variant(mask)->fill;
      CHECK(input.head_dim() == 4);
      check_layer_against_f64(input, "T " + std::to_string(T) + ", mask " + mask);
    }
  }
}

TEST_CASE("multi-head: other head counts and scales, against float64", "[multi_head]") {
  struct Shape {
    std::size_t d_model, n_heads;
  };
  for (const Shape shape : {Shape{16, 1}, Shape{16, 16}, Shape{12, 3}, Shape{6, 2}, Shape{64, 8}}) {
    for (const attn::ScaleKind scale : {attn::ScaleKind::sqrt_head_dim, attn::ScaleKind::head_dim,
                                        attn::ScaleKind::none}) {
      attn::MultiHeadInput input = attn::seeded_multi_head_input(words(5), shape.d_model, shape.n_heads, 8);
      input.scale = scale;
      check_layer_against_f64(input, "d_model " + std::to_string(shape.d_model) + ", " +
                                         std::to_string(shape.n_heads) + " heads, scale " +
                                         std::string(attn::scale_name(scale)));
    }
  }
  // Tables given by hand, far from the seeded ones.
  attn::MultiHeadInput input = attn::seeded_multi_head_input(words(3), 4, 2, 1);
  for (std::size_t n = 0; n < input.x.values.size(); ++n) input.x.values[n] = static_cast<float>(n % 5) - 2.0f;
  input.w_o.values.assign(16, 0.0f);
  for (std::size_t c = 0; c < 4; ++c) input.w_o.at(c, c) = 1.0f;  // W_O = identity: out is concat
  check_layer_against_f64(input, "identity W_O");
  const attn::MultiHeadLayer layer = attn::compute_multi_head(input);
  CHECK(layer.out.values == layer.concat.values);
}

TEST_CASE("multi-head: seeded tables are on their grids, reproducible and independent",
          "[multi_head]") {
  const attn::MultiHeadInput a = attn::seeded_multi_head_input(words(4), 16, 4, 3);
  REQUIRE(a.x.rows == 4);
  REQUIRE(a.x.cols == 16);
  REQUIRE(a.w_q.size() == 4);
  for (const attn::Matrix* w : {&a.w_q[0], &a.w_k[3], &a.w_v[2]}) {
    CHECK(w->rows == 16);
    CHECK(w->cols == 4);
  }
  CHECK(a.w_o.rows == 16);
  CHECK(a.w_o.cols == 16);
  for (const float value : a.x.values) {
    CHECK(std::fabs(value) <= 1.0f);
    CHECK(std::fabs(value * 10.0f - std::round(value * 10.0f)) < 1e-4);  // one decimal
  }
  const double bound = std::sqrt(3.0 / 16.0);  // ≈ 0.433
  for (const std::vector<attn::Matrix>* heads : {&a.w_q, &a.w_k, &a.w_v})
    for (const attn::Matrix& w : *heads)
      for (const float value : w.values) {
        CHECK(std::fabs(value) <= bound);
        CHECK(std::fabs(value * 100.0f - std::round(value * 100.0f)) < 1e-3);  // two decimals
      }

  const attn::MultiHeadInput same = attn::seeded_multi_head_input(words(4), 16, 4, 3);
  CHECK(same.x.values == a.x.values);
  CHECK(same.w_k[1].values == a.w_k[1].values);
  CHECK(same.w_o.values == a.w_o.values);
  // Heads and tables do not share numbers.
  CHECK(a.w_q[0].values != a.w_q[1].values);
  CHECK(a.w_q[0].values != a.w_k[0].values);
  CHECK(attn::seeded_multi_head_input(words(4), 16, 4, 4).w_q[0].values != a.w_q[0].values);
  // Another token leaves the weights alone and appends one row to x.
  const attn::MultiHeadInput longer = attn::seeded_multi_head_input(words(5), 16, 4, 3);
  CHECK(longer.w_v[2].values == a.w_v[2].values);
  CHECK(std::vector<float>(longer.x.values.begin(), longer.x.values.begin() + 64) == a.x.values);
  CHECK(attn::seeded_token_vectors(4, 16, 3).values == a.x.values);
}

TEST_CASE("multi-head: bad tables name the table and the cell", "[multi_head]") {
  const attn::MultiHeadInput good = attn::seeded_multi_head_input(words(3), 16, 4, 1);
  const auto refused = [&](const char* what, const std::string& path, auto&& change) {
    attn::MultiHeadInput input = good;
    change(input);
    INFO(what);
    const auto error = attn::validate_multi_head_input(input);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
  };
  refused("no tokens", "tokens", [](auto& in) { in.tokens.clear(); in.x = attn::Matrix(0, 16); });
  refused("an empty token", "tokens[1]", [](auto& in) { in.tokens[1] = ""; });
  refused("65 tokens", "tokens", [](auto& in) { in.tokens.assign(65, "a"); });
  refused("x with a row too few", "x", [](auto& in) { in.x = attn::Matrix(2, 16); });
  refused("x with no columns", "x[0]", [](auto& in) { in.x = attn::Matrix(3, 0); });
  refused("d_model 300", "x[0]", [](auto& in) { in.x = attn::Matrix(3, 300); });
  refused("0 heads", "n_heads", [](auto& in) { in.n_heads = 0; });
  refused("5 heads of 16", "n_heads", [](auto& in) { in.n_heads = 5; });
  refused("NaN in x", "x[2][15]", [](auto& in) { in.x.at(2, 15) = std::numeric_limits<float>::quiet_NaN(); });
  refused("1e7 in x", "x[0][3]", [](auto& in) { in.x.at(0, 3) = 1e7f; });
  refused("three W_Q for four heads", "w_q", [](auto& in) { in.w_q.pop_back(); });
  refused("W_K of head 2 too narrow", "w_k[2]", [](auto& in) { in.w_k[2] = attn::Matrix(16, 3); });
  refused("infinity in W_V", "w_v[1][7][0]",
          [](auto& in) { in.w_v[1].at(7, 0) = std::numeric_limits<float>::infinity(); });
  refused("W_O not square", "w_o", [](auto& in) { in.w_o = attn::Matrix(16, 8); });
  refused("-2e6 in W_O", "w_o[4][9]", [](auto& in) { in.w_o.at(4, 9) = -2e6f; });
}

TEST_CASE("multi_head_json: the documented answer, a given x, and errors",
          "[multi_head][explore_json]") {
  const attn::json::Value layer = attn_test::answer_of(
      attn::multi_head_json(R"({"tokens":["the","cat","sat","on"]})"));
  for (const char* key : {"tokens", "d_model", "n_heads", "head_dim", "mask", "scale", "x", "heads",
                          "concat", "w_o", "out"})
    CHECK(layer.find(key) != nullptr);
  CHECK(layer.object.size() == 11);
  CHECK(layer.find("d_model")->number == 16);
  CHECK(layer.find("n_heads")->number == 4);
  CHECK(layer.find("head_dim")->number == 4);
  CHECK(layer.find("mask")->string == "causal");
  CHECK(layer.find("scale")->string == "sqrt_d");
  CHECK(layer.find("x")->array.size() == 4);
  CHECK(layer.find("x")->array[0].array.size() == 16);
  const auto& heads = layer.find("heads")->array;
  REQUIRE(heads.size() == 4);
  for (const attn::json::Value& head : heads) {
    CHECK(head.object.size() == 4);
    CHECK(head.find("w_q")->array.size() == 16);
    CHECK(head.find("w_q")->array[0].array.size() == 4);
    const attn::json::Value& trace = *head.find("trace");
    CHECK(trace.find("head_dim")->number == 4);
    CHECK(trace.find("q")->array.size() == 4);
    CHECK(attn_test::is_non_finite(trace.find("masked")->array[0].array[1], "-Infinity"));
  }
  CHECK(layer.find("w_o")->array.size() == 16);
  CHECK(layer.find("out")->array[3].array.size() == 16);

  // The same numbers as the C++ call with the same seed.
  const attn::MultiHeadLayer direct =
      attn::compute_multi_head(attn::seeded_multi_head_input({"the", "cat", "sat", "on"}, 16, 4, 1));
  CHECK(std::get<std::string>(attn::multi_head_json(R"({"tokens":["the","cat","sat","on"],"seed":1})")) ==
        attn::multi_head_to_json(direct));

  // A given x sets d_model; the weights stay seeded.
  const attn::json::Value given = attn_test::answer_of(attn::multi_head_json(
      R"({"tokens":["a","b"],"x":[[1,0,0,0,0,0],[0,1,0,0,0,0.5]],"n_heads":3,"seed":4,"mask":"causal_zero","scale":"none"})"));
  CHECK(given.find("d_model")->number == 6);
  CHECK(given.find("head_dim")->number == 2);
  CHECK(given.find("mask")->string == "causal_zero");
  CHECK(given.find("scale")->string == "none");
  CHECK(given.find("x")->array[1].array[5].number == 0.5);
  const attn::json::Value& first_trace = *given.find("heads")->array[0].find("trace");
  CHECK(first_trace.find("masked")->array[0].array[1].number == 0.0);
  CHECK(first_trace.find("scale_divisor")->number == 1.0);
  // Row 0 of q is x[0] · W_Q = W_Q's row 0.
  const attn::json::Value& w_q = *given.find("heads")->array[0].find("w_q");
  CHECK(first_trace.find("q")->array[0].array[1].number == w_q.array[0].array[1].number);

  struct Case {
    const char* request;
    const char* path;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"{}", "tokens", "missing"},
      {R"({"tokens":"the cat"})", "tokens", nullptr},
      {R"({"tokens":[]})", "tokens", nullptr},
      {R"({"tokens":["the",3]})", "tokens[1]", nullptr},
      {R"({"tokens":["the",""]})", "tokens[1]", "empty"},
      {R"({"tokens":["a"],"d_model":0})", "d_model", nullptr},
      {R"({"tokens":["a"],"d_model":300})", "d_model", "256"},
      {R"({"tokens":["a"],"d_model":16,"n_heads":5})", "n_heads", "divide"},
      {R"({"tokens":["a"],"d_model":4,"n_heads":8})", "n_heads", nullptr},
      {R"({"tokens":["a"],"n_heads":0})", "n_heads", nullptr},
      {R"({"tokens":["a"],"n_heads":1e9})", "n_heads", nullptr},
      {R"({"tokens":["a"],"seed":1.5})", "seed", nullptr},
      {R"({"tokens":["a"],"mask":"zero"})", "mask", "\"causal_zero\""},
      {R"({"tokens":["a"],"scale":"sqrt"})", "scale", nullptr},
      {R"({"tokens":["a"],"x":[[1,2],[3,4]]})", "x", "2 rows"},
      {R"({"tokens":["a"],"x":"1,2"})", "x", nullptr},
      {R"({"tokens":["a","b"],"x":[[1,2,3,4],[1,2,3]]})", "x[1]", "expected 4"},
      {R"({"tokens":["a"],"d_model":8,"x":[[1,2,3,4]]})", "x[0]", "expected 8 (d_model)"},
      {R"({"tokens":["a","b"],"x":[[1,2,3,4],[1,"2",3,4]]})", "x[1][1]", "\"2\""},
      {R"({"tokens":["a"],"x":[[1,2,3,2e6]]})", "x[0][3]", "1e6"},
      {R"({"tokens":["a"],"x":[[]]})", "x[0]", "empty"},
      {R"({"tokens":["a"],"w_q":[]})", "w_q", "not a known field"},
  };
  for (const Case& c : cases) {
    INFO(c.request);
    attn_test::check_refused(attn::multi_head_json(c.request), c.path, c.fragment);
  }
  std::string many = R"({"tokens":["a")";
  for (int t = 1; t < 65; ++t) many += R"(,"a")";
  attn_test::check_refused(attn::multi_head_json(many + "]}"), "tokens", "64");
}
