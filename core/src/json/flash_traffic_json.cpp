// FlashAttention's bill in bytes moved as JSON: the request's members and both schedules'
// bills (sequel_json.h). The arithmetic is flash_traffic.cpp's.
#include <algorithm>
#include <cmath>
#include <string>

#include "attention/json/sequel_json.h"
#include "json/request_fields.h"
#include "json/sequel_request.h"

namespace attn {

using namespace json_request;
using namespace sequel_request;

namespace {

void write_schedule(std::string& out, std::string_view key, const FlashTrafficSchedule& schedule) {
  write_key(out, key);
  out += '{';
  write_key(out, "moves");
  write_objects(out, schedule.moves, [&](const FlashTrafficMove& move) {
    write_text(out, "what", move.what);
    write_text(out, "direction", move.write ? "write" : "read");
    write_number_member(out, "values", move.values);
    write_number_member(out, "bytes", move.bytes);
  });
  write_number_member(out, "read_bytes", schedule.read_bytes);
  write_number_member(out, "written_bytes", schedule.written_bytes);
  write_number_member(out, "total_bytes", schedule.total_bytes);
  write_text(out, "formula", schedule.formula);
  write_text(out, "working", schedule.working);
  out += '}';
}

}  // namespace

JsonOrError flash_traffic_json(std::string_view request) {
  auto parsed = parse_request(request, {"token_count", "head_dim", "dtype_bytes", "mask",
                                        "block_rows", "block_cols", "sram_kib"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  FlashTrafficOptions options;
  const FlashTrafficOptions defaults;
  double sram_kib = 0.0;
  const Field shape_fields[] = {
      {"token_count", count_in(1, FlashTrafficLimits::max_token_count), &options.token_count},
      {"head_dim", count_in(1, FlashTrafficLimits::max_head_dim), &options.head_dim},
      {"dtype_bytes", kDtypeBytes,
       &options.dtype_bytes},
      {"sram_kib", NumberIn{0.0, true, FlashTrafficLimits::max_sram_kib}, &sram_kib},
  };
  if (auto error = read_fields(root, shape_fields)) return *error;
  const std::size_t T = options.token_count;
  const Field tile_fields[] = {
      // The toy's tiles, or the whole sequence when it is shorter.
      {"block_rows", count_in(1, T), &options.block_rows,
       static_cast<double>(std::min(defaults.block_rows, T))},
      {"block_cols", count_in(1, T), &options.block_cols,
       static_cast<double>(std::min(defaults.block_cols, T))},
  };
  if (auto error = read_fields(root, tile_fields)) return *error;
  MaskVariant mask;
  if (auto error = read_mask(root, mask_names, mask)) return *error;
  options.mask = mask.mask;
  if (root.find("sram_kib")) {
    options.sram_bytes = static_cast<std::uint64_t>(std::floor(sram_kib * 1024.0));
    // Without tiles, the largest that fit; with them, they must fit.
    options.tiles_given = root.find("block_rows") || root.find("block_cols");
  }
  if (auto error = validate_flash_traffic(options)) return *error;

  const FlashTraffic traffic = compute_flash_traffic(options);
  const FlashTrafficOptions& used = traffic.options;
  std::string out = "{";
  write_count(out, "token_count", used.token_count);
  write_count(out, "head_dim", used.head_dim);
  write_count(out, "dtype_bytes", used.dtype_bytes);
  write_text(out, "mask", mask_name(used.mask));
  write_count(out, "block_rows", used.block_rows);
  write_count(out, "block_cols", used.block_cols);
  write_text(out, "tiles_chosen", traffic.tiles_chosen);
  write_key(out, "sram_bytes");
  if (used.sram_bytes) write_shortest(out, static_cast<double>(*used.sram_bytes)); else out += "null";
  write_number_member(out, "footprint_bytes", traffic.footprint_bytes);
  write_text(out, "footprint_formula",
             "dtype_bytes · (Br · d + 2 · Bc · d) + 4 · (Br · d + Br · Bc + 2 · Br)");
  write_text(out, "footprint_working", traffic.footprint_working);
  write_count(out, "query_tiles", traffic.query_tiles);
  write_count(out, "key_tiles", traffic.key_tiles);
  write_count(out, "computed_tiles", traffic.computed_tiles);
  write_count(out, "skipped_tiles", traffic.skipped_tiles);
  write_number_member(out, "key_rows_loaded", traffic.key_rows_loaded);
  write_schedule(out, "naive", traffic.naive);
  write_schedule(out, "tiled", traffic.tiled);
  write_number_member(out, "ratio", traffic.ratio);
  out += '}';
  return out;
}

}  // namespace attn
