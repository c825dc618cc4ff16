// Embind glue for attend(), the fast path: the JS wrapper copies q, k and v into the module's
// heap where prepare says, calls run, and copies the output out. Integers and offsets only, so
// a call converts no strings unless it fails.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <variant>

#include "attention/attend.h"
#include "attention/json_io.h"
#include "attention/kernels.h"

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

struct AttendLayout {
  bool ok = false;
  std::string error;
  double q_offset = 0;  // byte offset of q in the heap; k and v follow, t·d floats apart
};

AttendLayout attend_prepare(int t, int d, int kernel_index) {
  const attn::KernelInfo* kernel = kernel_at(kernel_index, t, d);
  if (!kernel) return {false, "kernel: no kernel at index " + std::to_string(kernel_index), 0};
  if (t < 0 || d < 0) return {false, "t, d: must not be negative", 0};
  const auto prepared = workspace().prepare(t, d, *kernel);
  if (const auto* error = std::get_if<attn::InputError>(&prepared)) return {false, error->message, 0};
  return {true, {}, static_cast<double>(reinterpret_cast<std::uintptr_t>(std::get<float*>(prepared)))};
}

// Returns "" or the error; mask_index 0 is causal, 1 is none.
std::string attend_run(int t, int d, int mask_index, int kernel_index) {
  const attn::KernelInfo* kernel = kernel_at(kernel_index, t, d);
  if (!kernel || t < 0 || d < 0) return "attend: call prepare first";
  const attn::MaskKind mask = mask_index == 0 ? attn::MaskKind::causal : attn::MaskKind::none;
  if (auto error = workspace().run(t, d, mask, *kernel)) return error->message;
  return {};
}

std::string default_kernel_name(int t, int d) { return kernel_at(-1, t, d)->name; }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_attend) {
  emscripten::value_object<AttendLayout>("AttendLayout")
      .field("ok", &AttendLayout::ok)
      .field("error", &AttendLayout::error)
      .field("q_offset", &AttendLayout::q_offset);
  emscripten::function("attendPrepare", &attend_prepare);
  emscripten::function("attendRun", &attend_run);
  emscripten::function("defaultKernelName", &default_kernel_name);
  emscripten::function("kernelsJson", &attn::kernel_registry_to_json);
}
