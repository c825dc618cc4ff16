// The softmax backward pass: p ⊙ (g - g·p) against central finite differences of the loss
// g·softmax(x) in float64, exact zeros for masked words, and its JSON call.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "attention/json/explore_json.h"
#include "attention/reference/softmax.h"
#include "attention/reference/softmax_backward.h"
#include "explore_test_helpers.h"
#include "reference_variants_f64.h"

namespace {

const float minus_infinity = -std::numeric_limits<float>::infinity();

struct Row {
  std::vector<float> x;         // [n] softmax inputs, -infinity where masked
  std::vector<float> weights;   // [n] softmax_row(x)
  std::vector<float> upstream;  // [n] g
};

Row random_row(std::mt19937& rng, std::size_t n, std::size_t masked_from, float spread) {
  std::uniform_real_distribution<float> value(-spread, spread);
  std::normal_distribution<float> gradient(0.0f, 1.0f);
  Row row;
  for (std::size_t j = 0; j < n; ++j) {
    row.x.push_back(j >= masked_from ? minus_infinity : value(rng));
    row.upstream.push_back(gradient(rng));
  }
  std::vector<float> exponentials(n);
  row.weights.assign(n, 0.0f);
  attn::softmax_row(exponentials.data(), row.weights.data(), row.x.data(), n);
  return row;
}

}  // namespace

TEST_CASE("softmax backward: p (g - g·p) matches central finite differences in float64",
          "[softmax_backward]") {
  std::mt19937 rng(2024);
  for (const std::size_t n : {1, 2, 3, 4, 7, 8, 16, 33, 64}) {
    for (const float spread : {0.5f, 3.0f, 12.0f}) {
      for (const bool with_mask : {false, true}) {
        const std::size_t masked_from = with_mask ? (n + 1) / 2 : n;
        const Row row = random_row(rng, n, masked_from, spread);
        std::vector<float> gradient(n, 123.0f);
        const float dot = attn::softmax_backward_row(gradient.data(), row.weights.data(),
                                                     row.upstream.data(), n);

        const std::vector<double> x(row.x.begin(), row.x.end());
        const std::vector<double> g(row.upstream.begin(), row.upstream.end());
        const std::vector<double> by_differences = attn_test::softmax_gradient_by_differences(x, g);
        const std::vector<double> p = attn_test::softmax_row_f64(x);
        double expected_dot = 0.0;
        for (std::size_t l = 0; l < n; ++l) expected_dot += g[l] * p[l];
        CHECK(std::fabs(dot - expected_dot) <= 1e-5 * (1.0 + std::fabs(expected_dot)));

        double sum = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
          INFO("n " << n << ", spread " << spread << ", masked from " << masked_from << ", entry " << j
                    << ": core " << gradient[j] << ", differences " << by_differences[j]);
          // Differences carry ~1e-10 of truncation and cancellation; the core ~1e-7 of float
          // rounding in p. Both are far inside the budget.
          CHECK(std::fabs(gradient[j] - by_differences[j]) <= 2e-6 + 2e-5 * std::fabs(by_differences[j]));
          if (j >= masked_from) {
            const float zero = 0.0f;
            CHECK(std::memcmp(&gradient[j], &zero, sizeof zero) == 0);  // +0, not -0
          }
          sum += gradient[j];
        }
        // Softmax is unchanged by adding a constant to every input, so the gradient sums to 0.
        CHECK(std::fabs(sum) <= 1e-6 * n);
      }
    }
  }
}

TEST_CASE("softmax backward: a saturated row passes almost nothing back", "[softmax_backward]") {
  // One weight near 1: p_j (g_j - g·p) is near 0 for every j, whatever g is.
  std::vector<float> x = {30.0f, 0.0f, -5.0f, 1.0f};
  std::vector<float> exponentials(4), weights(4), gradient(4);
  attn::softmax_row(exponentials.data(), weights.data(), x.data(), 4);
  const std::vector<float> upstream = {1.0f, -2.0f, 3.0f, -4.0f};
  attn::softmax_backward_row(gradient.data(), weights.data(), upstream.data(), 4);
  for (const float value : gradient) CHECK(std::fabs(value) < 1e-11);

  // A flat row passes g minus its mean, divided by n.
  const std::vector<float> flat = {0.25f, 0.25f, 0.25f, 0.25f};
  attn::softmax_backward_row(gradient.data(), flat.data(), upstream.data(), 4);
  const double mean = (1.0 - 2.0 + 3.0 - 4.0) / 4.0;
  for (std::size_t j = 0; j < 4; ++j) CHECK(gradient[j] == Approx(0.25 * (upstream[j] - mean)));
}

