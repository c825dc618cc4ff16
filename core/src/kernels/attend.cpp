#include "attention/kernels/attend.h"

#include <string>

namespace attn {

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
  float* q = buffer_.data();
  if (kernel.attend(q, q, q + n, q + 2 * n, token_count, head_dim, mask, q + 3 * n))
    return std::nullopt;
  // The kernel met a value out of range, before it wrote any output over q; which one (q's
  // first, then k's, then v's) is for check_values to say.
  const char* const fields[] = {"q", "k", "v"};
  for (std::size_t m = 0; m < 3; ++m)
    if (auto error = check_values(fields[m], buffer_.data() + m * n, token_count, head_dim))
      return error;
  return make_input_error("attend", "the kernel refused a value that the check accepts");
}

}  // namespace attn
