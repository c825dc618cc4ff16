// Fuzz target: the trace and every registered kernel on shapes and values decoded from the fuzz
// input, each checked against a float64 reference with a derived error budget
// (fuzz_support.h) and against the invariants: weights in [0, 1], rows adding up to 1 within
// 1e-5, masked weights exactly 0, nothing non-finite out of finite input, outputs inside the
// span of the visible value rows. Also AttendWorkspace, the path the wasm module's attend()
// takes: one workspace reused across inputs, as a page reuses it across calls, which must give
// the kernel's own output bit for bit, or an error naming the first bad cell. And TraceWorkspace,
// the path of the module's tracers, reused the same way: compute_trace's trace bit for bit, or
// the same error.
//
// Input layout: [T][d][flags][kernel][magnitude q][magnitude k][magnitude v] then two bytes
// per value (q, k, v row-major); past the end of the input a stream seeded from it continues.
//   T and d: three bytes in four give 1 to 16, the rest 17 to 64 (small shapes run fast, so
//   the fuzzer gets through more of them). kernel byte 0xF0 and above: long sequences for the
//   kernels alone (T 65 to 320, d 1 to 8: across the first 256-key tile and 256-row group, no
//   trace; tests/core runs the kernel over many small groups and tiles).
//   flags bit 0: mask none (else causal)    bits 1-2: the trace's variant (scale d, scale
//   none, causal_zero)    bit 3: hide one bad value in the workspace call    bits 4-6: which
//   bad value.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "attention/kernels/attend.h"
#include "attention/kernels/kernels.h"
#include "attention/reference/trace.h"
#include "fuzz_support.h"

