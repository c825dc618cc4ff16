// FlashAttention's bill in bytes moved: the naive and tiled schedules against figures worked
// out by hand (the arithmetic next to each), the tiles FlashAttention's trace visits, the
// largest tiles that fit an on-chip memory, and bad requests refused by name.
#include <catch2/catch.hpp>

#include <string>

#include "attention/json/sequel_json.h"
#include "attention/layers/flash_tiles.h"
#include "attention/layers/flash_traffic.h"
#include "attention/reference/seeded_random.h"
#include "explore_test_helpers.h"
#include "sequel_test_helpers.h"

namespace {

using attn::json::Value;

attn::FlashTraffic traffic_of(const attn::FlashTrafficOptions& options) {
  REQUIRE_FALSE(attn::validate_flash_traffic(options).has_value());
  return attn::compute_flash_traffic(options);
}

}  // namespace

TEST_CASE("flash traffic: the toy, by hand", "[flash_traffic]") {
  // T = 4, d = 4, float32, tiles of 2 × 2, causal.
  const attn::FlashTraffic toy = traffic_of({});
  // Naive: (4 · 4 · 4 + 4 · 4²) · 4 = (64 + 64) · 4 = 512 bytes; reads Q, K, S, P, V =
  // (16 + 16 + 16 + 16 + 16) · 4 = 320, writes S, P, O = 48 · 4 = 192.
  CHECK(toy.naive.total_bytes == 512.0);
  CHECK(toy.naive.read_bytes == 320.0);
  CHECK(toy.naive.written_bytes == 192.0);
  CHECK(toy.naive.moves.size() == 8);
  CHECK(toy.naive.working == "(4 · 4 · 4 + 4 · 4²) · 4 = 512");
  // Tiled: the first query block (rows 0, 1) loads key tile 0 only (keys 0, 1); the second
  // (rows 2, 3) both: 2 + 4 = 6 key rows, 3 tiles computed, 1 skipped.
  // (2 · 4 · 4 + 2 · 4 · 6) · 4 = (32 + 48) · 4 = 320 bytes.
  CHECK(toy.key_rows_loaded == 6.0);
  CHECK(toy.computed_tiles == 3);
  CHECK(toy.skipped_tiles == 1);
  CHECK(toy.tiled.total_bytes == 320.0);
  CHECK(toy.tiled.written_bytes == 64.0);  // O: 16 values
  CHECK(toy.ratio == 512.0 / 320.0);
  // The footprint: 4 · (2 · 4 + 2 · 2 · 4) + 4 · (2 · 4 + 2 · 2 + 2 · 2) = 96 + 64 = 160.
  CHECK(toy.footprint_bytes == 160.0);
  // Without the mask every block loads all 4 keys: 8 rows; (32 + 2 · 4 · 8) · 4 = 384.
  attn::FlashTrafficOptions none;
  none.mask = attn::MaskKind::none;
  CHECK(traffic_of(none).tiled.total_bytes == 384.0);
  CHECK(traffic_of(none).naive.total_bytes == 512.0);  // the naive schedule ignores the mask
}

TEST_CASE("flash traffic: an H100's 228 KiB at T = 8192, d = 128, float16, by hand", "[flash_traffic]") {
  attn::FlashTrafficOptions options;
  options.token_count = 8192;
  options.head_dim = 128;
  options.dtype_bytes = 2;
  options.mask = attn::MaskKind::none;
  options.sram_bytes = 228 * 1024;  // 233,472 bytes
  options.tiles_given = false;
  const attn::FlashTraffic h100 = traffic_of(options);
  // footprint(B) = 2 · (128 B + 256 B) + 4 · (128 B + B² + 2 B) = 4 B² + 1288 B:
  // B = 129: 66,564 + 166,152 = 232,716 <= 233,472; B = 130: 67,600 + 167,440 = 235,040 > it.
  CHECK(h100.options.block_rows == 129);
  CHECK(h100.options.block_cols == 129);
  CHECK(h100.tiles_chosen == "largest_square_that_fits");
  CHECK(h100.footprint_bytes == 232716.0);
  CHECK(attn::flash_tile_footprint(128, 2, 130, 130) == 235040.0);
  // ⌈8192 / 129⌉ = 64 query blocks (129 · 63 = 8127 < 8192).
  CHECK(h100.query_tiles == 64);
  // Naive: (4 · 8192 · 128 + 4 · 8192²) · 2 = (4,194,304 + 268,435,456) · 2 = 545,259,520.
  CHECK(h100.naive.total_bytes == 545259520.0);
  // Tiled: (2 · 8192 · 128 + 2 · 128 · 64 · 8192) · 2 = (2,097,152 + 134,217,728) · 2
  // = 272,629,760: half the naive traffic.
  CHECK(h100.tiled.total_bytes == 272629760.0);
  CHECK(h100.ratio == 2.0);
  // Causal: block i (0 to 62) loads keys up to 129 (i + 1), the last all 8192:
  // 129 · (1 + ... + 63) + 8192 = 260,064 + 8192 = 268,256 rows; 1 + ... + 64 = 2080 tiles of
  // 4096 computed. (2,097,152 + 2 · 128 · 268,256) · 2 = (2,097,152 + 68,673,536) · 2.
  options.mask = attn::MaskKind::causal;
  const attn::FlashTraffic causal = traffic_of(options);
  CHECK(causal.key_rows_loaded == 268256.0);
  CHECK(causal.computed_tiles == 2080);
  CHECK(causal.skipped_tiles == 2016);
  CHECK(causal.tiled.total_bytes == 141541376.0);
}

