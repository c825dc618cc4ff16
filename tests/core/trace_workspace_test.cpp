// The trace into reused buffers (compute_trace_into, TraceWorkspace): bit for bit compute_trace
// across shapes, masks and scales, whatever the buffers held before; no buffer moves while the
// shape stays or shrinks; values and shapes refused before any arithmetic, naming the field.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attention/reference/trace.h"
#include "test_inputs.h"

namespace {

using attn::MaskFill;
using attn::MaskKind;
using attn::MaskVariant;
using attn::ScaleKind;

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_bits(const attn::Matrix& a, const attn::Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols && same_bits(a.values, b.values);
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every number of the trace, bit for bit (signed zeros and infinities included).
void require_same_trace(const attn::Trace& got, const attn::Trace& want) {
  REQUIRE(got.token_count == want.token_count);
  REQUIRE(got.head_dim == want.head_dim);
  CHECK(got.mask == want.mask);
  CHECK(got.mask_fill == want.mask_fill);
  CHECK(got.scale == want.scale);
  CHECK(same_bits(got.q, want.q));
  CHECK(same_bits(got.k, want.k));
  CHECK(same_bits(got.v, want.v));
  CHECK(same_bits(got.score_terms, want.score_terms));
  CHECK(same_bits(got.scores, want.scores));
  CHECK(same_bits(got.scale_divisor, want.scale_divisor));
  CHECK(same_bits(got.scaled, want.scaled));
  CHECK(same_bits(got.masked, want.masked));
  CHECK(same_bits(got.hidden, want.hidden));
  CHECK(same_bits(got.exponentials, want.exponentials));
  CHECK(same_bits(got.row_max, want.row_max));
  CHECK(same_bits(got.row_shifted, want.row_shifted));
  CHECK(same_bits(got.row_totals, want.row_totals));
  CHECK(same_bits(got.weights, want.weights));
  CHECK(same_bits(got.weight_sums, want.weight_sums));
  CHECK(same_bits(got.weighted_values, want.weighted_values));
  CHECK(same_bits(got.out, want.out));
}

attn::AttentionInput with_variant(attn::AttentionInput input, MaskVariant mask, ScaleKind scale) {
  input.mask = mask.mask;
  input.mask_fill = mask.fill;
  input.scale = scale;
  return input;
}

void write_inputs(attn::TraceWorkspace& workspace, const attn::AttentionInput& input) {
  const std::size_t bytes = input.q.values.size() * sizeof(float);
  std::memcpy(workspace.q(), input.q.values.data(), bytes);
  std::memcpy(workspace.k(), input.k.values.data(), bytes);
  std::memcpy(workspace.v(), input.v.values.data(), bytes);
}

std::string run_error(attn::TraceWorkspace& workspace, const attn::AttentionInput& input) {
  if (auto error = workspace.prepare(input.q.rows, input.q.cols)) return error->message;
  write_inputs(workspace, input);
  const auto error = workspace.run({input.mask, input.mask_fill}, input.scale);
  return error ? error->message : "";
}

// The address of every buffer of a trace, to see that none moved.
std::vector<const void*> buffer_addresses(const attn::Trace& t) {
  return {t.q.values.data(), t.k.values.data(), t.v.values.data(), t.score_terms.data(),
          t.scores.values.data(), t.scaled.values.data(), t.masked.values.data(), t.hidden.data(),
          t.exponentials.values.data(), t.row_max.data(), t.row_shifted.data(),
          t.row_totals.data(), t.weights.values.data(), t.weight_sums.data(),
          t.weighted_values.data(), t.out.values.data()};
}

const MaskVariant kMaskVariants[] = {{MaskKind::causal, MaskFill::minus_infinity},
                              {MaskKind::none, MaskFill::minus_infinity},
                              {MaskKind::causal, MaskFill::zero}};
const ScaleKind kScales[] = {ScaleKind::sqrt_head_dim, ScaleKind::head_dim, ScaleKind::none};

}  // namespace

TEST_CASE("trace workspace: bit for bit compute_trace across shapes, masks and scales",
          "[trace_workspace]") {
  attn::TraceWorkspace workspace;  // one for every case: each runs on what the last one left
  attn::Trace reused;              // the same for compute_trace_into
  std::uint32_t seed = 1;
  const std::size_t shapes[][2] = {{1, 1}, {2, 4}, {4, 4}, {3, 17}, {4, 64}, {9, 3}, {2, 4}, {64, 8}};
  for (const auto& shape : shapes) {
    for (const MaskVariant mask : kMaskVariants) {
      for (const ScaleKind scale : kScales) {
        const attn::AttentionInput input = with_variant(
            attn_test::random_input(shape[0], shape[1], mask.mask, ++seed), mask, scale);
        INFO("T " << shape[0] << ", d " << shape[1] << ", mask "
                  << attn::mask_variant_name(mask.mask, mask.fill) << ", scale "
                  << attn::scale_name(scale));
        const attn::Trace want = attn::compute_trace(input);

        REQUIRE(run_error(workspace, input).empty());
        require_same_trace(workspace.trace(), want);

        attn::compute_trace_into(input.q.values.data(), input.k.values.data(),
                                 input.v.values.data(), shape[0], shape[1], mask, scale, reused);
        require_same_trace(reused, want);
      }
    }
  }
}

TEST_CASE("trace workspace: the article's inputs, the largest shape, and rows whose e^x overflows",
          "[trace_workspace]") {
  std::vector<attn::AttentionInput> inputs = {
      attn_test::random_input(attn::Limits::max_tokens, attn::Limits::max_head_dim,
                              MaskKind::causal, 77),
      attn_test::large_score_input(1, MaskKind::causal),
      attn_test::large_score_input(4, MaskKind::none),
  };
  attn::TraceWorkspace workspace;
  for (const attn::AttentionInput& input : inputs) {
    const attn::Trace want = attn::compute_trace(input);
    REQUIRE(run_error(workspace, input).empty());
    require_same_trace(workspace.trace(), want);
  }
  // The large scores do take the shifted branch: the test covers it.
  CHECK(workspace.trace().row_shifted[2] == 1);
}

TEST_CASE("trace workspace: no buffer moves while the shape stays or shrinks; growing reallocates",
          "[trace_workspace]") {
  attn::TraceWorkspace workspace;
  const attn::AttentionInput big = attn_test::random_input(8, 64, MaskKind::none, 5);
  REQUIRE(run_error(workspace, big).empty());
  const std::vector<const void*> addresses = buffer_addresses(workspace.trace());

  for (int call = 0; call < 3; ++call) {
    REQUIRE(run_error(workspace, big).empty());
    CHECK(buffer_addresses(workspace.trace()) == addresses);
  }

  // Smaller: the same memory, and nothing of the larger trace leaks into the numbers (out is
  // a sum, so a buffer that was not cleared would show).
  const attn::AttentionInput small = attn_test::random_input(2, 4, MaskKind::causal, 6);
  REQUIRE(run_error(workspace, small).empty());
  CHECK(buffer_addresses(workspace.trace()) == addresses);
  require_same_trace(workspace.trace(), attn::compute_trace(small));
  CHECK(workspace.trace().score_terms.size() == 2 * 2 * 4);
  CHECK(workspace.trace().out.values.size() == 2 * 4);

  // Larger than ever before: the cubes must grow, and the numbers are still compute_trace's.
  const attn::AttentionInput bigger = attn_test::random_input(16, 128, MaskKind::causal, 7);
  REQUIRE(run_error(workspace, bigger).empty());
  CHECK(workspace.trace().score_terms.size() == 16 * 16 * 128);
  CHECK(workspace.trace().score_terms.data() != addresses[3]);
  require_same_trace(workspace.trace(), attn::compute_trace(bigger));

  // And back down: the grown buffers are kept.
  const std::vector<const void*> grown = buffer_addresses(workspace.trace());
  REQUIRE(run_error(workspace, big).empty());
  CHECK(buffer_addresses(workspace.trace()) == grown);
  require_same_trace(workspace.trace(), attn::compute_trace(big));
}

TEST_CASE("trace workspace: shapes outside the limits are refused, naming t or d",
          "[trace_workspace]") {
  attn::TraceWorkspace workspace;
  const auto prepare_error = [&](std::size_t t, std::size_t d) {
    const auto error = workspace.prepare(t, d);
    return error ? error->message : std::string();
  };
  CHECK(prepare_error(0, 4) == "t: must be at least 1");
  CHECK(prepare_error(attn::Limits::max_tokens + 1, 4).rfind("t: is 65; the limit is 64", 0) == 0);
  CHECK(prepare_error(2, 0) == "d: must be at least 1");
  CHECK(prepare_error(2, attn::Limits::max_head_dim + 1).rfind("d: is 257; the limit is 256", 0) == 0);
  CHECK(prepare_error(attn::Limits::max_tokens, attn::Limits::max_head_dim).empty());
  CHECK(prepare_error(1, 1).empty());

  attn::TraceWorkspace fresh;
  REQUIRE(fresh.run({}, ScaleKind::sqrt_head_dim).has_value());
  CHECK(fresh.run({}, ScaleKind::sqrt_head_dim)->path == "t");
}

TEST_CASE("trace workspace: values are checked as validate_input checks them, naming the cell",
          "[trace_workspace]") {
  attn::TraceWorkspace workspace;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const attn::AttentionInput good = attn_test::random_input(3, 5, MaskKind::causal, 11);
  struct Case {
    char matrix;
    std::size_t row, col;
    float value;
    std::string message;  // "" when the value is accepted
  };
  const Case cases[] = {
      {'q', 1, 3, nan, "q[1][3]: must be a finite number"},
      {'k', 2, 0, inf, "k[2][0]: must be a finite number"},
      {'v', 0, 4, -inf, "v[0][4]: must be a finite number"},
      {'v', 0, 0, 1e16f, "v[0][0]: is 1e16, outside the allowed range of ±1e15"},
      {'k', 1, 1, -1.0000001e15f, "k[1][1]: is -1.0000001e15, outside the allowed range of ±1e15"},
      {'q', 2, 4, 1e15f, ""},
      {'q', 0, 0, -0.0f, ""},
      {'k', 0, 2, 1e-40f, ""},
  };
  for (const Case& c : cases) {
    attn::AttentionInput input = good;
    attn::Matrix& m = c.matrix == 'q' ? input.q : c.matrix == 'k' ? input.k : input.v;
    m.at(c.row, c.col) = c.value;
    INFO(c.matrix << "[" << c.row << "][" << c.col << "] = " << c.value);
    // The same verdict and message as validate_input, the check run() makes.
    CHECK(run_error(workspace, input) == c.message);
    CHECK(attn_test::validation_error(input) == c.message);
    if (c.message.empty()) require_same_trace(workspace.trace(), attn::compute_trace(input));
  }
  // The first bad value in q, then k, then v, row-major, is the one named.
  attn::AttentionInput two_bad = good;
  two_bad.v.at(0, 0) = nan;
  two_bad.k.at(2, 1) = inf;
  two_bad.k.at(1, 4) = 2e15f;
  CHECK(run_error(workspace, two_bad) == "k[1][4]: is 2e15, outside the allowed range of ±1e15");
  // And the workspace works afterwards.
  REQUIRE(run_error(workspace, good).empty());
  require_same_trace(workspace.trace(), attn::compute_trace(good));
}