namespace {

using attn_fuzz::ByteReader;
using attn_fuzz::num;

std::vector<float> run_kernel(const attn::KernelInfo& kernel, const std::vector<float>& q,
                              const std::vector<float>& k, const std::vector<float>& v,
                              std::size_t T, std::size_t d, attn::MaskKind mask,
                              bool check_in_place) {
  // Exactly sized buffers (AddressSanitizer sees any access past them); output and scratch
  // start as NaN, so a cell left unwritten or scratch read before it is written shows.
  std::vector<float> out(T * d, std::nanf(""));
  std::vector<float> scratch(kernel.scratch_floats(T, d), std::nanf(""));
  const std::vector<float> q_copy = q, k_copy = k, v_copy = v;
  FUZZ_CHECK(kernel.attend(out.data(), q_copy.data(), k_copy.data(), v_copy.data(), T, d, mask,
                           scratch.data()),
             std::string(kernel.name) + " refused values within the limits");
  FUZZ_CHECK(q_copy == q && k_copy == k && v_copy == v, std::string(kernel.name) + " wrote its inputs");

  if (!check_in_place) return out;
  // `out` may alias `q`: the same numbers, bit for bit.
  std::vector<float> in_place = q;
  std::vector<float> scratch2(kernel.scratch_floats(T, d), std::nanf(""));
  FUZZ_CHECK(kernel.attend(in_place.data(), in_place.data(), k.data(), v.data(), T, d, mask,
                           scratch2.data()),
             std::string(kernel.name) + " refused values within the limits, in place");
  FUZZ_CHECK(std::memcmp(in_place.data(), out.data(), T * d * sizeof(float)) == 0,
             std::string(kernel.name) + " with out == q differs");
  return out;
}

// The workspace path, reused across inputs like the module's.
void check_workspace(const attn::KernelInfo& kernel, const std::vector<float>& q,
                     const std::vector<float>& k, const std::vector<float>& v, std::size_t T,
                     std::size_t d, attn::MaskKind mask, const std::vector<float>* expected,
                     ByteReader& bytes, std::uint8_t flags) {
  static attn::AttendWorkspace workspace;
  auto prepared = workspace.prepare(T, d, kernel);
  if (!kernel.supports(T, d)) {
    auto* error = std::get_if<attn::InputError>(&prepared);
    FUZZ_CHECK(error && error->path == "kernel", "unsupported shape accepted by prepare");
    FUZZ_CHECK(workspace.run(T, d, mask, kernel).has_value(), "unsupported shape accepted by run");
    return;
  }
  float** base = std::get_if<float*>(&prepared);
  FUZZ_CHECK(base != nullptr, std::get<attn::InputError>(prepared).message);
  const std::size_t n = T * d;
  FUZZ_CHECK(workspace.capacity_floats() >= 3 * n + kernel.scratch_floats(T, d), "capacity");
  std::memcpy(*base, q.data(), n * sizeof(float));
  std::memcpy(*base + n, k.data(), n * sizeof(float));
  std::memcpy(*base + 2 * n, v.data(), n * sizeof(float));

  if (flags & 8) {
    // One bad value: the run must refuse it and name its cell.
    static const float bad_values[8] = {
        std::nanf(""), std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::infinity(), std::nextafter(attn_fuzz::max_value_float(), 1e30f),
        -1e16f, std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 1e38f};
    const std::size_t where = (static_cast<std::size_t>(bytes.u16()) << 8 | bytes.byte()) % (3 * n);
    (*base)[where] = bad_values[(flags >> 4) & 7];
    const std::optional<attn::InputError> error = workspace.run(T, d, mask, kernel);
    const char* names[] = {"q", "k", "v"};
    const std::size_t e = where % n;
    const std::string path = std::string(names[where / n]) + attn_fuzz::at(e / d, e % d);
    FUZZ_CHECK(error.has_value(), "bad value at " + path + " accepted");
    FUZZ_CHECK(error->path == path, "error names " + error->path + ", expected " + path);
    FUZZ_CHECK(error->message.rfind(path + ": ", 0) == 0, error->message);
    return;
  }
  const std::optional<attn::InputError> error = workspace.run(T, d, mask, kernel);
  FUZZ_CHECK(!error.has_value(), error ? error->message : "");
  if (expected)
    FUZZ_CHECK(std::memcmp(*base, expected->data(), n * sizeof(float)) == 0,
               std::string(kernel.name) + " through the workspace differs from the kernel");
}

// The trace workspace, reused across inputs of every shape like a tracer's: every buffer holds
// compute_trace's numbers bit for bit, or the run names the bad cell planted in it.
void check_trace_workspace(const attn::AttentionInput& input, const attn::Trace& expected,
                           ByteReader& bytes, std::uint8_t flags) {
  static attn::TraceWorkspace workspace;
  const std::size_t T = input.q.rows, d = input.q.cols, n = T * d;
  const std::optional<attn::InputError> shape_error = workspace.prepare(T, d);
  FUZZ_CHECK(!shape_error, shape_error ? shape_error->message : "");
  std::memcpy(workspace.q(), input.q.values.data(), n * sizeof(float));
  std::memcpy(workspace.k(), input.k.values.data(), n * sizeof(float));
  std::memcpy(workspace.v(), input.v.values.data(), n * sizeof(float));
  const attn::MaskVariant mask{input.mask, input.mask_fill};
  if (flags & 8) {
    float* const matrices[3] = {workspace.q(), workspace.k(), workspace.v()};
    const std::size_t where = (static_cast<std::size_t>(bytes.u16()) << 8 | bytes.byte()) % (3 * n);
    matrices[where / n][where % n] = std::numeric_limits<float>::quiet_NaN();
    const char* names[] = {"q", "k", "v"};
    const std::string path = std::string(names[where / n]) + attn_fuzz::at(where % n / d, where % n % d);
    const std::optional<attn::InputError> error = workspace.run(mask, input.scale);
    FUZZ_CHECK(error && error->path == path, "the trace workspace does not name " + path);
    return;
  }
  const std::optional<attn::InputError> error = workspace.run(mask, input.scale);
  FUZZ_CHECK(!error, error ? error->message : "");
  const attn::Trace& got = workspace.trace();
  const auto same = [](const auto& a, const auto& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
  };
  const attn::Trace& want = expected;
  FUZZ_CHECK(got.token_count == T && got.head_dim == d, "trace workspace shape");
  const bool identical =
      same(got.score_terms, want.score_terms) && same(got.scores.values, want.scores.values) &&
      same(got.scaled.values, want.scaled.values) && same(got.masked.values, want.masked.values) &&
      same(got.exponentials.values, want.exponentials.values) && same(got.row_max, want.row_max) &&
      same(got.row_shifted, want.row_shifted) && same(got.row_totals, want.row_totals) &&
      same(got.weights.values, want.weights.values) && same(got.weight_sums, want.weight_sums) &&
      same(got.weighted_values, want.weighted_values) && same(got.out.values, want.out.values) &&
      std::memcmp(&got.scale_divisor, &want.scale_divisor, sizeof(float)) == 0;
  FUZZ_CHECK(identical, "the trace workspace differs from compute_trace");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 7) return 0;
  ByteReader bytes(data, size);
  const std::uint8_t t_byte = bytes.byte(), d_byte = bytes.byte(), flags = bytes.byte();
  const std::uint8_t kernel_byte = bytes.byte();
  const bool long_mode = kernel_byte >= 0xF0;
  const auto size_from = [](std::uint8_t b) -> std::size_t { return b < 192 ? 1 + b % 16 : 17 + (b - 192) % 48; };
  const std::size_t T = long_mode ? 65 + std::size_t{t_byte} : size_from(t_byte);
  const std::size_t d = long_mode ? 1 + d_byte % 8 : size_from(d_byte);
  const attn::MaskKind mask = (flags & 1) ? attn::MaskKind::none : attn::MaskKind::causal;
  const std::uint8_t magnitude[3] = {bytes.byte(), bytes.byte(), bytes.byte()};