TEST_CASE("flash traffic: the tiles are the ones the tiled trace visits", "[flash_traffic]") {
  attn::SeededRandom random(7);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t T = 1 + static_cast<std::size_t>(random.next_uniform() * 12);
    const std::size_t d = 1 + static_cast<std::size_t>(random.next_uniform() * 4);
    const std::size_t br = 1 + static_cast<std::size_t>(random.next_uniform() * T);
    const std::size_t bc = 1 + static_cast<std::size_t>(random.next_uniform() * T);
    for (attn::MaskKind mask : {attn::MaskKind::causal, attn::MaskKind::none}) {
      INFO("T " << T << ", d " << d << ", tiles " << br << " × " << bc);
      attn::AttentionInput input;
      input.tokens = sequel_test::words(T);
      input.q = attn::random_normal_matrix(attn::derive_seed(trial, 1), T, d);
      input.k = attn::random_normal_matrix(attn::derive_seed(trial, 2), T, d);
      input.v = attn::random_normal_matrix(attn::derive_seed(trial, 3), T, d);
      input.mask = mask;
      const attn::FlashTileTrace trace = attn::compute_flash_tiles(input, {br, bc, 4});
      attn::FlashTrafficOptions options;
      options.token_count = T;
      options.head_dim = d;
      options.block_rows = br;
      options.block_cols = bc;
      options.mask = mask;
      const attn::FlashTraffic traffic = traffic_of(options);
      CHECK(traffic.computed_tiles == trace.computed_tiles);
      CHECK(traffic.skipped_tiles == trace.skipped_tiles);
      double rows = 0;
      for (const attn::FlashTileStep& step : trace.steps)
        if (!step.skipped) rows += static_cast<double>(step.col_end - step.col_begin);
      CHECK(traffic.key_rows_loaded == rows);
      // (2 T d + 2 d rows) values of 4 bytes; naive (4 T d + 4 T²) · 4.
      CHECK(traffic.tiled.total_bytes == 4.0 * (2.0 * T * d + 2.0 * d * rows));
      CHECK(traffic.naive.total_bytes == 4.0 * (4.0 * T * d + 4.0 * T * T));
    }
  }
}

TEST_CASE("flash_traffic_json: defaults, the chosen tiles, errors", "[sequel_json]") {
  const Value toy = attn_test::answer_of(attn::flash_traffic_json("{}"));
  CHECK(toy.find("mask")->string == "causal");
  CHECK(toy.find("tiles_chosen")->string == "given");
  CHECK(toy.find("sram_bytes")->type == Value::Type::null);
  CHECK(toy.find("naive")->find("total_bytes")->number == 512);
  CHECK(toy.find("tiled")->find("total_bytes")->number == 320);
  CHECK(toy.find("naive")->find("moves")->array.size() == 8);
  CHECK(toy.find("tiled")->find("moves")->array[3].find("direction")->string == "write");
  const Value h100 = attn_test::answer_of(attn::flash_traffic_json(
      R"({"token_count":8192,"head_dim":128,"dtype_bytes":2,"sram_kib":228,"mask":"none"})"));
  CHECK(h100.find("block_rows")->number == 129);
  CHECK(h100.find("sram_bytes")->number == 233472);
  CHECK(h100.find("tiled")->find("total_bytes")->number == 272629760.0);
  CHECK(h100.find("ratio")->number == 2);
  // Tiles given with a memory must fit it: 64 × 64 at d = 128 in float16 needs
  // 2 · (8192 + 16,384) + 4 · (8192 + 4096 + 128) = 49,152 + 49,664 = 98,816 bytes.
  const Value given = attn_test::answer_of(attn::flash_traffic_json(
      R"({"token_count":8192,"head_dim":128,"dtype_bytes":2,"sram_kib":228,"block_rows":64,"block_cols":64})"));
  CHECK(given.find("tiles_chosen")->string == "given");
  CHECK(given.find("footprint_bytes")->number == 98816);
  // One token: tiles of 1 (the default 2 is cut to T).
  CHECK(attn_test::answer_of(attn::flash_traffic_json(R"({"token_count":1})")).find("block_rows")->number == 1);

  attn_test::check_refused(attn::flash_traffic_json(R"({"token_count":0})"), "token_count");
  attn_test::check_refused(attn::flash_traffic_json(R"({"token_count":1048577})"), "token_count");
  attn_test::check_refused(attn::flash_traffic_json(R"({"head_dim":300})"), "head_dim");
  attn_test::check_refused(attn::flash_traffic_json(R"({"dtype_bytes":3})"), "dtype_bytes", "got 3");
  attn_test::check_refused(attn::flash_traffic_json(R"({"block_rows":5})"), "block_rows", "from 1 to 4");
  attn_test::check_refused(attn::flash_traffic_json(R"({"block_cols":0})"), "block_cols");
  attn_test::check_refused(attn::flash_traffic_json(R"({"mask":"causal_zero"})"), "mask", "\"causal\" or \"none\"");
  attn_test::check_refused(attn::flash_traffic_json(R"({"sram_kib":0})"), "sram_kib");
  attn_test::check_refused(attn::flash_traffic_json(R"({"sram_kib":"228"})"), "sram_kib");
  // 0.1 KiB = 102 bytes; a 1 × 1 tile of d = 128 in float16 needs 2 · 384 + 4 · 131 = 1292.
  attn_test::check_refused(attn::flash_traffic_json(R"({"head_dim":128,"dtype_bytes":2,"sram_kib":0.1})"),
                           "sram_kib", "needs 1292");
  attn_test::check_refused(attn::flash_traffic_json(
                               R"({"token_count":8192,"head_dim":128,"sram_kib":228,"block_rows":1024})"),
                           "block_rows", "on chip");
  attn_test::check_refused(attn::flash_traffic_json(R"({"tokens":["a"]})"), "tokens", "not a known field");
}
