// The curve's lines as the reader chooses them on the sequel page: the models picked with the
// keyboard in its checkbox group (and kept in the page's hash), the bill's model followed through
// a change of preset, of a figure, of the batch and of the GPU, and the toy MLA line at the MLA
// section's latent size. Every line's values against one sequence's cache worked out here in
// float64 from the published figures (2 · K/V heads · head_dim · bytes a token and layer), every
// crossing against its definition: the batch fits at it and not one token later.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_TIMEOUT, parsePrinted, readTable, settle, useSequelPage } from './sequel-harness.mjs';

let page;
useSequelPage({ ready: (opened) => { page = opened; } });

const GIB = 2 ** 30;
// Bytes per token and layer, layers, parameters, weight bytes: the published figures.
const LLAMA_3_8B = { perLayer: 2 * 8 * 128 * 2, layers: 32, parameters: 8030261248, weightBytes: 2 };
const FALCON_7B = { perLayer: 2 * 1 * 64 * 2, layers: 32, parameters: 6921720704, weightBytes: 2 };
const sequence = ({ perLayer, layers }, T) => perLayer * layers * T;

const curveTable = () => readTable(page, 'kv-curve', 'kv-curve');
const box = (name) => page.locator(`#kv-curve input[type="checkbox"][value="${name}"]`);
const checkedModels = () => page.evaluate(() => [...document.getElementById('kv-curve').shadowRoot.querySelectorAll('input[type="checkbox"]')]
  .filter((input) => input.checked).map((input) => input.value));
const crossing = (key) => page.evaluate((k) => document.getElementById('kv-curve').shadowRoot.querySelector(`.crossings li[data-key="${k}"]`)?.textContent ?? null, key);
const billField = (name) => page.locator(`#kv-bill [data-control="${name}"]`);
async function setBillField(name, value) {
  const input = billField(name);
  if (await input.evaluate((node) => node.localName === 'select')) await input.selectOption(value);
  else {
    await input.fill(value);
    await input.press('Enter');
  }
  await settle(page);
}

/** Every point of the column keyed `key` against `expected(T)`; returns the points checked. */
function checkColumn(table, key, expected, what) {
  const col = table.columnKeys.indexOf(key);
  assert.ok(col >= 0, `${what}: a line keyed ${key} among ${table.columnKeys.join(', ')}`);
  let checked = 0;
  for (const row of table.rows) {
    if (row.cells[col] === '\u2014') continue;
    const T = parsePrinted(row.label);
    assert.equal(parsePrinted(row.cells[col]), expected(T), `${what} at ${row.label} tokens`);
    checked += 1;
  }
  assert.ok(checked >= 60, `${what}: ${checked} points`);
  return col;
}

/** The crossing a model's text names, checked against its definition for `batch` sequences. */
function checkCrossing(text, shape, { batch = 1, gpuGib = 80 }, what) {
  assert.ok(text, `${what}: a crossing is named`);
  const match = /at ([\d\u202f]+) tokens/u.exec(text);
  assert.ok(match, `${what}: "${text}"`);
  const T = parsePrinted(match[1]);
  const left = gpuGib * GIB - shape.parameters * shape.weightBytes;
  assert.ok(batch * sequence(shape, T) <= left, `${what}: ${batch} sequences of ${T} tokens fit`);
  assert.ok(batch * sequence(shape, T + 1) > left, `${what}: ${batch} sequences of ${T + 1} tokens do not`);
  return T;
}

describe('the curve\u2019s models, chosen by the reader', () => {
  it('a labelled group of a checkbox per model, the page\u2019s four checked', { timeout: TEST_TIMEOUT }, async () => {
    const group = page.locator('#kv-curve [role="group"][aria-label="models drawn"]');
    assert.equal(await group.count(), 1);
    const presets = await page.evaluate(() => document.getElementById('kv-bill').result.presets.map((preset) => [preset.name, preset.label]));
    assert.equal(presets.length, 11);
    const boxes = await group.locator('label').evaluateAll((labels) => labels.map((label) => [label.querySelector('input').value, label.textContent.trim()]));
    assert.deepEqual(boxes, presets, 'one box per preset, labelled with its name');
    const html = ['llama-3-8b', 'mistral-7b-v0.1', 'gemma-3-27b', 'deepseek-v3'];
    assert.deepEqual(await checkedModels(), presets.map(([name]) => name).filter((name) => html.includes(name)), 'the models of the page\u2019s HTML');
  });

  it('Tab and Space add a line and take it away, and the hash keeps the choice', { timeout: TEST_TIMEOUT }, async () => {
    await box('llama-2-7b').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.getElementById('kv-curve').shadowRoot.activeElement?.value), 'llama-3-8b', 'Tab moves to the next box');
    await box('falcon-7b').focus();
    await page.keyboard.press('Space');
    await settle(page);
    assert.equal(await box('falcon-7b').isChecked(), true);
    checkColumn(await curveTable(), 'falcon-7b', (T) => sequence(FALCON_7B, T), 'Falcon 7B');
    checkCrossing(await crossing('falcon-7b'), FALCON_7B, {}, 'Falcon 7B');
    const hash = decodeURIComponent(await page.evaluate(() => location.hash));
    assert.match(hash, /curve\.models=[^&]*falcon-7b/u);
    await page.keyboard.press('Space');
    await settle(page);
    assert.equal((await curveTable()).columnKeys.includes('falcon-7b'), false, 'unticked, the line is gone');
    assert.doesNotMatch(decodeURIComponent(await page.evaluate(() => location.hash)), /falcon-7b/u);
  });

  it('with no box ticked, the toy lines and the bill\u2019s model stay', { timeout: TEST_TIMEOUT }, async () => {
    const before = await checkedModels();
    for (const name of before) {
      await box(name).focus();
      await page.keyboard.press('Space');
      await settle(page);
    }
    assert.equal(await page.evaluate(() => document.getElementById('kv-curve').getAttribute('models')), 'none');
    assert.deepEqual((await curveTable()).columnKeys, ['toy-mha', 'toy-gqa', 'toy-mqa', 'toy-mla', 'bill']);
    assert.match(decodeURIComponent(await page.evaluate(() => location.hash)), /curve\.models=none/u);
    for (const name of before) await box(name).check();
    await settle(page);
    assert.equal(await page.evaluate(() => document.getElementById('kv-curve').problem), null);
  });
});

