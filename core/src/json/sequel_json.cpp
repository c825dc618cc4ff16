// JSON requests and answers of the sequel's computations. Requests are read member by member
// (json_request.h) with a message naming the member, row and column at fault; the arithmetic
// lives in grouped_attention.cpp, latent_attention.cpp, flash_tiles.cpp, quantised_cache.cpp
// and kv_bill.cpp.
#include "attention/json/sequel_json.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/json/json_io.h"
#include "attention/layers/multi_head.h"
#include "attention/reference/vocabulary.h"
#include "json/json_request.h"
#include "layers/layer_tables.h"

namespace attn {

namespace {

using json::Value;
using Type = Value::Type;
using namespace json_request;

// ---- the members every layer request shares ------------------------------------------------

struct LayerBasics {
  std::vector<std::string> tokens = article::four_words().tokens;
  std::size_t d_model = LayerDefaults::d_model;
  std::size_t n_heads = LayerDefaults::n_heads;
  std::uint64_t seed = LayerDefaults::seed;
  std::optional<Matrix> x;  // [T][d_model] when given
  MaskVariant mask;
  ScaleKind scale = ScaleKind::sqrt_head_dim;
};

// tokens, d_model (or x's width), x, n_heads, seed; mask and scale when `choices` allow them.
std::optional<InputError> read_layer_basics(const Value& root, double max_abs, LayerBasics& out,
                                            std::initializer_list<std::string_view> mask_choices,
                                            bool read_scale_member) {
  if (auto error = read_tokens(root, out.tokens)) return error;
  const std::size_t T = out.tokens.size();
  const bool d_model_given = root.find("d_model") != nullptr;
  if (auto error = read_count(root, "d_model", 1, MultiHeadLimits::max_d_model, out.d_model)) return error;
  if (const Value* x = root.find("x")) {
    Matrix table;
    if (auto error = read_table(*x, "x", T, d_model_given ? out.d_model : 0,
                                MultiHeadLimits::max_d_model, max_abs, "d_model", table))
      return error;
    out.d_model = table.cols;
    out.x = std::move(table);
  }
  if (auto error = read_count(root, "n_heads", 1, MultiHeadLimits::max_d_model, out.n_heads)) return error;
  if (auto error = layer_tables::check_head_split(out.d_model, out.n_heads)) return error;
  if (auto error = read_seed(root, out.seed)) return error;
  if (auto error = read_mask(root, mask_choices, out.mask)) return error;
  if (read_scale_member)
    if (auto error = read_scale(root, out.scale)) return error;
  return std::nullopt;
}

// x (when given), mask and scale into a layer's input.
template <typename LayerInput>
void apply_basics(const LayerBasics& basics, LayerInput& input) {
  if (basics.x) input.x = *basics.x;
  input.mask = basics.mask.mask;
  input.mask_fill = basics.mask.fill;
  input.scale = basics.scale;
}

// ---- writing pieces ------------------------------------------------------------------------

void write_count(std::string& out, std::string_view key, std::size_t value) {
  write_key(out, key);
  out += std::to_string(value);
}

void write_number_member(std::string& out, std::string_view key, double value) {
  write_key(out, key);
  write_shortest(out, value);
}

void write_text(std::string& out, std::string_view key, std::string_view text) {
  write_key(out, key);
  json::write_string(out, text);
}

void write_seed(std::string& out, std::uint64_t seed) {
  write_number_member(out, "seed", static_cast<double>(seed));
}

void write_mask_and_scale(std::string& out, const Trace& trace) {
  write_text(out, "mask", mask_variant_name(trace.mask, trace.mask_fill));
  write_text(out, "scale", scale_name(trace.scale));
}

// The rest of a layer: concat, w_o, out and the bill of its toy shape; closes the object.
template <typename Layer>
void write_output_and_bill(std::string& out, const Layer& layer, const ModelShape& toy_shape) {
  write_key(out, "concat"); write_matrix(out, layer.concat);
  write_key(out, "w_o"); write_matrix(out, layer.w_o);
  write_key(out, "out"); write_matrix(out, layer.out);
  write_key(out, "bill"); out += kv_bill_to_json(compute_kv_bill(toy_shape));
  out += '}';
}

void write_errors(std::string& out, std::string_view key, const ErrorFigures& figures) {
  write_key(out, key);
  out += '{';
  write_key(out, "max_abs"); json::write_number(out, figures.max_abs);
  write_key(out, "relative"); json::write_number(out, figures.relative);
  out += '}';
}

constexpr const char* latent_positional_note =
    "left out: the toy has no positional encoding, so its cache is the latent alone; the "
    "published models also cache a small decoupled RoPE key per token (rope_dim, counted in "
    "the bill)";

constexpr const char* quantiser_scheme =
    "each cached key and value row is rotated (x · R), then quantised with one scale per row: "
    "L = 2^(bits-1) - 1 levels each side, scale = max |y| / L, code = round(y / scale) in "
    "[-L, L]; it is read back as code · scale, rotated back (· Rᵀ). Stored: the packed codes "
    "and the scale as a float32";

// ---- the head for the tiles and the quantised cache ----------------------------------------

struct HeadSource {
  AttentionInput input;
  bool given = false;
  std::size_t d_model = 0, n_heads = 0, head = 0;
  std::uint64_t seed = 1;
};

std::optional<InputError> read_head_source(const Value& root,
                                           std::initializer_list<std::string_view> mask_choices,
                                           bool read_scale_member, HeadSource& out) {
  const Value* q = root.find("q");
  const Value* k = root.find("k");
  const Value* v = root.find("v");
  LayerBasics basics;
  if (q || k || v) {
    for (const char* name : {"q", "k", "v"})
      if (!root.find(name))
        return make_input_error(name, "is missing: give q, k and v together, or none of them "
                                      "(then head picks a head of the seeded layer)");
    for (const char* name : {"d_model", "n_heads", "x", "head"})
      if (root.find(name))
        return make_input_error(name, "does not apply when q, k and v are given");
    if (auto error = read_tokens(root, basics.tokens)) return error;
    if (auto error = read_seed(root, basics.seed)) return error;
    if (auto error = read_mask(root, mask_choices, basics.mask)) return error;
    if (read_scale_member)
      if (auto error = read_scale(root, basics.scale)) return error;
    const std::size_t T = basics.tokens.size();
    AttentionInput& input = out.input;
    if (auto error = read_table(*q, "q", T, 0, Limits::max_head_dim, Limits::max_abs_value,
                                "head_dim", input.q))
      return error;
    if (auto error = read_table(*k, "k", T, input.q.cols, Limits::max_head_dim,
                                Limits::max_abs_value, "head_dim, as q", input.k))
      return error;
    if (auto error = read_table(*v, "v", T, input.q.cols, Limits::max_head_dim,
                                Limits::max_abs_value, "head_dim, as q", input.v))
      return error;
    out.given = true;
  } else {
    if (auto error = read_layer_basics(root, MultiHeadLimits::max_abs_value, basics, mask_choices,
                                       read_scale_member))
      return error;
    std::size_t head = 0;
    if (auto error = read_count(root, "head", 0, basics.n_heads - 1, head)) return error;
    MultiHeadInput layer =
        seeded_multi_head_input(basics.tokens, basics.d_model, basics.n_heads, basics.seed);
    if (basics.x) layer.x = *basics.x;
    out.input.q = layer_tables::multiply(layer.x, layer.w_q[head]);  // [T][head_dim]
    out.input.k = layer_tables::multiply(layer.x, layer.w_k[head]);  // [T][head_dim]
    out.input.v = layer_tables::multiply(layer.x, layer.w_v[head]);  // [T][head_dim]
    out.d_model = basics.d_model;
    out.n_heads = basics.n_heads;
    out.head = head;
  }
  out.seed = basics.seed;
  out.input.tokens = basics.tokens;
  out.input.mask = basics.mask.mask;
  out.input.mask_fill = basics.mask.fill;
  out.input.scale = basics.scale;
  return std::nullopt;
}

void write_source(std::string& out, const HeadSource& source) {
  write_key(out, "source");
  out += '{';
  if (source.given) {
    write_text(out, "kind", "given");
  } else {
    write_text(out, "kind", "seeded_head");
    write_count(out, "d_model", source.d_model);
    write_count(out, "n_heads", source.n_heads);
    write_count(out, "head", source.head);
    write_seed(out, source.seed);
  }
  out += '}';
}

void write_quantised_rows(std::string& out, std::string_view key, const QuantisedRows& rows,
                          std::size_t d) {
  write_key(out, key);
  out += '{';
  write_key(out, "scales"); write_numbers(out, rows.scales);
  write_key(out, "codes");
  out += '[';
  for (std::size_t t = 0; t * d < rows.codes.size(); ++t) {
    out += t ? ",[" : "[";
    for (std::size_t c = 0; c < d; ++c) {
      if (c) out += ',';
      out += std::to_string(rows.codes[t * d + c]);
    }
    out += ']';
  }
  out += ']';
  write_key(out, "dequantised"); write_matrix(out, rows.dequantised);
  write_key(out, "restored"); write_matrix(out, rows.restored);
  out += '}';
}

// A count or null.
void write_count_or_null(std::string& out, std::string_view key, bool present, std::size_t value) {
  write_key(out, key);
  out += present ? std::to_string(value) : "null";
}

}  // namespace

// ---- grouped-query attention ---------------------------------------------------------------

std::string grouped_attention_to_json(const GroupedAttentionLayer& layer, std::uint64_t seed) {
  std::string out = "{";
  write_text(out, "variant", grouped_variant_name(layer.n_heads, layer.n_kv_heads));
  write_key(out, "tokens"); write_strings(out, layer.tokens);
  write_count(out, "d_model", layer.d_model);
  write_count(out, "n_heads", layer.n_heads);
  write_count(out, "n_kv_heads", layer.n_kv_heads);
  write_count(out, "head_dim", layer.head_dim);
  write_count(out, "group_size", layer.group_size);
  write_seed(out, seed);
  write_mask_and_scale(out, layer.heads.front().trace);
  write_key(out, "x"); write_matrix(out, layer.x);
  write_key(out, "kv_heads");
  write_objects(out, layer.kv_heads, [&](const KvHeadOfLayer& kv) {
    write_key(out, "w_k"); write_matrix(out, kv.w_k);
    write_key(out, "w_v"); write_matrix(out, kv.w_v);
    write_key(out, "k"); write_matrix(out, kv.k);
    write_key(out, "v"); write_matrix(out, kv.v);
    write_key(out, "query_heads"); write_counts(out, kv.query_heads);
  });
  write_key(out, "heads");
  write_objects(out, layer.heads, [&](const QueryHeadOfLayer& head) {
    write_count(out, "kv_head", head.kv_head);
    write_key(out, "w_q"); write_matrix(out, head.w_q);
    write_key(out, "trace"); out += trace_to_json(head.trace);
  });
  write_output_and_bill(
      out, layer, toy_grouped_shape(layer.d_model, layer.n_heads, layer.n_kv_heads, layer.tokens.size()));
  return out;
}

JsonOrError grouped_attention_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "n_kv_heads", "seed", "x",
                                        "mask", "scale"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  LayerBasics basics;
  if (auto error = read_layer_basics(root, MultiHeadLimits::max_abs_value, basics,
                                     {"causal", "none", "causal_zero"}, true))
    return *error;
  // Groups of two query heads by default (MHA when n_heads is odd).
  std::size_t n_kv_heads = default_kv_heads(basics.n_heads);
  if (auto error = read_count(root, "n_kv_heads", 1, MultiHeadLimits::max_d_model, n_kv_heads))
    return *error;
  if (auto error = validate_grouping(basics.n_heads, n_kv_heads)) return *error;

