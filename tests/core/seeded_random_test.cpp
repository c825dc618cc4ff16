// The seeded generator gives the numbers its definition gives, on every platform this binary is
// built for (natively and as wasm): SplitMix64's published outputs, uniforms and normals made
// from them as documented, the decimal grid, and the random_matrix JSON call.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "attention/json/explore_json.h"
#include "attention/reference/seeded_random.h"
#include "explore_test_helpers.h"

namespace {

// SplitMix64 from seed 1234567: the first outputs of Vigna's reference splitmix64.c.
const std::vector<std::uint64_t> splitmix64_from_1234567 = {
    6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
    4593380528125082431ull, 16408922859458223821ull};

}  // namespace

TEST_CASE("SplitMix64: the reference outputs, bit for bit", "[random]") {
  attn::SeededRandom random(1234567);
  for (const std::uint64_t expected : splitmix64_from_1234567) CHECK(random.next_u64() == expected);
}

TEST_CASE("uniforms: the top 53 bits of each output times 2^-53, exactly", "[random]") {
  attn::SeededRandom random(1234567);
  for (const std::uint64_t output : splitmix64_from_1234567) {
    const double expected = static_cast<double>(output >> 11) / 9007199254740992.0;
    CHECK(random.next_uniform() == expected);
  }
  // The same numbers written out, as any other implementation of the definition prints them.
  attn::SeededRandom again(1234567);
  CHECK(again.next_uniform() == 0.35007954202140812);
  CHECK(again.next_uniform() == 0.17364409667091263);
  CHECK(again.next_uniform() == 0.53220730406241923);
}

TEST_CASE("normals: Box–Muller pairs from the uniforms, within a few ulps everywhere", "[random]") {
  // Computed from the definition: u1, u2 -> r = √(-2 ln(1 - u1)); r cos 2πu2, then r sin 2πu2.
  // std::log, cos and sin may round their last bit differently in another C library.
  const std::vector<double> expected = {0.8822489062222688,  1.388473285287707,
                                        -0.4508498757188601, 0.6707164409024291,
                                        0.1883526341159315,  -0.20510403042316847};
  attn::SeededRandom random(42);
  for (const double value : expected) {
    const double normal = random.next_normal();
    CHECK(std::fabs(normal - value) <= 4e-16 * (1.0 + std::fabs(value)));
  }
}

TEST_CASE("normals: mean 0 and variance 1 over many draws", "[random]") {
  attn::SeededRandom random(7);
  const int count = 200000;
  double sum = 0.0, squares = 0.0;
  for (int n = 0; n < count; ++n) {
    const double x = random.next_normal();
    sum += x;
    squares += x * x;
  }
  const double mean = sum / count;
  CHECK(std::fabs(mean) < 0.01);                       // 4.5 standard errors
  CHECK(std::fabs(squares / count - mean * mean - 1.0) < 0.015);
}

TEST_CASE("polar normals: Marsaglia's pairs from the uniforms, rounded to float", "[random]") {
  // Computed from the definition in float64 (Python): x, y = 2u - 1 until s = x² + y² is in
  // (0, 1), then x·√(-2 ln s / s), y·√(-2 ln s / s). From seed 42 one point is refused (s ≥ 1),
  // and an odd count drops the last pair's y.
  const std::vector<double> expected = {0.49295065581737485, -0.6940056672160174,
                                        -1.2810773478777024, -0.901557193497174,
                                        -0.6018779810957331, 0.6425676289796471,
                                        -1.5423606818352653};
  attn::SeededRandom random(42);
  std::vector<float> drawn(expected.size() + 1, 99.0f);
  attn::fill_polar_normals(random, drawn.data(), expected.size());
  for (std::size_t n = 0; n < expected.size(); ++n)  // within one float rounding
    CHECK(std::fabs(drawn[n] - expected[n]) <= 6e-8 * (1.0 + std::fabs(expected[n])));
  CHECK(drawn.back() == 99.0f);  // nothing past count written

  attn::SeededRandom many(7);
  std::vector<float> values(200000);
  attn::fill_polar_normals(many, values.data(), values.size());
  double sum = 0.0, squares = 0.0;
  for (const float x : values) {
    sum += x;
    squares += static_cast<double>(x) * x;
  }
  const double mean = sum / static_cast<double>(values.size());
  CHECK(std::fabs(mean) < 0.01);  // 4.5 standard errors
  CHECK(std::fabs(squares / static_cast<double>(values.size()) - mean * mean - 1.0) < 0.015);
}

