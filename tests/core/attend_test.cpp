// The fast path's workspace: shapes and values are checked before any arithmetic, the output
// matches float64, and repeated calls reuse the same memory.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <variant>

#include "attention/kernels/attend.h"
#include "attention/kernels/kernels.h"
#include "reference_f64.h"
#include "test_inputs.h"

namespace {

std::string prepare_error(attn::AttendWorkspace& workspace, std::size_t t, std::size_t d,
                          const attn::KernelInfo& kernel) {
  const auto prepared = workspace.prepare(t, d, kernel);
  const auto* error = std::get_if<attn::InputError>(&prepared);
  return error ? error->message : "";
}

// Copies the input into the workspace, runs it and returns the output (or the error message).
std::variant<std::vector<float>, std::string> attend(attn::AttendWorkspace& workspace,
                                                     const attn::AttentionInput& input,
                                                     const attn::KernelInfo& kernel) {
  const std::size_t t = input.q.rows, d = input.q.cols, n = t * d;
  const auto prepared = workspace.prepare(t, d, kernel);
  if (const auto* error = std::get_if<attn::InputError>(&prepared)) return error->message;
  float* q = std::get<float*>(prepared);
  std::memcpy(q, input.q.values.data(), n * sizeof(float));
  std::memcpy(q + n, input.k.values.data(), n * sizeof(float));
  std::memcpy(q + 2 * n, input.v.values.data(), n * sizeof(float));
  if (auto error = workspace.run(t, d, input.mask, kernel)) return error->message;
  return std::vector<float>(q, q + n);
}

}  // namespace

TEST_CASE("attend: the default kernel of each shape matches float64", "[attend]") {
  attn::AttendWorkspace workspace;
  for (std::size_t t : {1u, 7u, 64u, 200u})
    for (std::size_t d : {3u, 64u})
      for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
        const attn::AttentionInput input = attn_test::random_input(t, d, mask, 300 + t + d);
        const attn::KernelInfo& kernel = attn::default_kernel(t, d);
        const auto result = attend(workspace, input, kernel);
        INFO("t " << t << ", d " << d << ", kernel " << kernel.name);
        REQUIRE(std::holds_alternative<std::vector<float>>(result));
        const auto& out = std::get<std::vector<float>>(result);
        const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);
        for (std::size_t e = 0; e < out.size(); ++e)
          CHECK(std::fabs(out[e] - ref.out[e]) <= 1e-5 * (1.0 + std::fabs(ref.out[e])));
      }
}

TEST_CASE("attend: repeated calls of one shape do not grow the workspace", "[attend]") {
  attn::AttendWorkspace workspace;
  const attn::AttentionInput input = attn_test::random_input(100, 64, attn::MaskKind::causal, 9);
  const attn::KernelInfo& kernel = attn::default_kernel(100, 64);
  REQUIRE(std::holds_alternative<std::vector<float>>(attend(workspace, input, kernel)));
  const std::size_t capacity = workspace.capacity_floats();
  CHECK(capacity >= 3 * 100 * 64 + kernel.scratch_floats(100, 64));
  for (int call = 0; call < 20; ++call) attend(workspace, input, kernel);
  CHECK(workspace.capacity_floats() == capacity);
  // A smaller shape fits in what is there.
  attend(workspace, attn_test::random_input(10, 8, attn::MaskKind::none, 3), attn::default_kernel(10, 8));
  CHECK(workspace.capacity_floats() == capacity);
}

TEST_CASE("attend: bad shapes and values are named before any arithmetic", "[attend]") {
  attn::AttendWorkspace workspace;
  const attn::KernelInfo& rows = attn::default_kernel(2, 3);  // supports every shape
  CHECK(prepare_error(workspace, 0, 4, rows).rfind("t: ", 0) == 0);
  CHECK(prepare_error(workspace, 4, 0, rows).rfind("d: ", 0) == 0);
  CHECK(prepare_error(workspace, attn::AttendLimits::max_tokens + 1, 1, rows).rfind("t: ", 0) == 0);
  CHECK(prepare_error(workspace, 1, attn::AttendLimits::max_head_dim + 1, rows).rfind("d: ", 0) == 0);
  CHECK(prepare_error(workspace, 8192, 4096, rows).rfind("t·d: ", 0) == 0);
  for (const attn::KernelInfo& kernel : attn::kernel_registry())
    if (!kernel.supports(8, 6)) CHECK(prepare_error(workspace, 8, 6, kernel).rfind("kernel: ", 0) == 0);

  attn::AttentionInput input = attn_test::random_input(3, 4, attn::MaskKind::causal, 4);
  input.k.at(2, 1) = std::nanf("");
  auto result = attend(workspace, input, rows);
  REQUIRE(std::holds_alternative<std::string>(result));
  CHECK(std::get<std::string>(result).rfind("k[2][1]: ", 0) == 0);
  input = attn_test::random_input(3, 4, attn::MaskKind::causal, 4);
  input.v.at(0, 3) = 2e15f;
  result = attend(workspace, input, rows);
  REQUIRE(std::holds_alternative<std::string>(result));
  CHECK(std::get<std::string>(result).rfind("v[0][3]: ", 0) == 0);
  // Several bad values: the first of q, then of k, then of v is named, whichever a kernel meets
  // first (the untiled kernel at T = 300 checks q first, then k and v as it packs them).
  const attn::KernelInfo& untiled = attn::default_kernel(300, 8);
  CHECK(untiled.tile_keys == 0);
  input = attn_test::random_input(300, 8, attn::MaskKind::causal, 5);
  input.q.at(290, 1) = std::nanf("");
  input.k.at(10, 2) = std::nanf("");
  input.v.at(0, 0) = std::nanf("");
  result = attend(workspace, input, untiled);
  REQUIRE(std::holds_alternative<std::string>(result));
  CHECK(std::get<std::string>(result).rfind("q[290][1]: ", 0) == 0);
  input.q.at(290, 1) = 0.5f;
  input.k.at(299, 7) = -3e15f;
  result = attend(workspace, input, untiled);
  REQUIRE(std::holds_alternative<std::string>(result));
  CHECK(std::get<std::string>(result).rfind("k[10][2]: ", 0) == 0);
  input.k.at(10, 2) = input.k.at(299, 7) = 0.5f;
  result = attend(workspace, input, untiled);
  REQUIRE(std::holds_alternative<std::string>(result));
  CHECK(std::get<std::string>(result).rfind("v[0][0]: ", 0) == 0);
  // run() without a prepare() large enough is refused, not a stray write.
  attn::AttendWorkspace fresh;
  REQUIRE(fresh.run(4, 4, attn::MaskKind::causal, rows).has_value());
}
