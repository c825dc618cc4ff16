// FlashAttention's bill on the sequel page: the toy's bytes moved follow the tiles chosen in the
// tiles' section, and the H100 shape (8,192 tokens, head_dim 128, float16, 228 KiB) uses the
// largest tiles that fit; every total against the formula worked out here in float64.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  figure, readTable, settle, TEST_TIMEOUT, useSequelPage,
} from './sequel-harness.mjs';
import { createSiteAttention } from '../support/site-module.mjs';

let page;
useSequelPage({ ready: (opened) => { page = opened; } });

// Naive: read Q, K; write and read S; write and read P; read V; write O. Tiled: Q and O once,
// each query tile's key and value rows up to its last query (causal), in whole tiles.
const naiveBytes = (T, d, bytes) => (4 * T * d + 4 * T * T) * bytes;
function tiledBytes(T, d, bytes, rows, cols, causal = true) {
  let keyRows = 0;
  for (let begin = 0; begin < T; begin += rows) {
    const last = Math.min(begin + rows, T) - 1;
    const tiles = causal ? Math.floor(last / cols) + 1 : Math.ceil(T / cols);
    keyRows += Math.min(tiles * cols, T);
  }
  return (2 * T * d + 2 * d * keyRows) * bytes;
}
const total = (table) => figure(table, `${table.rows.at(-1).key}`, 2);

describe('FlashAttention\u2019s bill in bytes', () => {
  it('the toy in 2 \u00d7 2 tiles, then in the tiles the reader picks', { timeout: TEST_TIMEOUT }, async () => {
    let naive = await readTable(page, 'flash-traffic-toy', 'traffic-naive');
    let tiled = await readTable(page, 'flash-traffic-toy', 'traffic-tiled');
    assert.equal(total(naive), naiveBytes(4, 4, 4));          // 512 by hand
    assert.equal(total(tiled), tiledBytes(4, 4, 4, 2, 2));    // 320 by hand
    assert.equal(total(tiled), 320);
    await page.evaluate(() => {
      const tiles = document.getElementById('flash-tiles');
      tiles.setAttribute('block-rows', '1');
      tiles.setAttribute('block-cols', '3');
    });
    await settle(page);
    await settle(page);
    tiled = await readTable(page, 'flash-traffic-toy', 'traffic-tiled');
    assert.equal(total(tiled), tiledBytes(4, 4, 4, 1, 3));
    naive = await readTable(page, 'flash-traffic-toy', 'traffic-naive');
    assert.equal(total(naive), 512, 'the naive bill does not depend on tiles');
  });

  it('an H100: 8,192 tokens, head_dim 128, float16, 228 KiB, the largest tiles that fit', { timeout: TEST_TIMEOUT }, async () => {
    const result = await page.evaluate(() => document.getElementById('flash-traffic').result);
    // dtype · (Br·d + 2·Bc·d) + 4 · (Br·d + Br·Bc + 2·Br) ≤ 228 · 1024 with Br = Bc: 129 fits, 130 does not.
    const footprint = (b) => 2 * (3 * b * 128) + 4 * (b * 128 + b * b + 2 * b);
    assert.ok(footprint(129) <= 228 * 1024 && footprint(130) > 228 * 1024);
    assert.equal(result.block_rows, 129);
    const naive = await readTable(page, 'flash-traffic', 'traffic-naive');
    const tiled = await readTable(page, 'flash-traffic', 'traffic-tiled');
    assert.equal(total(naive), naiveBytes(8192, 128, 2));
    assert.equal(total(tiled), tiledBytes(8192, 128, 2, 129, 129));
    // A refused value keeps the tables, with a message at the field.
    const field = page.locator('#flash-traffic [data-control="sram-kib"]');
    await field.fill('1');
    await field.press('Enter');
    await settle(page);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.ok(await readTable(page, 'flash-traffic', 'traffic-tiled'), 'the tables stay');
    await field.fill('228');
    await field.press('Enter');
    await settle(page);
    assert.equal(await field.getAttribute('aria-invalid'), null);
  });
});

describe('the FlashAttention elements\u2019 masks', () => {
  it('offer the masks the core\u2019s kernels compute, named and labelled as its vocabulary has them', { timeout: TEST_TIMEOUT }, async () => {
    const attention = await createSiteAttention();
    const masks = attention.vocabulary().masks.filter((mask) => mask.kernels).map((mask) => [mask.name, mask.label]);
    assert.ok(masks.length >= 2 && masks.some(([name]) => name === 'causal') && masks.some(([name]) => name === 'none'));
    for (const id of ['flash-tiles', 'flash-traffic']) {
      const options = await page.locator(`#${id} select[data-control="mask"] option`).evaluateAll((nodes) => nodes.map((node) => [node.value, node.textContent]));
      assert.deepEqual(options, masks, id);
    }
  });
});
