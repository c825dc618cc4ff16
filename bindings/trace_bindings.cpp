// Embind glue for tracers, the typed-array trace: each tracer owns a TraceWorkspace of one shape,
// whose buffers the JS wrapper reads and writes in place (it is told their byte offsets once, at
// creation). A run passes integers only and converts no strings unless it fails, so a complete
// trace costs about as much as one attend() call. Not in the embed build: its elements use run().
#include <emscripten/bind.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/reference/trace.h"

namespace {

// One slot per tracer; a disposed tracer's slot is reused. JS calls never interleave.
std::vector<std::unique_ptr<attn::TraceWorkspace>>& tracers() {
  static std::vector<std::unique_ptr<attn::TraceWorkspace>> slots;
  return slots;
}

attn::TraceWorkspace* tracer_at(int id) {
  auto& slots = tracers();
  return id >= 0 && static_cast<std::size_t>(id) < slots.size() ? slots[id].get() : nullptr;
}

double offset_of(const void* p) { return static_cast<double>(reinterpret_cast<std::uintptr_t>(p)); }

// Where each buffer of the tracer's trace lives: byte offsets into the module's memory, fixed
// for the tracer's life (its shape never changes). Shapes are those of attn::Trace.
struct TracerLayout {
  bool ok = false;
  std::string error;
  int id = -1;
  double q = 0, k = 0, v = 0;
  double score_terms = 0, scores = 0, scale_divisor = 0, scaled = 0, masked = 0, hidden = 0;
  double exponentials = 0, row_max = 0, row_shifted = 0, row_totals = 0;
  double weights = 0, weight_sums = 0, weighted_values = 0, out = 0;
};

TracerLayout tracer_create(int t, int d) {
  TracerLayout layout;
  if (t < 0 || d < 0) {
    layout.error = t < 0 ? "t: must not be negative" : "d: must not be negative";
    return layout;
  }
  auto workspace = std::make_unique<attn::TraceWorkspace>();
  if (auto error = workspace->prepare(static_cast<std::size_t>(t), static_cast<std::size_t>(d))) {
    layout.error = error->message;
    return layout;
  }
  const attn::Trace& trace = workspace->trace();
  layout.q = offset_of(trace.q.values.data());
  layout.k = offset_of(trace.k.values.data());
  layout.v = offset_of(trace.v.values.data());
  layout.score_terms = offset_of(trace.score_terms.data());
  layout.scores = offset_of(trace.scores.values.data());
  layout.scale_divisor = offset_of(&trace.scale_divisor);
  layout.scaled = offset_of(trace.scaled.values.data());
  layout.masked = offset_of(trace.masked.values.data());
  layout.hidden = offset_of(trace.hidden.data());
  layout.exponentials = offset_of(trace.exponentials.values.data());
  layout.row_max = offset_of(trace.row_max.data());
  layout.row_shifted = offset_of(trace.row_shifted.data());
  layout.row_totals = offset_of(trace.row_totals.data());
  layout.weights = offset_of(trace.weights.values.data());
  layout.weight_sums = offset_of(trace.weight_sums.data());
  layout.weighted_values = offset_of(trace.weighted_values.data());
  layout.out = offset_of(trace.out.values.data());

  auto& slots = tracers();
  std::size_t slot = 0;
  while (slot < slots.size() && slots[slot]) ++slot;
  if (slot == slots.size()) slots.emplace_back();
  slots[slot] = std::move(workspace);
  layout.id = static_cast<int>(slot);
  layout.ok = true;
  return layout;
}

// mask_index: 0 causal, 1 none, 2 causal_zero; scale_index: 0 sqrt_d, 1 d, 2 none.
// Returns "" or the error, whose message starts with the field at fault ("q[1][3]: ...").
std::string tracer_run(int id, int mask_index, int scale_index) {
  attn::TraceWorkspace* workspace = tracer_at(id);
  if (!workspace) return "tracer: disposed, or never created";
  static constexpr attn::MaskVariant masks[] = {
      {attn::MaskKind::causal, attn::MaskFill::minus_infinity},
      {attn::MaskKind::none, attn::MaskFill::minus_infinity},
      {attn::MaskKind::causal, attn::MaskFill::zero}};
  static constexpr attn::ScaleKind scales[] = {attn::ScaleKind::sqrt_head_dim,
                                               attn::ScaleKind::head_dim, attn::ScaleKind::none};
  if (mask_index < 0 || mask_index > 2)
    return "mask: no mask at index " + std::to_string(mask_index);
  if (scale_index < 0 || scale_index > 2)
    return "scale: no scale at index " + std::to_string(scale_index);
  if (auto error = workspace->run(masks[mask_index], scales[scale_index])) return error->message;
  return {};
}

// Frees the tracer's memory (for reuse by the module; wasm memory never shrinks).
bool tracer_dispose(int id) {
  if (!tracer_at(id)) return false;
  tracers()[id].reset();
  return true;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trace) {
  emscripten::value_object<TracerLayout>("TracerLayout")
      .field("ok", &TracerLayout::ok)
      .field("error", &TracerLayout::error)
      .field("id", &TracerLayout::id)
      .field("q", &TracerLayout::q)
      .field("k", &TracerLayout::k)
      .field("v", &TracerLayout::v)
      .field("score_terms", &TracerLayout::score_terms)
      .field("scores", &TracerLayout::scores)
      .field("scale_divisor", &TracerLayout::scale_divisor)
      .field("scaled", &TracerLayout::scaled)
      .field("masked", &TracerLayout::masked)
      .field("hidden", &TracerLayout::hidden)
      .field("exponentials", &TracerLayout::exponentials)
      .field("row_max", &TracerLayout::row_max)
      .field("row_shifted", &TracerLayout::row_shifted)
      .field("row_totals", &TracerLayout::row_totals)
      .field("weights", &TracerLayout::weights)
      .field("weight_sums", &TracerLayout::weight_sums)
      .field("weighted_values", &TracerLayout::weighted_values)
      .field("out", &TracerLayout::out);
  emscripten::function("tracerCreate", &tracer_create);
  emscripten::function("tracerRun", &tracer_run);
  emscripten::function("tracerDispose", &tracer_dispose);
}