TEST_CASE("derive_seed: the documented mix, and different streams differ", "[random]") {
  CHECK(attn::derive_seed(1, 0, 0) == 6791897765849424158ull);
  CHECK(attn::derive_seed(1, 2, 3) == 1072907043932612987ull);
  CHECK(attn::derive_seed(0, 0, 0) == 12035550249420947055ull);
  const std::uint64_t gamma = 0x9E3779B97F4A7C15ull;
  CHECK(attn::derive_seed(5, 6, 7) ==
        attn::splitmix64_mix(attn::splitmix64_mix(5 + gamma * 7) + gamma * 8));
  std::set<std::uint64_t> seen;
  for (std::uint64_t stream = 0; stream < 16; ++stream)
    for (std::uint64_t index = 0; index < 16; ++index) seen.insert(attn::derive_seed(9, stream, index));
  CHECK(seen.size() == 256);
}

TEST_CASE("grid: exact decimal values, the same for the same seed", "[random]") {
  // Seed 42 on -1.0 .. 1.0: index = floor(u · 21), value = (index - 10) / 10.
  const std::vector<double> values = attn::random_grid_values(42, 2, 5, attn::UniformGrid{-1, 1, 1});
  const std::vector<double> expected = {0.5, -0.7, -0.5, -0.3, -1.0, 0.8, -0.6, 0.6, -0.3, 0.2};
  CHECK(values == expected);
  CHECK(attn::random_grid_values(42, 2, 5, attn::UniformGrid{-1, 1, 1}) == values);
  CHECK(attn::random_grid_values(43, 2, 5, attn::UniformGrid{-1, 1, 1}) != values);

  // Rows come out row by row: a taller table starts with the same rows.
  const std::vector<double> taller = attn::random_grid_values(42, 3, 5, attn::UniformGrid{-1, 1, 1});
  CHECK(std::vector<double>(taller.begin(), taller.begin() + 10) == values);

  const attn::Matrix m = attn::random_grid_matrix(42, 2, 5, attn::UniformGrid{-1, 1, 1});
  REQUIRE(m.rows == 2);
  REQUIRE(m.cols == 5);
  for (std::size_t n = 0; n < 10; ++n) CHECK(m.values[n] == static_cast<float>(expected[n]));
}

TEST_CASE("grid: every value on the grid and in range, all of them about equally often",
          "[random]") {
  struct Grid {
    attn::UniformGrid grid;
    std::size_t values;  // how many grid values lie in the range
  };
  const std::vector<Grid> grids = {
      {{-1, 1, 1}, 21}, {{0, 1, 0}, 2}, {{0.3, 0.7, 1}, 5}, {{-0.43, 0.43, 2}, 87},
      {{0.35, 0.65, 1}, 3}, {{2, 2, 3}, 1}, {{-1e6, -999999.5, 1}, 6}};
  for (const Grid& g : grids) {
    INFO("min " << g.grid.min << ", max " << g.grid.max << ", decimals " << g.grid.decimals);
    REQUIRE_FALSE(attn::validate_uniform_grid(g.grid).has_value());
    const std::size_t draws = 2000 * g.values;
    const std::vector<double> values = attn::random_grid_values(11, 1, draws, g.grid);
    std::map<long long, std::size_t> counts;
    const double p = std::pow(10.0, g.grid.decimals);
    for (const double value : values) {
      CHECK(value >= g.grid.min - 1e-12);
      CHECK(value <= g.grid.max + 1e-12);
      const double steps = value * p;
      CHECK(std::fabs(steps - std::round(steps)) < 1e-6);
      counts[std::llround(steps)] += 1;
    }
    CHECK(counts.size() == g.values);
    for (const auto& [step, count] : counts) {
      INFO("grid step " << step << " drawn " << count << " times of " << draws);
      CHECK(std::fabs(static_cast<double>(count) - 2000.0) < 250.0);  // > 5 standard deviations
    }
  }
}

