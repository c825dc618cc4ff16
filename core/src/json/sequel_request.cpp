// The members the sequel's requests share and the small writers of their answers.
#include "json/sequel_request.h"

#include "attention/article/article_data.h"
#include "attention/json/json_io.h"
#include "attention/layers/multi_head.h"
#include "json/request_fields.h"
#include "layers/layer_tables.h"

namespace attn::sequel_request {

using Type = Value::Type;
using namespace json_request;

LayerBasics default_basics() {
  LayerBasics basics;
  basics.tokens = article::four_words().tokens;
  return basics;
}

std::optional<InputError> read_layer_basics(const Value& root, double max_abs, LayerBasics& out,
                                            std::span<const std::string_view> mask_choices,
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

std::optional<InputError> read_head_source(const Value& root,
                                           std::span<const std::string_view> mask_choices,
                                           bool read_scale_member, HeadSource& out) {
  const Value* q = root.find("q");
  const Value* k = root.find("k");
  const Value* v = root.find("v");
  LayerBasics basics = default_basics();
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
    const Field head_field[] = {{"head", count_in(0, basics.n_heads - 1), &head}};
    if (auto error = read_fields(root, head_field)) return error;
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

void write_count(std::string& out, std::string_view key, std::size_t value) {
  write_key(out, key);
  out += std::to_string(value);
}

void write_number_member(std::string& out, std::string_view key, double value) {
  write_key(out, key);
  write_shortest(out, value);
}

void write_seed(std::string& out, std::uint64_t seed) {
  write_number_member(out, "seed", static_cast<double>(seed));
}

void write_mask_and_scale(std::string& out, const Trace& trace) {
  write_text(out, "mask", mask_variant_name(trace.mask, trace.mask_fill));
  write_text(out, "scale", scale_name(trace.scale));
}

void write_count_or_null(std::string& out, std::string_view key, bool present, std::size_t value) {
  write_key(out, key);
  out += present ? std::to_string(value) : "null";
}

}  // namespace attn::sequel_request