  GroupedAttentionInput input =
      seeded_grouped_input(basics.tokens, basics.d_model, basics.n_heads, n_kv_heads, basics.seed);
  apply_basics(basics, input);
  if (auto error = validate_grouped_input(input)) return *error;
  return grouped_attention_to_json(compute_grouped_attention(input), basics.seed);
}

// ---- latent attention ----------------------------------------------------------------------

std::string latent_attention_to_json(const LatentAttentionLayer& layer, std::uint64_t seed) {
  std::string out = "{";
  write_text(out, "variant", "MLA");
  write_key(out, "tokens"); write_strings(out, layer.tokens);
  write_count(out, "d_model", layer.d_model);
  write_count(out, "n_heads", layer.n_heads);
  write_count(out, "head_dim", layer.head_dim);
  write_count(out, "d_latent", layer.d_latent);
  write_seed(out, seed);
  write_mask_and_scale(out, layer.heads.front().trace);
  write_text(out, "positional_encoding", latent_positional_note);
  write_key(out, "x"); write_matrix(out, layer.x);
  write_key(out, "w_dkv"); write_matrix(out, layer.w_dkv);
  write_key(out, "latent"); write_matrix(out, layer.latent);
  write_key(out, "heads");
  write_objects(out, layer.heads, [&](const LatentHeadOfLayer& head) {
    write_key(out, "w_q"); write_matrix(out, head.w_q);
    write_key(out, "w_uk"); write_matrix(out, head.w_uk);
    write_key(out, "w_uv"); write_matrix(out, head.w_uv);
    write_key(out, "trace"); out += trace_to_json(head.trace);
  });
  write_output_and_bill(
      out, layer, toy_latent_shape(layer.d_model, layer.n_heads, layer.d_latent, layer.tokens.size()));
  return out;
}

