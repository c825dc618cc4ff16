// What the sequel's request readers and answer writers share (sequel_json.h): the layer members
// (tokens, d_model, x, n_heads, seed, mask, scale), the one head that the tiles and the
// quantised cache work on, and the small writers of an answer's members. Internal to the core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attention/json/json.h"
#include "attention/json/sequel_json.h"
#include "attention/layers/kv_bill.h"
#include "attention/reference/attention_input.h"
#include "attention/reference/matrix.h"
#include "attention/reference/trace.h"
#include "attention/reference/vocabulary.h"
#include "json/json_request.h"

namespace attn::sequel_request {

using json::Value;

// ---- the members every layer request shares ------------------------------------------------

struct LayerBasics {
  std::vector<std::string> tokens;  // the article's four words unless given
  std::size_t d_model = LayerDefaults::d_model;
  std::size_t n_heads = LayerDefaults::n_heads;
  std::uint64_t seed = LayerDefaults::seed;
  std::optional<Matrix> x;  // [T][d_model] when given
  MaskVariant mask;
  ScaleKind scale = ScaleKind::sqrt_head_dim;
};

LayerBasics default_basics();

// tokens, d_model (or x's width), x (values within ±max_abs), n_heads, seed; the mask among
// `mask_choices`; the scale when `read_scale_member`.
std::optional<InputError> read_layer_basics(const Value& root, double max_abs, LayerBasics& out,
                                            std::span<const std::string_view> mask_choices,
                                            bool read_scale_member);

// x (when given), mask and scale into a layer's input.
template <typename LayerInput>
void apply_basics(const LayerBasics& basics, LayerInput& input) {
  if (basics.x) input.x = *basics.x;
  input.mask = basics.mask.mask;
  input.mask_fill = basics.mask.fill;
  input.scale = basics.scale;
}

// ---- the head for the tiles and the quantised cache ----------------------------------------

struct HeadSource {
  AttentionInput input;
  bool given = false;
  std::size_t d_model = 0, n_heads = 0, head = 0;
  std::uint64_t seed = 1;
};

// q, k and v given together, or head "head" of the seeded layer the layer members make.
std::optional<InputError> read_head_source(const Value& root,
                                           std::span<const std::string_view> mask_choices,
                                           bool read_scale_member, HeadSource& out);

// "source": {"kind": "given"} or {"kind": "seeded_head", "d_model", "n_heads", "head", "seed"}.
void write_source(std::string& out, const HeadSource& source);

// ---- writing pieces ------------------------------------------------------------------------

void write_count(std::string& out, std::string_view key, std::size_t value);
// Exact for whole numbers below 2^53 (json_request::write_shortest).
void write_number_member(std::string& out, std::string_view key, double value);
void write_seed(std::string& out, std::uint64_t seed);
void write_mask_and_scale(std::string& out, const Trace& trace);
// A count, or null when it is not `present`.
void write_count_or_null(std::string& out, std::string_view key, bool present, std::size_t value);

// The rest of a layer: concat, w_o, out and the bill of its toy shape; closes the object.
template <typename Layer>
void write_output_and_bill(std::string& out, const Layer& layer, const ModelShape& toy_shape) {
  using json_request::write_key;
  using json_request::write_matrix;
  write_key(out, "concat"); write_matrix(out, layer.concat);
  write_key(out, "w_o"); write_matrix(out, layer.w_o);
  write_key(out, "out"); write_matrix(out, layer.out);
  write_key(out, "bill"); out += kv_bill_to_json(compute_kv_bill(toy_shape));
  out += '}';
}

}  // namespace attn::sequel_request
