// The KV-cache bill's windows, longest context and curve, and FlashAttention's traffic
// (built site, wasm core in Node): every figure against the definition computed here or worked
// out by hand; bad values throw an Error whose message starts with the field at fault.
//
// Run after the wasm build: node --test tests/web/sequel-bill-api.test.mjs
// (ATTN_SITE_DIR may name another assembled site folder.)
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertThrowsNaming } from '../support/assertions.mjs';
import { createSiteAttention } from '../support/site-module.mjs';

let attention;

before(async () => {
  attention = await createSiteAttention();
});

describe('kvBill(): sliding windows, the longest context, the curve', () => {
  const GPU_80_GIB = 80 * 2 ** 30;

  // One sequence's cache from the definition: every global layer holds T tokens, every local
  // one min(T, window).
  const sequenceBytes = (bill, T) =>
    bill.bytes_per_token_per_layer * (bill.global_layers * T + bill.local_layers * Math.min(T, bill.sliding_window ?? T));

  it('the windowed presets, worked out by hand', () => {
    // [preset, context, bytes per sequence]
    const cases = [
      ['gemma-3-27b', 131072, 8192 * (10 * 131072 + 52 * 1024)],  // 11,173,625,856 (10.4 GiB)
      ['gemma-2-9b', 8192, 8192 * (21 * 8192 + 21 * 4096)],       // 2,113,929,216 (1.97 GiB)
      ['mistral-7b-v0.1', 131072, 4096 * 32 * 4096],               // 536,870,912 (512 MiB)
    ];
    for (const [preset, context, bytes] of cases) {
      const bill = attention.kvBill({ preset, context_length: context });
      assert.equal(bill.bytes_per_sequence, bytes, preset);
      assert.equal(sequenceBytes(bill, context), bytes, `${preset} from its layers`);
    }
  });

  it('max_context_tokens is the longest context that fits, checked at T and T + 1', () => {
    for (const preset of attention.modelPresets().map((p) => p.name)) {
      for (const batch of [1, 4]) {
        const bill = attention.kvBill({ preset, batch, gpu_memory_gib: 141 });
        const left = 141 * 2 ** 30 - bill.weight_bytes;
        if (bill.max_context_tokens === null) {
          assert.equal(bill.global_layers, 0, `${preset}: null only when every layer is local`);
          assert.ok(batch * sequenceBytes(bill, bill.sliding_window) <= left);
          continue;
        }
        const T = bill.max_context_tokens;
        assert.ok(Number.isInteger(T), `${preset}: whole`);
        if (T > 0) assert.ok(batch * sequenceBytes(bill, T) <= left, `${preset}, batch ${batch}: fits at ${T}`);
        assert.ok(batch * sequenceBytes(bill, T + 1) > left, `${preset}, batch ${batch}: not at ${T + 1}`);
      }
    }
    // Llama 3 8B on 80 GiB: ⌊(85,899,345,920 − 16,060,522,496) / 4096 / 32⌋ = 532,827.
    assert.equal(attention.kvBill({ preset: 'llama-3-8b' }).max_context_tokens, 532827);
    assert.equal(attention.kvBill({ preset: 'kimi-k2' }).max_context_tokens, 0);
  });

  it('the curve: one sequence against the context, the memory left and the crossing', () => {
    const bill = attention.kvBill({ preset: 'gemma-3-27b' });
    const { context_tokens: contexts, bytes_per_sequence: bytes, memory_left_bytes: left, crossing_tokens: crossing } = bill.curve;
    assert.equal(contexts.length, bytes.length);
    assert.equal(contexts[0], 16);
    assert.equal(contexts.at(-1), 2 ** 20);
    contexts.forEach((T, n) => {
      if (n) assert.ok(T > contexts[n - 1]);
      assert.equal(bytes[n], sequenceBytes(bill, T), `at ${T}`);
    });
    assert.equal(left, GPU_80_GIB - bill.weight_bytes);
    assert.equal(crossing, 383851);
    assert.ok(contexts.includes(crossing) && contexts.includes(1024));
    assert.equal(bill.curve.batch, 1);
    assert.equal(bill.curve.memory_left_per_sequence_bytes, left);
  });

  it('the curve of a batch: each sequence\u2019s share of the memory left, and the bill\u2019s longest context', () => {
    const bill = attention.kvBill({ preset: 'gemma-3-27b', batch: 3, gpu_memory_gib: 141 });
    const share = (141 * 2 ** 30 - bill.weight_bytes) / 3;
    assert.equal(bill.curve.batch, 3);
    assert.ok(Math.abs(bill.curve.memory_left_per_sequence_bytes - share) <= 1e-6 * share);
    const crossing = bill.curve.crossing_tokens;
    assert.equal(crossing, bill.max_context_tokens);
    // Each of the three sequences fits at the crossing and not one token later.
    assert.ok(3 * sequenceBytes(bill, crossing) <= 141 * 2 ** 30 - bill.weight_bytes);
    assert.ok(3 * sequenceBytes(bill, crossing + 1) > 141 * 2 ** 30 - bill.weight_bytes);
    assert.ok(bill.curve.context_tokens.includes(crossing));
  });

  it('refuses bad windows, naming the field', () => {
    assertThrowsNaming(() => attention.kvBill({ sliding_window: 0 }), 'sliding_window');
    assertThrowsNaming(() => attention.kvBill({ local_layers: 2 }), 'local_layers', 'needs a sliding_window');
    assertThrowsNaming(() => attention.kvBill({ preset: 'gemma-3-27b', layers: 12 }), 'local_layers');
    assertThrowsNaming(() => attention.kvBill({ curve_from_tokens: 100, curve_to_tokens: 10 }), 'curve_to_tokens');
  });
});

describe('flashTraffic()', () => {
  it('the toy and an H100 shape, worked out by hand', () => {
    const toy = attention.flashTraffic();
    assert.equal(toy.naive.total_bytes, (4 * 4 * 4 + 4 * 4 * 4) * 4);  // 512
    assert.equal(toy.tiled.total_bytes, (2 * 4 * 4 + 2 * 4 * 6) * 4);  // 320: 2 + 4 key rows (causal)
    assert.deepEqual(toy.naive.moves.map((m) => m.direction), ['read', 'read', 'write', 'read', 'write', 'read', 'read', 'write']);
    const h100 = attention.flashTraffic({ token_count: 8192, head_dim: 128, dtype_bytes: 2, sram_kib: 228, mask: 'none' });
    assert.equal(h100.block_rows, 129);  // 4 · 129² + 1288 · 129 = 232,716 <= 233,472 < 235,040
    assert.equal(h100.naive.total_bytes, (4 * 8192 * 128 + 4 * 8192 ** 2) * 2);
    assert.equal(h100.tiled.total_bytes, (2 * 8192 * 128 + 2 * 128 * 64 * 8192) * 2);
    assert.equal(h100.ratio, 2);
  });

  it('refuses bad values, naming the field', () => {
    assertThrowsNaming(() => attention.flashTraffic({ token_count: 0 }), 'token_count');
    assertThrowsNaming(() => attention.flashTraffic({ sram_kib: -1 }), 'sram_kib');
    assertThrowsNaming(() => attention.flashTraffic({ block_rows: 9 }), 'block_rows');
    assertThrowsNaming(() => attention.flashTraffic({ mask: 'causal_zero' }), 'mask');
  });
});