JsonOrError latent_attention_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "d_latent", "seed", "x",
                                        "mask", "scale"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  LayerBasics basics;
  if (auto error = read_layer_basics(root, LatentAttentionLimits::max_abs_value, basics,
                                     {"causal", "none", "causal_zero"}, true))
    return *error;
  std::size_t d_latent = 8;
  if (auto error = read_count(root, "d_latent", 1, LatentAttentionLimits::max_d_latent, d_latent))
    return *error;

  LatentAttentionInput input =
      seeded_latent_input(basics.tokens, basics.d_model, basics.n_heads, d_latent, basics.seed);
  apply_basics(basics, input);
  if (auto error = validate_latent_input(input)) return *error;
  return latent_attention_to_json(compute_latent_attention(input), basics.seed);
}

// ---- FlashAttention's tiles ----------------------------------------------------------------

JsonOrError flash_tiles_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "seed", "x", "head", "q",
                                        "k", "v", "mask", "block_rows", "block_cols", "decimals"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  HeadSource source;
  if (auto error = read_head_source(root, {"causal", "none"}, false, source)) return *error;
  const std::size_t T = source.input.tokens.size();
  FlashTileOptions options;
  options.block_rows = std::min<std::size_t>(options.block_rows, T);
  options.block_cols = std::min<std::size_t>(options.block_cols, T);
  if (auto error = read_count(root, "block_rows", 1, T, options.block_rows)) return *error;
  if (auto error = read_count(root, "block_cols", 1, T, options.block_cols)) return *error;
  std::size_t decimals = static_cast<std::size_t>(options.decimals);
  if (auto error = read_count(root, "decimals", 0, FlashTileLimits::max_decimals, decimals))
    return *error;
  options.decimals = static_cast<int>(decimals);
  if (auto error = validate_flash_input(source.input, options)) return *error;

  const FlashTileTrace tiles = compute_flash_tiles(source.input, options);
  std::string out = "{";
  write_key(out, "tokens"); write_strings(out, tiles.tokens);
  write_text(out, "mask", mask_name(tiles.mask));
  write_count(out, "token_count", tiles.token_count);
  write_count(out, "head_dim", tiles.head_dim);
  write_count(out, "block_rows", tiles.block_rows);
  write_count(out, "block_cols", tiles.block_cols);
  write_count(out, "query_tiles", tiles.query_tiles);
  write_count(out, "key_tiles", tiles.key_tiles);
  write_key(out, "scale_divisor"); json::write_number(out, tiles.scale_divisor);
  write_source(out, source);
  write_key(out, "q"); write_matrix(out, tiles.q);
  write_key(out, "k"); write_matrix(out, tiles.k);
  write_key(out, "v"); write_matrix(out, tiles.v);
  write_key(out, "steps");
  write_objects(out, tiles.steps, [&](const FlashTileStep& step) {
    write_count(out, "query_tile", step.query_tile);
    write_count(out, "key_tile", step.key_tile);
    write_count(out, "row_begin", step.row_begin);
    write_count(out, "row_end", step.row_end);
    write_count(out, "col_begin", step.col_begin);
    write_count(out, "col_end", step.col_end);
    write_key(out, "skipped"); write_bool(out, step.skipped);
    write_key(out, "partly_masked"); write_bool(out, step.partly_masked);
    const auto matrix_or_null = [&](std::string_view key, const Matrix& m) {
      write_key(out, key);
      if (step.skipped) out += "null";
      else write_matrix(out, m);
    };
    const auto floats_or_null = [&](std::string_view key, const std::vector<float>& values) {
      write_key(out, key);
      if (step.skipped) out += "null";
      else write_numbers(out, values);
    };
    matrix_or_null("scores", step.scores);
    floats_or_null("tile_max", step.tile_max);
    floats_or_null("max_before", step.max_before);
    floats_or_null("max_after", step.max_after);
    floats_or_null("rescale", step.rescale);
    matrix_or_null("exponentials", step.exponentials);
    floats_or_null("sum_before", step.sum_before);
    floats_or_null("sum_after", step.sum_after);
    matrix_or_null("partial_out", step.partial_out);
  });
  write_count(out, "computed_tiles", tiles.computed_tiles);
  write_count(out, "skipped_tiles", tiles.skipped_tiles);
  write_key(out, "row_max"); write_numbers(out, tiles.row_max);
  write_key(out, "row_sum"); write_numbers(out, tiles.row_sum);
  write_key(out, "out"); write_matrix(out, tiles.out);
  write_key(out, "untiled_out"); write_matrix(out, tiles.untiled_out);
  write_key(out, "max_abs_difference"); json::write_number(out, tiles.max_abs_difference);
  write_count(out, "decimals", static_cast<std::size_t>(tiles.decimals));
  write_key(out, "agrees_to_decimals"); write_bool(out, tiles.agrees_to_decimals);
  out += '}';
  return out;
}

