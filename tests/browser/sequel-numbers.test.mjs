// The sequel page's numbers against a float64 reference written in the test: the inputs are read
// from the page itself (the token vectors X from its editable table, the seeded weights from the
// printed projection tables, exact on their two-decimal grid), and every table computed from
// them (K/V caches, queries, weights and outputs of every head of MHA, GQA and MQA, MLA's latent
// and rebuilt keys and values, FlashAttention's running max, rescale factor, running sum and
// partial outputs tile by tile, the quantiser's codes) must print as the reference does. The
// tiled output must print exactly as the untiled one, skipped tiles must be the ones the causal
// mask hides wholly, and the bills must be the hand-computed figures of the presets.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertTable, attentionHead, billReference, figure, flashReference, matmul, numbers, parsePrinted, parseSignificant, quantiseRows, readTable, readWeights, readX, settle, TEST_TIMEOUT, unfold, useSequelPage,
} from './sequel-harness.mjs';

let page;
let x;
const sequel = useSequelPage({
  ready: async (opened) => {
    page = opened;
    x = await readX(page);
    await unfold(page, ['variant-mha', 'variant-gqa', 'variant-mqa', 'variant-mla']);
  },
});

// The layer of one <attention-variant> recomputed in float64 from the page's X and its printed
// weight tables; `kvOf(h)` is the K/V head query head h should read.
async function checkGroupedLayer(hostId, nKvHeads, kvOf) {
  const heads = 4;
  const wq = [];
  const wk = [];
  const wv = [];
  for (let h = 0; h < heads; h += 1) wq.push(await readWeights(page, hostId, `w-q-${h}`));
  for (let g = 0; g < nKvHeads; g += 1) {
    wk.push(await readWeights(page, hostId, `w-k-${g}`));
    wv.push(await readWeights(page, hostId, `w-v-${g}`));
  }
  assert.equal(await readTable(page, hostId, `w-k-${nKvHeads}`), null, `${hostId}: exactly ${nKvHeads} K/V heads`);
  const k = wk.map((w) => matmul(x, w));
  const v = wv.map((w) => matmul(x, w));
  for (let g = 0; g < nKvHeads; g += 1) {
    assertTable(await readTable(page, hostId, `cache-k-${g}`), k[g], 3, `${hostId} cached K of K/V head ${g}`);
    assertTable(await readTable(page, hostId, `cache-v-${g}`), v[g], 3, `${hostId} cached V of K/V head ${g}`);
  }
  const sharing = await readTable(page, hostId, 'sharing');
  const outs = [];
  for (let h = 0; h < heads; h += 1) {
    assert.equal(parsePrinted(sharing.rows[h].cells[0]), kvOf(h), `${hostId}: query head ${h} reads K/V head ${kvOf(h)}`);
    const q = matmul(x, wq[h]);
    const head = attentionHead(q, k[kvOf(h)], v[kvOf(h)]);
    assertTable(await readTable(page, hostId, `q-${h}`), q, 3, `${hostId} Q of head ${h}`);
    assertTable(await readTable(page, hostId, `weights-${h}`), head.weights, 4, `${hostId} weights of head ${h}`);
    assertTable(await readTable(page, hostId, `out-${h}`), head.out, 4, `${hostId} output of head ${h}`);
    outs.push(head.out);
  }
  const concat = x.map((_, i) => outs.flatMap((out) => out[i]));
  const wo = await readWeights(page, hostId, 'w-o');
  assertTable(await readTable(page, hostId, 'layer-out'), matmul(concat, wo), 4, `${hostId} the layer's output`);
  // The bill of the toy layer: 2 · n_kv_heads · head_dim float32 values per token.
  const bill = await readTable(page, hostId, 'bill');
  assert.equal(figure(bill, 'cached_values_per_token_per_layer'), 2 * nKvHeads * 4);
  assert.equal(figure(bill, 'bytes_per_token_per_layer'), 2 * nKvHeads * 4 * 4);
  assert.equal(figure(bill, 'bytes_per_sequence'), 2 * nKvHeads * 4 * 4 * x.length);
}

