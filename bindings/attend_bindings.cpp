// Embind glue for attend(), the fast path: the JS wrapper copies q, k and v into the module's
// heap where prepare says, calls run, and copies the output out. Numbers only, so a call
// creates no JS object and converts no string unless it fails.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <variant>

#include "attention/kernels/attend.h"
#include "attention/json/json_io.h"
#include "attention/kernels/kernels.h"

namespace {

attn::AttendWorkspace& workspace() {
  static attn::AttendWorkspace shared;  // one per module instance; JS calls never interleave
  return shared;
}

// kernel_index: a position in kernel_registry(), or -1 for the default kernel of the shape.
const attn::KernelInfo* kernel_at(int kernel_index, int t, int d) {
  if (kernel_index < 0) return &attn::default_kernel(t > 0 ? t : 1, d > 0 ? d : 1);
  const auto& kernels = attn::kernel_registry();
  return static_cast<std::size_t>(kernel_index) < kernels.size() ? &kernels[kernel_index] : nullptr;
}

// The message of the last failed prepare or run, for attendError().
std::string& last_error() {
  static std::string message;
  return message;
}

// The byte offset of q in the heap (k and v follow, t·d floats apart), or -1 when the shape or
// the kernel is refused (the message is then attendError()'s). A number, not an object with a
// message field: the call creates no JS object and converts no string when it succeeds.
double attend_prepare(int t, int d, int kernel_index) {
  const attn::KernelInfo* kernel = kernel_at(kernel_index, t, d);
  if (!kernel) {
    last_error() = "kernel: no kernel at index " + std::to_string(kernel_index);
    return -1;
  }
  if (t < 0 || d < 0) {
    last_error() = "t, d: must not be negative";
    return -1;
  }
  const auto prepared = workspace().prepare(t, d, *kernel);
  if (const auto* error = std::get_if<attn::InputError>(&prepared)) {
    last_error() = error->message;
    return -1;
  }
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(std::get<float*>(prepared)));
}

// true when the output is in place of q; false when a value is refused (attendError() says
// which). mask_index 0 is causal, 1 is none.
bool attend_run(int t, int d, int mask_index, int kernel_index) {
  const attn::KernelInfo* kernel = kernel_at(kernel_index, t, d);
  if (!kernel || t < 0 || d < 0) {
    last_error() = "attend: call prepare first";
    return false;
  }
  const attn::MaskKind mask = mask_index == 0 ? attn::MaskKind::causal : attn::MaskKind::none;
  if (auto error = workspace().run(t, d, mask, *kernel)) {
    last_error() = error->message;
    return false;
  }
  return true;
}

std::string attend_error() { return last_error(); }

std::string default_kernel_name(int t, int d) { return kernel_at(-1, t, d)->name; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_attend) {
  emscripten::function("attendPrepare", &attend_prepare);
  emscripten::function("attendRun", &attend_run);
  emscripten::function("attendError", &attend_error);
  emscripten::function("defaultKernelName", &default_kernel_name);
  emscripten::function("kernelsJson", &attn::kernel_registry_to_json);
}