// ---- the quantised cache -------------------------------------------------------------------

JsonOrError quantised_cache_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "seed", "x", "head", "q",
                                        "k", "v", "mask", "scale", "bits", "rotation"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  HeadSource source;
  if (auto error = read_head_source(root, {"causal", "none", "causal_zero"}, true, source))
    return *error;
  QuantisedCacheOptions options;
  options.seed = source.seed;
  if (const Value* bits = root.find("bits")) {
    if (bits->type != Type::array || bits->array.empty())
      return make_input_error("bits", "must be a non-empty array of bit widths (2, 3, 4 or 8), " + got(*bits));
    if (bits->array.size() > QuantisedCacheLimits::max_bit_widths)
      return make_input_error("bits", "has " + std::to_string(bits->array.size()) +
                                          " entries; the limit is " +
                                          std::to_string(QuantisedCacheLimits::max_bit_widths));
    options.bits.clear();
    for (std::size_t n = 0; n < bits->array.size(); ++n) {
      const Value& entry = bits->array[n];
      const bool allowed = entry.type == Type::number &&
                           (entry.number == 2 || entry.number == 3 || entry.number == 4 || entry.number == 8);
      if (!allowed) return make_input_error(index_path("bits", n), "must be 2, 3, 4 or 8, " + got(entry));
      options.bits.push_back(static_cast<int>(entry.number));
    }
  }
  std::string rotation = "random";
  if (auto error = read_choice(root, "rotation", {"random", "none"}, rotation)) return *error;
  options.rotate = rotation == "random";
  if (auto error = validate_quantised_cache(source.input, options)) return *error;

  const QuantisedCacheTrace cache = compute_quantised_cache(source.input, options);
  const std::size_t d = cache.head_dim;
  std::string out = "{";
  write_key(out, "tokens"); write_strings(out, cache.tokens);
  write_count(out, "head_dim", d);
  write_source(out, source);
  write_text(out, "rotation", rotation);
  write_seed(out, cache.seed);
  write_text(out, "scheme", quantiser_scheme);
  write_key(out, "rotation_matrix"); write_matrix(out, cache.rotation);
  write_key(out, "k_rotated"); write_matrix(out, cache.k_rotated);
  write_key(out, "v_rotated"); write_matrix(out, cache.v_rotated);
  write_key(out, "reference"); out += trace_to_json(cache.reference);
  write_count(out, "unquantised_bytes_per_token", cache.unquantised_bytes_per_token);
  write_key(out, "levels");
  write_objects(out, cache.levels, [&](const QuantisedLevel& level) {
    write_count(out, "bits", static_cast<std::size_t>(level.bits));
    write_count(out, "levels_each_side", static_cast<std::size_t>(level.levels_each_side));
    write_quantised_rows(out, "k", level.k, d);
    write_quantised_rows(out, "v", level.v, d);
    write_key(out, "trace"); out += trace_to_json(level.trace);
    write_errors(out, "k_error", level.k_error);
    write_errors(out, "v_error", level.v_error);
    write_errors(out, "weights_error", level.weights_error);
    write_errors(out, "out_error", level.out_error);
    write_count(out, "bytes_per_token", level.bytes_per_token);
  });
  out += '}';
  return out;
}

