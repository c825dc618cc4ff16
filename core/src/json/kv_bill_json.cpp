// The KV-cache bill as JSON: the request's members (a preset's figures as defaults, each member
// overriding one), the bill with its working, the curve a plot draws, and the presets
// themselves (sequel_json.h). The arithmetic is kv_bill.cpp's.
#include <string>

#include "attention/article/article_data.h"
#include "attention/json/sequel_json.h"
#include "json/request_fields.h"
#include "json/sequel_request.h"

namespace attn {

using namespace json_request;
using namespace sequel_request;
using Type = Value::Type;

namespace {

constexpr double kv_bits_allowed[] = {2, 3, 4, 8};
constexpr double weight_dtype_bytes_allowed[] = {0.5, 1, 2, 4};

// The preset's figures, or the toy GQA layer's; then the family (MLA or K/V heads) the request
// asks for, refusing the other family's fields.
std::optional<InputError> read_starting_shape(const Value& root, ModelShape& shape) {
  shape = toy_grouped_shape(16, 4, 2, article::four_words().tokens.size());
  if (const Value* preset_name = root.find("preset")) {
    std::string names;
    for (const ModelPreset& preset : model_presets())
      names += (names.empty() ? "\"" : ", \"") + std::string(preset.name) + "\"";
    const ModelPreset* preset =
        preset_name->type == Type::string ? find_model_preset(preset_name->string) : nullptr;
    if (!preset) return make_input_error("preset", "must be one of " + names + ", " + got(*preset_name));
    shape = model_shape_of(*preset);
  }
  // MLA when the preset is, or when d_latent is given; the other family's fields are refused.
  if (root.find("d_latent") && !shape.latent) {
    shape.latent = true;
    shape.d_latent = 0;  // read from the request
    shape.rope_dim = 0;
  }
  if (shape.latent) {
    for (const char* field : {"n_kv_heads", "head_dim"})
      if (root.find(field))
        return make_input_error(field, "does not apply to multi-head latent attention, which "
                                       "caches d_latent + rope_dim values per token");
  } else if (root.find("rope_dim")) {
    return make_input_error("rope_dim", "applies to multi-head latent attention only (give "
                                        "d_latent); other variants rotate keys inside head_dim");
  }
  return std::nullopt;
}

void write_curve(std::string& out, const KvCurve& curve) {
  write_key(out, "curve");
  out += '{';
  write_key(out, "context_tokens");
  out += '[';
  for (std::size_t n = 0; n < curve.points.size(); ++n) {
    if (n) out += ',';
    write_shortest(out, curve.points[n].context_tokens);
  }
  out += ']';
  write_key(out, "bytes_per_sequence");
  out += '[';
  for (std::size_t n = 0; n < curve.points.size(); ++n) {
    if (n) out += ',';
    write_shortest(out, curve.points[n].bytes_per_sequence);
  }
  out += ']';
  write_number_member(out, "memory_left_bytes", curve.memory_left_bytes);
  write_number_member(out, "batch", static_cast<double>(curve.batch));
  write_number_member(out, "memory_left_per_sequence_bytes", curve.memory_left_per_sequence_bytes);
  write_key(out, "crossing_tokens");
  if (curve.crossing_tokens) write_shortest(out, *curve.crossing_tokens); else out += "null";
  out += '}';
}

}  // namespace

std::string kv_bill_to_json(const KvBill& bill) {
  const ModelShape& shape = bill.shape;
  const ModelPreset* preset = shape.preset.empty() ? nullptr : find_model_preset(shape.preset);
  std::string out = "{";
  write_key(out, "preset");
  if (preset) json::write_string(out, preset->name); else out += "null";
  write_key(out, "label");
  if (preset) json::write_string(out, preset->label); else out += "null";
  write_key(out, "citation");
  if (preset) json::write_string(out, preset->citation); else out += "null";
  write_text(out, "attention", bill.attention);
  write_count(out, "layers", shape.layers);
  write_count(out, "d_model", shape.d_model);
  write_count(out, "n_heads", shape.n_heads);
  write_count_or_null(out, "n_kv_heads", !shape.latent, shape.n_kv_heads);
  write_count_or_null(out, "head_dim", !shape.latent, shape.head_dim);
  write_count_or_null(out, "d_latent", shape.latent, shape.d_latent);
  write_count_or_null(out, "rope_dim", shape.latent, shape.rope_dim);
  write_count(out, "dtype_bytes", shape.dtype_bytes);
  write_count_or_null(out, "kv_bits", shape.kv_bits != 0, static_cast<std::size_t>(shape.kv_bits));
  write_count(out, "scale_bytes", shape.scale_bytes);
  write_number_member(out, "weight_dtype_bytes", shape.weight_dtype_bytes);
  write_number_member(out, "parameters", shape.parameters);
  write_count(out, "context_length", shape.context_length);
  write_count(out, "batch", shape.batch);
  write_number_member(out, "gpu_memory_gib", shape.gpu_memory_gib);
  write_count_or_null(out, "sliding_window", shape.sliding_window != 0, shape.sliding_window);
  write_count(out, "local_layers", bill.local_layers);
  write_count(out, "global_layers", bill.global_layers);
  write_number_member(out, "cached_values_per_token_per_layer", bill.cached_values_per_token_per_layer);
  write_number_member(out, "cached_vectors_per_token_per_layer", bill.cached_vectors_per_token_per_layer);
  write_number_member(out, "bytes_per_token_per_layer", bill.bytes_per_token_per_layer);
  write_text(out, "formula", bill.formula);
  write_text(out, "working", bill.working);
  write_number_member(out, "bytes_per_token", bill.bytes_per_token);
  write_number_member(out, "cached_tokens_per_global_layer", bill.cached_tokens_per_global_layer);
  write_number_member(out, "cached_tokens_per_local_layer", bill.cached_tokens_per_local_layer);
  write_number_member(out, "bytes_per_sequence", bill.bytes_per_sequence);
  write_text(out, "sequence_formula", bill.sequence_formula);
  write_text(out, "sequence_working", bill.sequence_working);
  write_number_member(out, "cache_bytes", bill.cache_bytes);
  write_number_member(out, "weight_bytes", bill.weight_bytes);
  write_number_member(out, "gpu_bytes", bill.gpu_bytes);
  write_key(out, "fits"); write_bool(out, bill.fits);
  write_number_member(out, "concurrent_sequences", bill.concurrent_sequences);
  write_key(out, "max_context_tokens");
  if (bill.max_context_tokens) write_shortest(out, *bill.max_context_tokens); else out += "null";
  write_text(out, "max_context_working", bill.max_context_working);
  out += '}';
  return out;
}

JsonOrError kv_bill_json(std::string_view request) {
  auto parsed = parse_request(request, {"preset", "layers", "d_model", "n_heads", "n_kv_heads",
                                        "head_dim", "d_latent", "rope_dim", "dtype_bytes", "kv_bits",
                                        "scale_bytes", "weight_dtype_bytes", "parameters",
                                        "context_length", "batch", "gpu_memory_gib",
                                        "sliding_window", "local_layers", "curve_from_tokens",
                                        "curve_to_tokens"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  ModelShape shape;
  if (auto error = read_starting_shape(root, shape)) return *error;
  // A new window without local_layers applies to every layer; no window, to none.
  if (root.find("sliding_window") && !root.find("local_layers")) shape.local_layers.reset();

  std::size_t curve_from = KvCurveLimits::default_from, curve_to = KvCurveLimits::default_to;
  constexpr std::size_t max_context = KvBillLimits::max_context_length;
  // Absent members keep the preset's (or the toy's) figure.
  const Field fields[] = {
      {"layers", count_in(1, KvBillLimits::max_layers), &shape.layers},
      {"d_model", count_in(1, KvBillLimits::max_d_model), &shape.d_model},
      {"n_heads", count_in(1, KvBillLimits::max_heads), &shape.n_heads},
      {"n_kv_heads", count_in(1, KvBillLimits::max_heads), &shape.n_kv_heads},
      {"head_dim", count_in(1, KvBillLimits::max_head_dim), &shape.head_dim},
      {"d_latent", count_in(1, KvBillLimits::max_d_latent), &shape.d_latent},
      {"rope_dim", count_in(0, KvBillLimits::max_rope_dim), &shape.rope_dim},
      {"scale_bytes", count_in(0, KvBillLimits::max_scale_bytes), &shape.scale_bytes},
      {"context_length", count_in(1, max_context), &shape.context_length},
      {"batch", count_in(1, KvBillLimits::max_batch), &shape.batch},
      {"dtype_bytes", kDtypeBytes,
       &shape.dtype_bytes},
      {"kv_bits", OneOf{kv_bits_allowed, "2, 3, 4 or 8"}, &shape.kv_bits, std::nullopt, 0.0,
       "null for an unquantised cache"},
      {"weight_dtype_bytes", OneOf{weight_dtype_bytes_allowed, "0.5 (4-bit), 1, 2 or 4"},
       &shape.weight_dtype_bytes},
      {"parameters", WholeIn{1.0, KvBillLimits::max_parameters}, &shape.parameters},
      {"gpu_memory_gib", NumberIn{0.0, true, KvBillLimits::max_gpu_memory_gib}, &shape.gpu_memory_gib},
      {"sliding_window", count_in(1, KvBillLimits::max_sliding_window), &shape.sliding_window,
       std::nullopt, 0.0, "null for no window (every layer global)"},
      {"local_layers", count_in(0, KvBillLimits::max_layers), &shape.local_layers, std::nullopt,
       0.0, "null for every layer"},
      {"curve_from_tokens", count_in(1, max_context - 1), &curve_from},
      {"curve_to_tokens", count_in(2, max_context), &curve_to},
  };
  if (auto error = read_fields(root, fields)) return *error;
  if (shape.sliding_window == 0 && !root.find("local_layers")) shape.local_layers.reset();
  if (!root.find("parameters") && shape.preset.empty()) {
    shape.parameters = attention_parameters(shape);
    if (shape.parameters > KvBillLimits::max_parameters)
      return make_input_error("parameters", "is needed: the attention tables of this shape "
                                            "would count more than 1e15");
  }
  if (curve_from >= curve_to)
    return make_input_error("curve_to_tokens", "must be above curve_from_tokens (" +
                                                   std::to_string(curve_from) + "), got " +
                                                   std::to_string(curve_to));

  if (auto error = validate_model_shape(shape)) return *error;
  const KvBill bill = compute_kv_bill(shape);
  std::string out = kv_bill_to_json(bill);
  out.pop_back();  // reopen the object for the curve
  write_curve(out, compute_kv_curve(bill, curve_from, curve_to));
  out += '}';
  return out;
}

std::string model_presets_to_json() {
  std::string out;
  write_objects(out, model_presets(), [&](const ModelPreset& preset) {
    const bool latent = preset.attention == "MLA";
    const bool windowed = preset.sliding_window != 0;
    write_text(out, "name", preset.name);
    write_text(out, "label", preset.label);
    write_text(out, "attention", preset.attention);
    write_count(out, "d_model", preset.d_model);
    write_count(out, "layers", preset.layers);
    write_count(out, "n_heads", preset.n_heads);
    write_count_or_null(out, "n_kv_heads", !latent, preset.n_kv_heads);
    write_count_or_null(out, "head_dim", !latent, preset.head_dim);
    write_count_or_null(out, "d_latent", latent, preset.d_latent);
    write_count_or_null(out, "rope_dim", latent, preset.rope_dim);
    write_number_member(out, "parameters", preset.parameters);
    write_number_member(out, "weight_dtype_bytes", preset.weight_dtype_bytes);
    write_count(out, "dtype_bytes", preset.dtype_bytes);
    write_count(out, "max_context", preset.max_context);
    write_count_or_null(out, "sliding_window", windowed, preset.sliding_window);
    write_count_or_null(out, "local_layers", windowed,
                        preset.local_layers != 0 ? preset.local_layers : preset.layers);
    write_text(out, "parameters_source", preset.parameters_source);
    write_text(out, "citation", preset.citation);
    write_text(out, "note", preset.note);
    write_key(out, "window_source");
    if (windowed) json::write_string(out, preset.window_source); else out += "null";
  });
  return out;
}

}  // namespace attn