describe('the curve follows the bill', () => {
  it('the bill\u2019s preset, its batch and its GPU', { timeout: TEST_TIMEOUT }, async () => {
    let table = await curveTable();
    const llama = checkColumn(table, 'bill', (T) => sequence(LLAMA_3_8B, T), 'the bill\u2019s Llama 3 8B');
    assert.equal(table.columns[llama], 'Llama 3 8B');
    assert.equal(table.columnKeys.includes('llama-3-8b'), false, 'drawn once, as the bill\u2019s');
    checkCrossing(await crossing('bill'), LLAMA_3_8B, {}, 'Llama 3 8B');

    await setBillField('preset', 'falcon-7b');
    table = await curveTable();
    assert.equal(table.columns[checkColumn(table, 'bill', (T) => sequence(FALCON_7B, T), 'the bill\u2019s Falcon 7B')], 'Falcon 7B');
    checkColumn(table, 'llama-3-8b', (T) => sequence(LLAMA_3_8B, T), 'Llama 3 8B, now a line of its own');

    await setBillField('batch', '6');
    await setBillField('gpu-memory-gib', '40');
    const text = await crossing('bill');
    assert.match(text, /^Falcon 7B: a batch of 6 shares/u);
    const T = checkCrossing(text, FALCON_7B, { batch: 6, gpuGib: 40 }, 'Falcon 7B, 6 sequences on 40 GiB');
    assert.equal(T, await page.evaluate(() => document.getElementById('kv-bill').result.model.max_context_tokens), 'the bill\u2019s longest context');
    // The other models are drawn on the bill's GPU, one sequence each.
    checkCrossing(await crossing('llama-3-8b'), LLAMA_3_8B, { gpuGib: 40 }, 'Llama 3 8B on 40 GiB');
  });

  it('a figure edited in the bill: the line of "your shape, from …"', { timeout: TEST_TIMEOUT }, async () => {
    await setBillField('preset', 'llama-3-8b');
    await setBillField('n-kv-heads', '4');
    const table = await curveTable();
    const shape = { ...LLAMA_3_8B, perLayer: 2 * 4 * 128 * 2 };
    const col = checkColumn(table, 'bill', (T) => sequence(shape, T), 'Llama 3 8B with 4 K/V heads');
    assert.equal(table.columns[col], 'your shape, from Llama 3 8B', 'labelled as the bill labels it');
    checkColumn(table, 'llama-3-8b', (T) => sequence(LLAMA_3_8B, T), 'the published Llama 3 8B beside it');
    checkCrossing(await crossing('bill'), shape, {}, 'your shape');
    await setBillField('preset', 'llama-3-8b');
  });
});

describe('the toy MLA line', () => {
  it('takes the MLA section\u2019s d_latent, and moves with it', { timeout: TEST_TIMEOUT }, async () => {
    // One layer, float32, the latent alone (no RoPE key).
    const latentNow = await page.evaluate(() => document.getElementById('variant-mla').result.layer.d_latent);
    checkColumn(await curveTable(), 'toy-mla', (T) => latentNow * 4 * T, `toy MLA, d_latent ${latentNow}`);
    const input = page.locator('#variant-mla [data-control="d-latent"]');
    await input.fill('3');
    await input.press('Enter');
    await settle(page);
    checkColumn(await curveTable(), 'toy-mla', (T) => 3 * 4 * T, 'toy MLA, d_latent 3');
    assert.equal(await page.evaluate(() => document.getElementById('kv-bill').getAttribute('toy-d-latent')), '3', 'the bill\u2019s toy too');
  });
});