TEST_CASE("softmax_backward_json: one row or a matrix of rows, in the shape given",
          "[softmax_backward][explore_json]") {
  const attn::json::Value row = attn_test::answer_of(
      attn::softmax_backward_json(R"({"weights":[0.25,0.75,0],"upstream":[1,-1,5]})"));
  const auto& gradient = row.find("gradient")->array;
  REQUIRE(gradient.size() == 3);
  // g·p = 0.25 - 0.75 = -0.5; p (g - g·p) = 0.25 · 1.5, 0.75 · -0.5, 0.
  CHECK(row.find("upstream_dot_weights")->number == Approx(-0.5));
  CHECK(gradient[0].number == Approx(0.375));
  CHECK(gradient[1].number == Approx(-0.375));
  CHECK(gradient[2].number == 0.0);

  const attn::json::Value matrix = attn_test::answer_of(attn::softmax_backward_json(
      R"({"weights":[[1,0],[0.2799,0.7201]],"upstream":[[3,4],[1,0]]})"));
  const auto& rows = matrix.find("gradient")->array;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].array[0].number == 0.0);  // a row with one word: nothing to redistribute
  CHECK(rows[0].array[1].number == 0.0);
  CHECK(rows[1].array[0].number == Approx(0.2799 * (1 - 0.2799)).epsilon(1e-6));
  CHECK(rows[1].array[1].number == Approx(-0.7201 * 0.2799).epsilon(1e-6));
  REQUIRE(matrix.find("upstream_dot_weights")->array.size() == 2);
  CHECK(matrix.find("upstream_dot_weights")->array[0].number == 3.0);
}

TEST_CASE("softmax_backward_json: bad requests name the field", "[softmax_backward][explore_json]") {
  struct Case {
    const char* request;
    const char* path;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"[1]", "input", "object"},
      {"not json", "input", "line 1"},
      {R"({"upstream":[1]})", "weights", "missing"},
      {R"({"weights":[1]})", "upstream", "missing"},
      {R"({"weights":[],"upstream":[]})", "weights", nullptr},
      {R"({"weights":[1],"upstream":[1],"extra":1})", "extra", "not a known field"},
      {R"({"weights":[0.5,0.4],"upstream":[1,1]})", "weights", "adds up to 0.9"},
      {R"({"weights":[1.5,-0.5],"upstream":[1,1]})", "weights[0]", "from 0 to 1"},
      {R"({"weights":[0.5,"0.5"],"upstream":[1,1]})", "weights[1]", "\"0.5\""},
      {R"({"weights":[0.5,0.5],"upstream":[1]})", "upstream", "expected 2"},
      {R"({"weights":[0.5,0.5],"upstream":[1,"NaN"]})", "upstream[1]", "\"NaN\""},
      {R"({"weights":[0.5,0.5],"upstream":[1,1e16]})", "upstream[1]", "1e15"},
      {R"({"weights":[0.5,0.5],"upstream":7})", "upstream", nullptr},
      {R"({"weights":[[1],[0.5,0.5]],"upstream":[[1],[1,2,3]]})", "upstream[1]", "expected 2"},
      {R"({"weights":[[1],[0.5,0.6]],"upstream":[[1],[1,2]]})", "weights[1]", "adds up to"},
      {R"({"weights":[[1],[0.5,0.5]],"upstream":[[1]]})", "upstream", "has 1 row but weights has 2"},
      {R"({"weights":[[1],0.5],"upstream":[[1],[1]]})", "weights[1]", "array"},
      {R"({"weights":[[1],[1]],"upstream":[1,1]})", "upstream[0]", "array"},
  };
  for (const Case& c : cases) {
    INFO(c.request);
    attn_test::check_refused(attn::softmax_backward_json(c.request), c.path, c.fragment);
  }
  // 65 weights: past the token limit.
  std::string weights = "[1", upstream = "[0";
  for (int n = 1; n < 65; ++n) weights += ",0", upstream += ",0";
  attn_test::check_refused(
      attn::softmax_backward_json("{\"weights\":" + weights + "],\"upstream\":" + upstream + "]}"),
      "weights", "limit");
}
