// FlashAttention's tiles as JSON: the request's members and every tile's step (sequel_json.h).
// The arithmetic is flash_tiles.cpp's.
#include <algorithm>
#include <string>

#include "attention/json/sequel_json.h"
#include "json/request_fields.h"
#include "json/sequel_request.h"

namespace attn {

using namespace json_request;
using namespace sequel_request;

JsonOrError flash_tiles_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "seed", "x", "head", "q",
                                        "k", "v", "mask", "block_rows", "block_cols", "decimals"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  HeadSource source;
  if (auto error = read_head_source(root, mask_names, false, source)) return *error;
  const std::size_t T = source.input.tokens.size();
  FlashTileOptions options;
  const FlashTileOptions defaults;
  const Field fields[] = {
      // The default tiles, or the whole sequence when it is shorter.
      {"block_rows", count_in(1, T), &options.block_rows,
       static_cast<double>(std::min(defaults.block_rows, T))},
      {"block_cols", count_in(1, T), &options.block_cols,
       static_cast<double>(std::min(defaults.block_cols, T))},
      {"decimals", count_in(0, FlashTileLimits::max_decimals), &options.decimals},
  };
  if (auto error = read_fields(root, fields)) return *error;
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

}  // namespace attn