// ---- the bill ------------------------------------------------------------------------------

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
  write_number_member(out, "cached_values_per_token_per_layer", bill.cached_values_per_token_per_layer);
  write_number_member(out, "cached_vectors_per_token_per_layer", bill.cached_vectors_per_token_per_layer);
  write_number_member(out, "bytes_per_token_per_layer", bill.bytes_per_token_per_layer);
  write_text(out, "formula", bill.formula);
  write_text(out, "working", bill.working);
  write_number_member(out, "bytes_per_token", bill.bytes_per_token);
  write_number_member(out, "bytes_per_sequence", bill.bytes_per_sequence);
  write_number_member(out, "cache_bytes", bill.cache_bytes);
  write_number_member(out, "weight_bytes", bill.weight_bytes);
  write_number_member(out, "gpu_bytes", bill.gpu_bytes);
  write_key(out, "fits"); write_bool(out, bill.fits);
  write_number_member(out, "concurrent_sequences", bill.concurrent_sequences);
  out += '}';
  return out;
}

JsonOrError kv_bill_json(std::string_view request) {
  auto parsed = parse_request(request, {"preset", "layers", "d_model", "n_heads", "n_kv_heads",
                                        "head_dim", "d_latent", "rope_dim", "dtype_bytes", "kv_bits",
                                        "scale_bytes", "weight_dtype_bytes", "parameters",
                                        "context_length", "batch", "gpu_memory_gib"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);

  ModelShape shape = toy_grouped_shape(16, 4, 2, article::four_words().tokens.size());
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
    shape.d_latent = 0;  // read below
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

  struct CountField {
    const char* name;
    std::size_t* value;
    std::size_t lowest, highest;
  };
  const CountField counts[] = {
      {"layers", &shape.layers, 1, KvBillLimits::max_layers},
      {"d_model", &shape.d_model, 1, KvBillLimits::max_d_model},
      {"n_heads", &shape.n_heads, 1, KvBillLimits::max_heads},
      {"n_kv_heads", &shape.n_kv_heads, 1, KvBillLimits::max_heads},
      {"head_dim", &shape.head_dim, 1, KvBillLimits::max_head_dim},
      {"d_latent", &shape.d_latent, 1, KvBillLimits::max_d_latent},
      {"rope_dim", &shape.rope_dim, 0, KvBillLimits::max_rope_dim},
      {"scale_bytes", &shape.scale_bytes, 0, KvBillLimits::max_scale_bytes},
      {"context_length", &shape.context_length, 1, KvBillLimits::max_context_length},
      {"batch", &shape.batch, 1, KvBillLimits::max_batch},
  };
  for (const CountField& field : counts)
    if (auto error = read_count(root, field.name, field.lowest, field.highest, *field.value))
      return *error;
  if (const Value* member = root.find("dtype_bytes")) {
    if (member->type == Type::number && (member->number == 1 || member->number == 2 || member->number == 4))
      shape.dtype_bytes = static_cast<std::size_t>(member->number);
    else
      return make_input_error("dtype_bytes", "must be 1 (8-bit), 2 (float16 or bfloat16) or 4 "
                                             "(float32), " + got(*member));
  }
  if (const Value* member = root.find("kv_bits")) {
    if (member->type == Type::null) {
      shape.kv_bits = 0;
    } else if (member->type == Type::number && (member->number == 2 || member->number == 3 ||
                                                member->number == 4 || member->number == 8)) {
      shape.kv_bits = static_cast<int>(member->number);
    } else {
      return make_input_error("kv_bits", "must be 2, 3, 4 or 8, or null for an unquantised "
                                         "cache, " + got(*member));
    }
  }
  if (const Value* member = root.find("weight_dtype_bytes")) {
    const double w = member->type == Type::number ? member->number : -1.0;
    if (w != 0.5 && w != 1.0 && w != 2.0 && w != 4.0)
      return make_input_error("weight_dtype_bytes", "must be 0.5 (4-bit), 1, 2 or 4, " + got(*member));
    shape.weight_dtype_bytes = w;
  }
  if (const Value* member = root.find("parameters")) {
    double parameters = 0.0;
    if (auto error = read_whole_value(*member, "parameters", 1.0, KvBillLimits::max_parameters, parameters))
      return *error;
    shape.parameters = parameters;
  } else if (shape.preset.empty()) {
    shape.parameters = attention_parameters(shape);
    if (shape.parameters > KvBillLimits::max_parameters)
      return make_input_error("parameters", "is needed: the attention tables of this shape "
                                            "would count more than 1e15");
  }
  if (auto error = read_number_in(root, "gpu_memory_gib", 0.0, true,
                                  KvBillLimits::max_gpu_memory_gib, shape.gpu_memory_gib))
    return *error;

  if (auto error = validate_model_shape(shape)) return *error;
  return kv_bill_to_json(compute_kv_bill(shape));
}

std::string model_presets_to_json() {
  std::string out;
  write_objects(out, model_presets(), [&](const ModelPreset& preset) {
    const bool latent = preset.attention == "MLA";
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
    write_text(out, "parameters_source", preset.parameters_source);
    write_text(out, "citation", preset.citation);
    write_text(out, "note", preset.note);
  });
  return out;
}

}  // namespace attn