  std::vector<float> m[3];
  for (int which = 0; which < 3; ++which) {
    m[which].resize(T * d);
    for (float& x : m[which]) x = attn_fuzz::decode_value(bytes.u16(), magnitude[which]);
  }
  const std::vector<float>& q = m[0];
  const std::vector<float>& k = m[1];
  const std::vector<float>& v = m[2];

  // The float64 reference of the article's attention, which the kernels compute.
  const attn_fuzz::Reference reference =
      attn_fuzz::reference(q.data(), k.data(), v.data(), T, d, mask,
                           attn::MaskFill::minus_infinity, std::sqrt(static_cast<float>(d)));

  // The trace, on the article's attention or one of the FAQ's variants.
  if (!long_mode) {
    attn::AttentionInput input;
    for (std::size_t t = 0; t < T; ++t) input.tokens.push_back("t" + std::to_string(t));
    input.q = attn::Matrix(T, d);
    input.k = attn::Matrix(T, d);
    input.v = attn::Matrix(T, d);
    input.q.values = q;
    input.k.values = k;
    input.v.values = v;
    input.mask = mask;
    switch ((flags >> 1) & 3) {
      case 1: input.scale = attn::ScaleKind::head_dim; break;
      case 2: input.scale = attn::ScaleKind::none; break;
      case 3:
        input.mask = attn::MaskKind::causal;
        input.mask_fill = attn::MaskFill::zero;
        break;
      default: break;
    }
    const std::optional<attn::InputError> error = attn::validate_input(input);
    FUZZ_CHECK(!error, error ? error->message : "");
    const bool article_variant = input.mask == mask && input.scale == attn::ScaleKind::sqrt_head_dim &&
                                 input.mask_fill == attn::MaskFill::minus_infinity;
    const attn::Trace trace = attn::compute_trace(input);
    attn_fuzz::check_trace(input, trace, article_variant ? &reference : nullptr);
    check_trace_workspace(input, trace, bytes, flags);
  }

  // Every kernel that supports the shape, against the float64 reference of the article's
  // attention (and so against the trace, which meets the same budget).
  const std::vector<attn::KernelInfo>& kernels = attn::kernel_registry();
  FUZZ_CHECK(!kernels.empty(), "no kernels");
  const attn::KernelInfo& chosen = kernels[kernel_byte % kernels.size()];
  std::vector<float> chosen_out;
  for (const attn::KernelInfo& kernel : kernels) {
    if (!kernel.supports(T, d)) continue;
    std::vector<float> out = run_kernel(kernel, q, k, v, T, d, mask, &kernel == &chosen);
    attn_fuzz::check_output(reference, out.data(), kernel.name);
    if (&kernel == &chosen) chosen_out = std::move(out);
  }
  const attn::KernelInfo& fallback = attn::default_kernel(T, d);
  FUZZ_CHECK(fallback.supports(T, d), "default_kernel picks " + std::string(fallback.name) +
                                          " for an unsupported shape");

  check_workspace(chosen, q, k, v, T, d, mask, chosen_out.empty() ? nullptr : &chosen_out, bytes,
                  flags);

  // Sizes past AttendLimits are refused before anything is allocated, naming the size at fault.
  using Limits = attn::AttendLimits;
  const struct { std::size_t t, d; const char* path; } refused[] = {
      {0, d, "t"}, {T, 0, "d"}, {Limits::max_tokens + 1 + t_byte, 1, "t"},
      {1, Limits::max_head_dim + 1 + d_byte, "d"},
      {Limits::max_tokens, Limits::max_head_dim, "t·d"}};
  for (const auto& shape : refused) {
    const std::optional<attn::InputError> error = attn::check_attend_shape(shape.t, shape.d, chosen);
    FUZZ_CHECK(error && error->path == shape.path,
               "t " + std::to_string(shape.t) + ", d " + std::to_string(shape.d) + ": " +
                   (error ? error->message : std::string("accepted")));
  }
  return 0;
}