TEST_CASE("grid: bad ranges are refused, naming the field", "[random]") {
  using attn::UniformGrid;
  const auto check = [](const UniformGrid& grid, const std::string& path) {
    const auto error = attn::validate_uniform_grid(grid);
    REQUIRE(error.has_value());
    attn_test::check_names(*error, path);
  };
  check(UniformGrid{NAN, 1, 1}, "min");
  check(UniformGrid{-1, INFINITY, 1}, "max");
  check(UniformGrid{-2e6, 1, 1}, "min");
  check(UniformGrid{1, -1, 1}, "max");
  check(UniformGrid{-1, 1, -1}, "decimals");
  check(UniformGrid{-1, 1, 7}, "decimals");
  check(UniformGrid{0.31, 0.39, 1}, "decimals");  // no one-decimal number in between
}

TEST_CASE("random_matrix_json: shortest decimal text, defaults, and errors", "[random][explore_json]") {
  const attn::json::Value matrix =
      attn_test::answer_of(attn::random_matrix_json(R"({"rows":2,"cols":5,"seed":42})"));
  REQUIRE(matrix.array.size() == 2);
  CHECK(attn_test::numbers_of(matrix) ==
        std::vector<double>{0.5, -0.7, -0.5, -0.3, -1.0, 0.8, -0.6, 0.6, -0.3, 0.2});
  const auto text = std::get<std::string>(attn::random_matrix_json(R"({"rows":2,"cols":5,"seed":42})"));
  CHECK(text == "[[0.5,-0.7,-0.5,-0.3,-1],[0.8,-0.6,0.6,-0.3,0.2]]");

  const attn::json::Value wide = attn_test::answer_of(attn::random_matrix_json(
      R"({"rows":3,"cols":4,"seed":9007199254740991,"min":10,"max":20,"decimals":0})"));
  for (const double value : attn_test::numbers_of(wide)) {
    CHECK(value >= 10);
    CHECK(value <= 20);
    CHECK(value == std::floor(value));
  }

  struct Case {
    const char* request;
    const char* path;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {R"({"cols":2})", "rows", "missing"},
      {R"({"rows":2})", "cols", "missing"},
      {R"({"rows":0,"cols":2})", "rows", "whole number"},
      {R"({"rows":1.5,"cols":2})", "rows", "1.5"},
      {R"({"rows":"2","cols":2})", "rows", "\"2\""},
      {R"({"rows":300,"cols":300})", "cols", "65536"},
      {R"({"rows":2,"cols":2,"seed":-1})", "seed", nullptr},
      {R"({"rows":2,"cols":2,"seed":9007199254740992})", "seed", nullptr},
      {R"({"rows":2,"cols":2,"min":"NaN"})", "min", "\"NaN\""},
      {R"({"rows":2,"cols":2,"min":2,"max":1})", "max", "min"},
      {R"({"rows":2,"cols":2,"decimals":9})", "decimals", nullptr},
      {R"({"rows":2,"cols":2,"min":0.31,"max":0.39})", "decimals", "no number"},
      {R"({"rows":2,"cols":2,"size":4})", "size", "not a known field"},
      {"[2,2]", "input", nullptr},
      {"{\"rows\":2,\"cols\":2,\"\":1}", "\"\"", "not a known field"},  // an empty name, quoted
  };
  for (const Case& c : cases) {
    INFO(c.request);
    attn_test::check_refused(attn::random_matrix_json(c.request), c.path, c.fragment);
  }
}