describe('the sequel page against a float64 reference', () => {
  it('starts from the four tokens with d_model 16', { timeout: TEST_TIMEOUT }, async () => {
    const table = await readTable(page, 'layer-inputs', 'x');
    assert.deepEqual(table.rows.map((row) => row.label), ['the', 'cat', 'sat', 'on']);
    assert.equal(table.columns.length, 16);
    assert.deepEqual(sequel.opened.record.pageErrors, []);
    assert.deepEqual(sequel.opened.record.errors, []);
  });

  it('GQA: query heads 0, 1 share K/V head 0 and 2, 3 share K/V head 1; every table as the reference', { timeout: TEST_TIMEOUT }, async () => {
    await checkGroupedLayer('variant-gqa', 2, (h) => Math.floor(h / 2));
  });

  it('MHA: every query head has its own K/V head', { timeout: TEST_TIMEOUT }, async () => {
    await checkGroupedLayer('variant-mha', 4, (h) => h);
  });

  it('MQA: one K/V head for all, and only it is cached', { timeout: TEST_TIMEOUT }, async () => {
    await checkGroupedLayer('variant-mqa', 1, () => 0);
  });

  it('MLA: the latent is X · W_DKV, and each head rebuilds K and V from it', { timeout: TEST_TIMEOUT }, async () => {
    const host = 'variant-mla';
    const wdkv = await readWeights(page, host, 'w-dkv');
    const latent = matmul(x, wdkv);
    assertTable(await readTable(page, host, 'latent'), latent, 3, 'the cached latent');
    for (let h = 0; h < 4; h += 1) {
      const q = matmul(x, await readWeights(page, host, `w-q-${h}`));
      const k = matmul(latent, await readWeights(page, host, `w-uk-${h}`));
      const v = matmul(latent, await readWeights(page, host, `w-uv-${h}`));
      assertTable(await readTable(page, host, `k-${h}`), k, 3, `K of MLA head ${h}`);
      assertTable(await readTable(page, host, `v-${h}`), v, 3, `V of MLA head ${h}`);
      const head = attentionHead(q, k, v);
      assertTable(await readTable(page, host, `weights-${h}`), head.weights, 4, `weights of MLA head ${h}`);
      assertTable(await readTable(page, host, `out-${h}`), head.out, 4, `output of MLA head ${h}`);
    }
    // The cache is the latent alone, and the page says positional encoding is left out.
    const bill = await readTable(page, host, 'bill');
    assert.equal(figure(bill, 'cached_values_per_token_per_layer'), wdkv[0].length);
    const note = await page.evaluate(() => document.getElementById('variant-mla').shadowRoot.querySelector('.positional').textContent);
    assert.match(note, /^Positional encoding is left out/);
  });

  async function flashHead() {
    const read = (name) => readWeights(page, 'variant-mha', name);
    return { q: matmul(x, await read('w-q-0')), k: matmul(x, await read('w-k-0')), v: matmul(x, await read('w-v-0')) };
  }

  async function checkTiles(blockRows, blockCols, mask) {
    const { q, k, v } = await flashHead();
    const reference = flashReference(q, k, v, blockRows, blockCols, mask);
    const cards = await page.evaluate(() => [...document.getElementById('flash-tiles').shadowRoot.querySelectorAll('.step-card')]
      .map((card) => ({ skipped: card.dataset.skipped === 'true', text: card.textContent })));
    assert.equal(cards.length, reference.steps.length, `${blockRows}×${blockCols}: one card per tile`);
    for (const [index, step] of reference.steps.entries()) {
      assert.equal(cards[index].skipped, step.skipped, `tile ${index + 1} skipped: ${step.skipped}`);
      if (step.skipped) {
        assert.match(cards[index].text, /Skipped\./);
        assert.equal(await readTable(page, 'flash-tiles', `tile-${index}-running`), null, 'a skipped tile has no tables');
        continue;
      }
      assertTable(await readTable(page, 'flash-tiles', `tile-${index}-running`), step.running, 4, `tile ${index + 1}: m, rescale, l`);
      assertTable(await readTable(page, 'flash-tiles', `tile-${index}-out`), step.out, 4, `tile ${index + 1}: partial output`);
    }
    // The tile map marks exactly the cells of skipped tiles.
    const map = await readTable(page, 'flash-tiles', 'tile-map');
    for (const step of reference.steps) {
      for (let i = step.rows[0]; i < step.rows[1]; i += 1) {
        for (let j = step.cols[0]; j < step.cols[1]; j += 1) {
          assert.equal(map.rows[i].skipped[j], step.skipped, `tile map cell ${i}, ${j}`);
          if (step.skipped) assert.equal(map.rows[i].cells[j], 'skipped');
        }
      }
    }
    // Tiled and untiled print the same, digit for digit, and both are the reference.
    const tiled = await readTable(page, 'flash-tiles', 'flash-out');
    const untiled = await readTable(page, 'flash-tiles', 'flash-untiled');
    assert.deepEqual(tiled.rows.map((row) => row.cells), untiled.rows.map((row) => row.cells), 'tiled output prints as the untiled one');
    assertTable(tiled, attentionHead(q, k, v, mask).out, 4, 'the tiled output');
    const verdict = await page.evaluate(() => document.getElementById('flash-tiles').shadowRoot.querySelector('.verdict').dataset.agrees);
    assert.equal(verdict, 'true');
    return reference;
  }

  async function setControl(host, control, value) {
    const input = page.locator(`#${host}`).locator(`[data-control="${control}"]`);
    if ((await input.evaluate((node) => node.tagName)) === 'SELECT') await input.selectOption(value);
    else {
      await input.fill(value);
      await input.press('Enter');
    }
    await settle(page);
  }

  it('FlashAttention, 2 × 2 tiles under the causal mask: the tile above the diagonal is skipped', { timeout: TEST_TIMEOUT }, async () => {
    const reference = await checkTiles(2, 2, 'causal');
    assert.deepEqual(reference.steps.map((step) => step.skipped), [false, true, false, false]);
  });

  it('FlashAttention, tile sizes chosen by the reader, including ones that do not divide the tokens', { timeout: TEST_TIMEOUT }, async () => {
    for (const [rows, cols, mask] of [[3, 3, 'causal'], [1, 1, 'causal'], [3, 1, 'causal'], [4, 3, 'none']]) {
      await setControl('flash-tiles', 'block-rows', String(rows));
      await setControl('flash-tiles', 'block-cols', String(cols));
      await setControl('flash-tiles', 'mask', mask);
      const reference = await checkTiles(rows, cols, mask);
      const skipped = reference.steps.filter((step) => step.skipped).length;
      if (rows === 1 && cols === 1) assert.equal(skipped, 6, 'one-by-one tiles: every cell above the diagonal is skipped');
      if (mask === 'none') assert.equal(skipped, 0, 'no mask, nothing skipped');
    }
  });

  it('the quantised cache: the codes are the reference quantiser\u2019s, and fewer bits cost more error', { timeout: TEST_TIMEOUT }, async () => {
    const result = await page.evaluate(() => document.getElementById('quantised-cache').result.cache.rotation_matrix);
    const { k, v } = await flashHead();
    const level = await page.evaluate(() => document.getElementById('quantised-cache').result.level);
    for (const [letter, rows] of [['k', k], ['v', v]]) {
      const expected = quantiseRows(rows, result, level);
      const printed = numbers(await readTable(page, 'quantised-cache', `quant-${letter}-codes`));
      printed.forEach((row, i) => {
        assert.deepEqual(row.slice(0, -1), expected[i].codes, `${letter} codes of row ${i} at ${level} bits`);
        assert.ok(Math.abs(row.at(-1) - expected[i].scale) <= 0.5e-4 + 1e-6, `${letter} scale of row ${i}`);
      });
    }
    const levels = await readTable(page, 'quantised-cache', 'quant-levels');
    assert.deepEqual(levels.rows.map((row) => row.label), ['8 bits', '4 bits', '3 bits', '2 bits']);
    const bytes = levels.rows.map((row) => parsePrinted(row.cells[1]));
    assert.deepEqual(bytes, [8, 4, 3, 2].map((bits) => 2 * (Math.ceil((4 * bits) / 8) + 4)), 'bytes per token of one head\u2019s K and V');
    const outRelative = (row) => parseSignificant(row.cells[levels.columns.indexOf('output error, relative')]);
    assert.ok(outRelative(levels.rows[0]) < outRelative(levels.rows[3]), 'the output errs less at 8 bits than at 2');
    // The rotation verdict counts what the table shows.
    const rotation = await readTable(page, 'quantised-cache', 'quant-rotation');
    const helped = rotation.rows.filter((row) => parseSignificant(row.cells[0]) < parseSignificant(row.cells[1])).length;
    const verdict = await page.evaluate(() => document.getElementById('quantised-cache').shadowRoot.querySelector('.rotation-verdict').dataset);
    assert.equal(Number(verdict.helped), helped);
    assert.equal(Number(verdict.levels), 4);
  });

  it('the bill: the toy and Llama 3 8B side by side, as computed by hand', { timeout: TEST_TIMEOUT }, async () => {
    const compare = await readTable(page, 'kv-bill', 'bill-compare');
    assert.deepEqual(compare.columnKeys, ['toy', 'model']);
    assert.equal(compare.columns[1], 'Llama 3 8B');
    const toy = billReference({ layers: 1, nKvHeads: 2, headDim: 4, dtypeBytes: 4, parameters: 768, weightBytes: 4, context: 4 });
    const llama = billReference({ layers: 32, nKvHeads: 8, headDim: 128, dtypeBytes: 2, parameters: 8030261248, weightBytes: 2, context: 8192 });
    assert.equal(llama.perTokenPerLayer, 4096);
    assert.equal(llama.concurrent, 65);
    for (const [col, bill] of [[0, toy], [1, llama]]) {
      assert.equal(figure(compare, 'bytes_per_token_per_layer', col), bill.perTokenPerLayer);
      assert.equal(figure(compare, 'bytes_per_token', col), bill.perToken);
      assert.equal(figure(compare, 'bytes_per_sequence', col), bill.perSequence);
      assert.equal(figure(compare, 'cache_bytes', col), bill.cache);
      assert.equal(figure(compare, 'weight_bytes', col), bill.weights);
      assert.equal(figure(compare, 'gpu_bytes', col), bill.gpu);
      assert.equal(figure(compare, 'concurrent_sequences', col), bill.concurrent);
    }
    const units = compare.rows.find((row) => row.key === 'bytes_per_sequence').units;
    assert.equal(units[1], '1.00\u202fGiB');
  });

  it('the bill: every published shape at its full context, and the sources shown', { timeout: TEST_TIMEOUT }, async () => {
    const presets = await readTable(page, 'kv-bill', 'bill-presets');
    const col = (label) => presets.columns.indexOf(label);
    assert.deepEqual(presets.rows.map((row) => row.key), ['llama-2-7b', 'llama-3-8b', 'falcon-7b', 'deepseek-v2-lite', 'deepseek-v3',
      'mistral-7b-v0.1', 'qwen2.5-7b', 'qwen3-8b', 'gemma-2-9b', 'gemma-3-27b', 'kimi-k2']);
    const kinds = presets.rows.map((row) => row.cells[col('attention')]);
    assert.deepEqual(kinds, ['MHA', 'GQA', 'MQA', 'MLA', 'MLA', 'GQA', 'GQA', 'GQA', 'GQA', 'GQA', 'MLA']);
    // FP8 weights as released; the others in 16 bits.
    const weightBytes = { 'deepseek-v3': 1, 'kimi-k2': 1 };
    // The windows as the published configurations give them (all layers of Mistral 7B v0.1,
    // every other layer of Gemma 2, five local layers to one global of Gemma 3).
    const windows = { 'mistral-7b-v0.1': [4096, 32], 'gemma-2-9b': [4096, 21], 'gemma-3-27b': [1024, 52] };
    for (const row of presets.rows) {
      const number = (label) => parsePrinted(row.cells[col(label)]);
      const latent = row.cells[col('attention')] === 'MLA';
      const [dLatent, ropeDim] = latent ? row.cells[col('latent + RoPE key')].split(' + ').map(parsePrinted) : [0, 0];
      const bill = billReference({
        latent, layers: number('layers'), nKvHeads: latent ? 0 : number('K/V heads'), headDim: latent ? 0 : number('head_dim'),
        dLatent, ropeDim, dtypeBytes: 2, parameters: number('parameters'), weightBytes: weightBytes[row.key] ?? 2,
        context: number('context, tokens'), window: windows[row.key]?.[0] ?? null, localLayers: windows[row.key]?.[1] ?? 0,
      });
      const window = row.cells[col('sliding window')];
      assert.deepEqual(window === '\u2014' ? null : parsePrinted(window), windows[row.key]?.[0] ?? null, `${row.label}: window`);
      assert.equal(number('bytes per token and layer'), bill.perTokenPerLayer, `${row.label}: bytes per token and layer`);
      assert.equal(number('bytes per sequence'), bill.perSequence, `${row.label}: bytes per sequence`);
      assert.equal(parsePrinted(row.cells.at(-1)), bill.concurrent, `${row.label}: sequences on 80 GiB`);
    }
    const hosts = await page.evaluate(() => [...document.getElementById('kv-bill').shadowRoot.querySelectorAll('.citations a')].map((a) => new URL(a.href).host));
    assert.deepEqual(hosts, Array(11).fill('huggingface.co'), 'each preset cites its public configuration');
  });

  it('the bill follows the reader: DeepSeek-V3 on a 640 GiB node, a 4-bit Llama cache', { timeout: TEST_TIMEOUT }, async () => {
    await setControl('kv-bill', 'preset', 'deepseek-v3');
    await setControl('kv-bill', 'gpu-memory-gib', '640');
    let compare = await readTable(page, 'kv-bill', 'bill-compare');
    assert.equal(compare.columns[1], 'DeepSeek-V3');
    const deepseek = billReference({ latent: true, layers: 61, dLatent: 512, ropeDim: 64, dtypeBytes: 2, parameters: 671e9, weightBytes: 1, context: 163840, gpuGib: 640 });
    assert.equal(figure(compare, 'bytes_per_token_per_layer', 1), 1152);
    assert.equal(figure(compare, 'concurrent_sequences', 1), deepseek.concurrent);
    assert.equal(compare.rows.find((row) => row.key === 'attention').cells[0], 'MLA', 'the toy beside it is the toy MLA layer');
    await setControl('kv-bill', 'preset', 'llama-3-8b');
    await setControl('kv-bill', 'kv-bits', '4');
    compare = await readTable(page, 'kv-bill', 'bill-compare');
    const quantised = billReference({ layers: 32, nKvHeads: 8, headDim: 128, kvBits: 4, parameters: 8030261248, weightBytes: 2, context: 8192 });
    assert.equal(figure(compare, 'bytes_per_token_per_layer', 1), quantised.perTokenPerLayer);
    assert.equal(figure(compare, 'concurrent_sequences', 1), quantised.concurrent);
  });
});
