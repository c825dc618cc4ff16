#include "attention/attend.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn {

namespace {

// The largest float within Limits::max_abs_value. Rounding to nearest went down (asserted), so
// the next float is beyond the limit: for a float x, |x| <= limit exactly when |x| <= the limit.
constexpr float float_limit = static_cast<float>(Limits::max_abs_value);
static_assert(static_cast<double>(float_limit) <= Limits::max_abs_value);

// The index of the first value in [first, n) that is NaN, infinite or beyond the limit, or n.
// One flag per chunk of values (a loop the compiler vectorises) keeps the common case, every
// value fine, at a fraction of a cycle per value; only a chunk with a bad value is searched.
std::size_t first_out_of_range(const float* values, std::size_t first, std::size_t n) {
  constexpr std::size_t chunk = 1024;
  for (std::size_t start = first; start < n; start += chunk) {
    const std::size_t end = std::min(n, start + chunk);
    unsigned out_of_range = 0;
    for (std::size_t e = start; e < end; ++e)
      out_of_range |= static_cast<unsigned>(!(std::fabs(values[e]) <= float_limit));
    if (out_of_range)
      for (std::size_t e = start; e < end; ++e)
        if (!(std::fabs(values[e]) <= float_limit)) return e;
  }
  return n;
}

}  // namespace

std::optional<InputError> check_attend_shape(std::size_t token_count, std::size_t head_dim,
                                             const KernelInfo& kernel) {
  if (token_count == 0) return make_input_error("t", "must be at least 1");
  if (token_count > AttendLimits::max_tokens)
    return make_input_error("t", "is " + std::to_string(token_count) + "; the limit is " +
                                     std::to_string(AttendLimits::max_tokens));
  if (head_dim == 0) return make_input_error("d", "must be at least 1");
  if (head_dim > AttendLimits::max_head_dim)
    return make_input_error("d", "is " + std::to_string(head_dim) + "; the limit is " +
                                     std::to_string(AttendLimits::max_head_dim));
  if (token_count * head_dim > AttendLimits::max_elements)
    return make_input_error("t·d", "is " + std::to_string(token_count * head_dim) +
                                     " values per matrix; the limit is " +
                                     std::to_string(AttendLimits::max_elements));
  if (!kernel.supports(token_count, head_dim))
    return make_input_error("kernel", std::string(kernel.name) + " does not support head_dim " +
                                          std::to_string(head_dim));
  return std::nullopt;
}

std::variant<float*, InputError> AttendWorkspace::prepare(std::size_t token_count,
                                                          std::size_t head_dim,
                                                          const KernelInfo& kernel) {
  if (auto error = check_attend_shape(token_count, head_dim, kernel)) return *error;
  const std::size_t needed =
      3 * token_count * head_dim + kernel.scratch_floats(token_count, head_dim);
  if (buffer_.size() < needed) {
    buffer_.clear();
    buffer_.shrink_to_fit();  // release first: the old contents are not needed
    buffer_.resize(needed);
  }
  return buffer_.data();
}

std::optional<InputError> AttendWorkspace::run(std::size_t token_count, std::size_t head_dim,
                                               MaskKind mask, const KernelInfo& kernel) {
  if (auto error = check_attend_shape(token_count, head_dim, kernel)) return error;
  const std::size_t n = token_count * head_dim;
  if (buffer_.size() < 3 * n + kernel.scratch_floats(token_count, head_dim))
    return make_input_error("t", "changed between prepare() and run()");
  const char* const fields[] = {"q", "k", "v"};
  for (std::size_t m = 0; m < 3; ++m) {
    const float* values = buffer_.data() + m * n;
    for (std::size_t e = first_out_of_range(values, 0, n); e < n;
         e = first_out_of_range(values, e + 1, n)) {
      const std::string path = std::string(fields[m]) + "[" + std::to_string(e / head_dim) + "][" +
                               std::to_string(e % head_dim) + "]";
      if (auto error = check_value(path, values[e])) return error;
    }
  }
  float* q = buffer_.data();
  kernel.attend(q, q, q + n, q + 2 * n, token_count, head_dim, mask, q + 3 * n);
  return std::nullopt;
}

}  // namespace attn
