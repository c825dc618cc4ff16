// The quantised KV cache as JSON: the request's members and every bit width's cache, read-back
// attention and error (sequel_json.h). The arithmetic is quantised_cache.cpp's.
#include <string>

#include "attention/json/json_io.h"
#include "attention/json/sequel_json.h"
#include "json/sequel_request.h"

namespace attn {

using namespace json_request;
using namespace sequel_request;
using Type = Value::Type;

namespace {

constexpr const char* quantiser_scheme =
    "each cached key and value row is rotated (x · R), then quantised with one scale per row: "
    "L = 2^(bits-1) - 1 levels each side, scale = max |y| / L, code = round(y / scale) in "
    "[-L, L]; it is read back as code · scale, rotated back (· Rᵀ). Stored: the packed codes "
    "and the scale as a float32";

void write_errors(std::string& out, std::string_view key, const ErrorFigures& figures) {
  write_key(out, key);
  out += '{';
  write_key(out, "max_abs"); json::write_number(out, figures.max_abs);
  write_key(out, "relative"); json::write_number(out, figures.relative);
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

}  // namespace

JsonOrError quantised_cache_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "seed", "x", "head", "q",
                                        "k", "v", "mask", "scale", "bits", "rotation"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  HeadSource source;
  if (auto error = read_head_source(root, mask_variant_names, true, source))
    return *error;
  QuantisedCacheOptions options;
  options.seed = source.seed;
  if (const Value* bits = root.find("bits")) {
    if (auto error = check_list(*bits, "bits", "bit widths (2, 3, 4 or 8)",
                                QuantisedCacheLimits::max_bit_widths))
      return *error;
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

}  // namespace attn
