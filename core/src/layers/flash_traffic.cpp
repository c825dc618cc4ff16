// FlashAttention's bill in bytes moved: naive attention against the tiled schedule.
#include "attention/layers/flash_traffic.h"

#include <algorithm>
#include <string>

namespace attn {

namespace {

// 64 bits whatever size_t is (32 in wasm32).
std::string whole(std::uint64_t value) { return std::to_string(value); }

std::uint64_t tiles_of(std::uint64_t count, std::uint64_t block) { return (count + block - 1) / block; }

// The largest B <= T whose square tiles fit: the footprint grows with B, so a binary search.
std::size_t largest_square_tiles(const FlashTrafficOptions& options) {
  std::size_t low = 0, high = options.token_count;  // footprint(low) fits (0 trivially)
  while (low < high) {
    const std::size_t middle = low + (high - low + 1) / 2;
    if (flash_tile_footprint(options.head_dim, options.dtype_bytes, middle, middle) <=
        static_cast<double>(*options.sram_bytes))
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

void add(FlashTrafficSchedule& schedule, std::string what, bool write, std::uint64_t values,
         std::size_t dtype_bytes) {
  const double bytes = static_cast<double>(values) * static_cast<double>(dtype_bytes);
  schedule.moves.push_back({std::move(what), write, static_cast<double>(values), bytes});
  (write ? schedule.written_bytes : schedule.read_bytes) += bytes;
  schedule.total_bytes += bytes;
}

}  // namespace

double flash_tile_footprint(std::size_t head_dim, std::size_t dtype_bytes, std::size_t br,
                            std::size_t bc) {
  const double d = static_cast<double>(head_dim), r = static_cast<double>(br),
               c = static_cast<double>(bc);
  return static_cast<double>(dtype_bytes) * (r * d + 2.0 * c * d) + 4.0 * (r * d + r * c + 2.0 * r);
}

std::optional<InputError> validate_flash_traffic(const FlashTrafficOptions& options) {
  const auto count = [](const char* field, std::size_t value, std::size_t lowest,
                        std::size_t highest) -> std::optional<InputError> {
    if (value < lowest || value > highest)
      return make_input_error(field, "must be a whole number from " + std::to_string(lowest) +
                                         " to " + std::to_string(highest) + ", got " +
                                         std::to_string(value));
    return std::nullopt;
  };
  const std::size_t T = options.token_count;
  if (auto error = count("token_count", T, 1, FlashTrafficLimits::max_token_count)) return error;
  if (auto error = count("head_dim", options.head_dim, 1, FlashTrafficLimits::max_head_dim))
    return error;
  if (options.dtype_bytes != 1 && options.dtype_bytes != 2 && options.dtype_bytes != 4)
    return make_input_error("dtype_bytes", "must be 1 (8-bit), 2 (float16 or bfloat16) or 4 "
                                           "(float32), got " + std::to_string(options.dtype_bytes));
  if (options.sram_bytes) {
    const double smallest = flash_tile_footprint(options.head_dim, options.dtype_bytes, 1, 1);
    if (static_cast<double>(*options.sram_bytes) < smallest)
      return make_input_error("sram_kib", "holds " + whole(*options.sram_bytes) +
                                              " bytes; even a 1 × 1 tile of head_dim " +
                                              std::to_string(options.head_dim) + " needs " +
                                              whole(static_cast<std::uint64_t>(smallest)));
  }
  if (!options.tiles_given) return std::nullopt;
  if (auto error = count("block_rows", options.block_rows, 1, T)) return error;
  if (auto error = count("block_cols", options.block_cols, 1, T)) return error;
  if (options.sram_bytes) {
    const double footprint = flash_tile_footprint(options.head_dim, options.dtype_bytes,
                                                  options.block_rows, options.block_cols);
    if (footprint > static_cast<double>(*options.sram_bytes))
      return make_input_error("block_rows", "tiles of " + std::to_string(options.block_rows) +
                                                " × " + std::to_string(options.block_cols) +
                                                " need " + whole(static_cast<std::uint64_t>(footprint)) +
                                                " bytes on chip; sram_kib gives " +
                                                whole(*options.sram_bytes));
  }
  return std::nullopt;
}

FlashTraffic compute_flash_traffic(const FlashTrafficOptions& given) {
  FlashTraffic traffic;
  FlashTrafficOptions& options = traffic.options;
  options = given;
  traffic.tiles_chosen = "given";
  if (!options.tiles_given) {
    options.block_rows = options.block_cols = largest_square_tiles(options);
    traffic.tiles_chosen = "largest_square_that_fits";
  }
  const std::uint64_t T = options.token_count, d = options.head_dim;
  const std::uint64_t Br = options.block_rows, Bc = options.block_cols;
  const std::size_t bytes = options.dtype_bytes;
  traffic.footprint_bytes = flash_tile_footprint(d, bytes, Br, Bc);
  traffic.footprint_working =
      std::to_string(bytes) + " · (" + whole(Br) + " · " + whole(d) + " + 2 · " + whole(Bc) + " · " +
      whole(d) + ") + 4 · (" + whole(Br) + " · " + whole(d) + " + " + whole(Br) + " · " + whole(Bc) +
      " + 2 · " + whole(Br) + ") = " + whole(static_cast<std::uint64_t>(traffic.footprint_bytes));

  // Which key tiles each query block visits: all of them, or under the causal mask those
  // starting at or before its last query (the keys they hold: up to ⌈end / Bc⌉ · Bc, at most T).
  traffic.query_tiles = static_cast<std::size_t>(tiles_of(T, Br));
  traffic.key_tiles = static_cast<std::size_t>(tiles_of(T, Bc));
  std::uint64_t key_rows = 0, computed = 0;
  for (std::uint64_t begin = 0; begin < T; begin += Br) {
    const std::uint64_t end = std::min(begin + Br, T);
    const std::uint64_t visited = options.mask == MaskKind::causal ? tiles_of(end, Bc) : tiles_of(T, Bc);
    computed += visited;
    key_rows += std::min(visited * Bc, T);
  }
  traffic.computed_tiles = static_cast<std::size_t>(computed);
  traffic.skipped_tiles = traffic.query_tiles * traffic.key_tiles - traffic.computed_tiles;
  traffic.key_rows_loaded = static_cast<double>(key_rows);

  FlashTrafficSchedule& naive = traffic.naive;
  add(naive, "Q", false, T * d, bytes);
  add(naive, "K", false, T * d, bytes);
  add(naive, "S = QKᵀ", true, T * T, bytes);
  add(naive, "S", false, T * T, bytes);
  add(naive, "P = softmax(S)", true, T * T, bytes);
  add(naive, "P", false, T * T, bytes);
  add(naive, "V", false, T * d, bytes);
  add(naive, "O = PV", true, T * d, bytes);
  naive.formula = "(4 · T · d + 4 · T²) · dtype_bytes";
  naive.working = "(4 · " + whole(T) + " · " + whole(d) + " + 4 · " + whole(T) + "²) · " +
                  std::to_string(bytes) + " = " + whole(static_cast<std::uint64_t>(naive.total_bytes));

  FlashTrafficSchedule& tiled = traffic.tiled;
  add(tiled, "Q tiles", false, T * d, bytes);
  add(tiled, "K tiles", false, key_rows * d, bytes);
  add(tiled, "V tiles", false, key_rows * d, bytes);
  add(tiled, "O tiles", true, T * d, bytes);
  tiled.formula = options.mask == MaskKind::causal
                      ? "(2 · T · d + 2 · d · key_rows_loaded) · dtype_bytes, key_rows_loaded = "
                        "Σ over query blocks of the keys up to the block's last query, in whole "
                        "tiles"
                      : "(2 · T · d + 2 · d · ⌈T / Br⌉ · T) · dtype_bytes";
  const std::string loaded = options.mask == MaskKind::causal
                                 ? whole(key_rows)
                                 : whole(tiles_of(T, Br)) + " · " + whole(T);
  tiled.working = "(2 · " + whole(T) + " · " + whole(d) + " + 2 · " + whole(d) + " · " + loaded +
                  ") · " + std::to_string(bytes) + " = " +
                  whole(static_cast<std::uint64_t>(tiled.total_bytes));
  traffic.ratio = naive.total_bytes / tiled.total_bytes;
  return traffic;
}

}  // namespace attn
