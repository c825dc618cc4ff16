// FlashAttention's bill in bytes moved: the traffic between the large slow memory (a GPU's HBM)
// and the small fast one (on-chip SRAM: shared memory and registers) for one head of one
// sequence of T tokens, head_dim d, dtype_bytes per value, by
//
//   naive attention (the FlashAttention paper's Algorithm 0, standard attention), which writes
//   the T × T scores S and weights P out and reads them back:
//     read Q, K (T·d each), write S = QKᵀ (T²); read S (T²), write P = softmax(S) (T²);
//     read P (T²) and V (T·d), write O = PV (T·d):
//     (4 · T · d + 4 · T²) · dtype_bytes. The causal mask changes nothing here: S is computed
//     and written in full and the mask applied as it is read back (as the paper counts it);
//
//   the tiled schedule (FlashAttention-2's loop order, the one flash_tiles.h traces): for each
//   block of Br queries, read its Q tile once, stream every K and V tile of Bc rows past it
//   once, keep the running max, sum and output on chip, and write its O tile once; no T × T
//   matrix is ever written:
//     (2 · T · d + 2 · d · key_rows_loaded) · dtype_bytes,
//   key_rows_loaded = ⌈T / Br⌉ · T without a mask; under the causal mask a key tile wholly
//   after a query block's last query is skipped and not loaded (as flash_tiles.h skips it).
//   The log-sum-exp a training run saves for the backward pass (T more values) is not counted.
//
// A byte moved is a byte read from or written to the slow memory; what moves between on-chip
// memory and registers is free in both counts.
//
// The tiles. A step holds on chip the Q tile and the O accumulator (Br · d each), a K and a V
// tile (Bc · d each), the scores of the tile (Br · Bc) and each row's running max and sum (2 Br):
//   footprint = dtype_bytes · (Br · d + 2 · Bc · d) + 4 · (Br · d + Br · Bc + 2 · Br) bytes
// (Q, K and V in dtype_bytes; the accumulator, scores and statistics in float32, as the kernels
// keep them). Given the on-chip memory of one streaming multiprocessor, the tiles picked are
// the largest square ones that fit, Br = Bc = B with footprint(B, B) <= sram_bytes, B <= T:
// traffic falls as Br grows, and square tiles are the plain choice (the paper's own rule,
// Bc = ⌈M / 4d⌉ and Br = min(Bc, d) for M values of memory, ignores the accumulator's float32;
// real kernels round to multiples of 16 or 64 and tune the rest).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/reference/attention_input.h"

namespace attn {

struct FlashTrafficLimits {
  // Every count below stays under 2^53 bytes (exact as a double): at T = 2^20, d = 256, Br = 1,
  // 4 bytes, the tiled schedule moves 2 · 256 · 2^40 · 4 = 2^51 bytes.
  static constexpr std::size_t max_token_count = 1048576;  // 2^20
  static constexpr std::size_t max_head_dim = 256;
  static constexpr double max_sram_kib = 65536;            // 64 MiB
};

struct FlashTrafficOptions {
  std::size_t token_count = 4;  // T (the toy's four tokens)
  std::size_t head_dim = 4;     // d
  std::size_t dtype_bytes = 4;  // 1, 2 or 4: Q, K, V, S, P and O in slow memory
  MaskKind mask = MaskKind::causal;
  std::size_t block_rows = 2;   // Br (ignored when sram_bytes is set and tiles_given is false)
  std::size_t block_cols = 2;   // Bc
  std::optional<std::uint64_t> sram_bytes;  // on-chip memory per streaming multiprocessor
  bool tiles_given = true;      // false: the largest square tiles that fit sram_bytes
};

// One line of a schedule's bill: "read Q", T·d values.
struct FlashTrafficMove {
  std::string what;   // "Q", "S = QKᵀ", "K tiles", ...
  bool write = false; // read from, or written to, the slow memory
  double values = 0;
  double bytes = 0;
};

struct FlashTrafficSchedule {
  std::vector<FlashTrafficMove> moves;
  double read_bytes = 0;
  double written_bytes = 0;
  double total_bytes = 0;
  std::string formula;  // "(4 · T · d + 4 · T²) · dtype_bytes"
  std::string working;  // "(4 · 8192 · 128 + 4 · 8192²) · 2 = 545259520"
};

struct FlashTraffic {
  FlashTrafficOptions options;  // with the tiles used
  std::string tiles_chosen;     // "given" or "largest_square_that_fits"
  double footprint_bytes = 0;   // the tiles' on-chip bytes (the formula above)
  std::string footprint_working;
  std::size_t query_tiles = 0;  // ⌈T / Br⌉
  std::size_t key_tiles = 0;    // ⌈T / Bc⌉
  std::size_t computed_tiles = 0;
  std::size_t skipped_tiles = 0;
  double key_rows_loaded = 0;   // K (and V) rows read over the whole pass
  FlashTrafficSchedule naive;
  FlashTrafficSchedule tiled;
  double ratio = 0;             // naive.total_bytes / tiled.total_bytes
};

// The on-chip bytes of one step with tiles of br × bc.
double flash_tile_footprint(std::size_t head_dim, std::size_t dtype_bytes, std::size_t br,
                            std::size_t bc);

// Every field within its limits (paths "token_count", "head_dim", "dtype_bytes", "block_rows",
// "block_cols" (1 to T, and fitting sram_bytes when both are given), "sram_kib" (holds a 1 × 1
// tile at least)).
std::optional<InputError> validate_flash_traffic(const FlashTrafficOptions& options);

// Precondition: validate_flash_traffic returned nothing.
FlashTraffic compute_flash_traffic(const FlashTrafficOptions& options);

}  // namespace attn
