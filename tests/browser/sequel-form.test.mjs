// The bill's form never goes blank: a refused field shows its own message in the reader's words
// (the field's label, no attribute or core names), every other field keeps its last good value
// and the tables stay; editing a preset's figure relabels it as the reader's shape; the window
// fields reach the figures; the refused state has no axe-core violation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import {
  AXE_TIMEOUT, billReference, figure, readTable, settle, TEST_TIMEOUT, useSequelPage,
} from './sequel-harness.mjs';

let page;
useSequelPage({ ready: (opened) => { page = opened; } });

const field = (name) => page.locator(`#kv-bill [data-control="${name}"]`);
async function setField(name, value) {
  const input = field(name);
  if (await input.evaluate((node) => node.localName === 'select')) await input.selectOption(value);
  else {
    await input.fill(value);
    await input.press('Enter');
  }
  await settle(page);
}
const fieldMessage = (name) => page.evaluate((control) => {
  const root = document.getElementById('kv-bill').shadowRoot;
  const input = root.querySelector(`[data-control="${control}"]`);
  const id = input.getAttribute('aria-describedby');
  const note = id ? root.getElementById(id) : null;
  return note && !note.hidden ? { text: note.textContent, role: note.getAttribute('role'), invalid: input.getAttribute('aria-invalid') } : null;
}, name);

describe('the bill\u2019s form', () => {
  it('refuses 30 query heads over 8 K/V heads in the field, keeping the rest and the tables', { timeout: TEST_TIMEOUT }, async () => {
    await setField('preset', 'llama-3-8b');
    const before_ = await readTable(page, 'kv-bill', 'bill-compare');
    await setField('n-heads', '30');
    const message = await fieldMessage('n-heads');
    assert.ok(message, 'the query heads field has its own message');
    assert.equal(message.invalid, 'true');
    assert.equal(message.role, 'alert');
    assert.match(message.text, /^30 is not used\. K\/V heads: must divide query heads \(30\) into groups of equal size; 8 does not/u);
    assert.doesNotMatch(message.text, /attribute|n_kv_heads|n_heads|<attention/u, 'no developer terms');
    // The element's box does not repeat it; the tables and the other fields keep their last good figures.
    assert.equal(await page.locator('#kv-bill .message').isHidden(), true);
    assert.deepEqual(await readTable(page, 'kv-bill', 'bill-compare'), before_);
    assert.equal(await field('layers').inputValue(), '32');
    assert.equal(await field('n-kv-heads').inputValue(), '8');
    assert.equal(await field('head-dim').inputValue(), '128');
    assert.ok(await readTable(page, 'kv-bill', 'bill-presets'), 'the presets table stays');
  });

  it('has no axe-core violation while a field is refused', { timeout: AXE_TIMEOUT }, async () => {
    const results = await new AxeBuilder({ page }).include('#kv-bill').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    assert.deepEqual(results.violations.map((v) => v.id), []);
  });

  it('a good value clears the message and relabels the preset as the reader\u2019s shape', { timeout: TEST_TIMEOUT }, async () => {
    await setField('n-heads', '32');
    assert.equal(await fieldMessage('n-heads'), null);
    assert.equal((await readTable(page, 'kv-bill', 'bill-compare')).columns[1], 'Llama 3 8B', 'the same figure as the preset keeps its name');
    await setField('layers', '40');
    const compare = await readTable(page, 'kv-bill', 'bill-compare');
    assert.equal(compare.columns[1], 'your shape, from Llama 3 8B');
    const chosen = await field('preset').evaluate((select) => select.selectedOptions[0].textContent);
    assert.equal(chosen, 'your shape, from Llama 3 8B');
    // 2 · 8 · 128 · 2 bytes per token and layer, 40 layers, 8,192 tokens.
    assert.equal(figure(compare, 'bytes_per_sequence', 1), 2 * 8 * 128 * 2 * 40 * 8192);
  });

  it('the window fields: a 4,096-token window on 20 of the 40 layers', { timeout: TEST_TIMEOUT }, async () => {
    await setField('sliding-window', '4096');
    await setField('local-layers', '20');
    await setField('context-length', '32768');
    const compare = await readTable(page, 'kv-bill', 'bill-compare');
    const parameters = figure(compare, 'parameters', 1);
    const bill = billReference({
      layers: 40, nKvHeads: 8, headDim: 128, dtypeBytes: 2, parameters, weightBytes: 2, context: 32768, window: 4096, localLayers: 20,
    });
    assert.equal(figure(compare, 'bytes_per_sequence', 1), bill.perSequence);
    assert.equal(figure(compare, 'concurrent_sequences', 1), bill.concurrent);
    // Emptied, the window is gone: every layer holds the whole context again.
    await setField('sliding-window', '');
    const plain = billReference({ layers: 40, nKvHeads: 8, headDim: 128, dtypeBytes: 2, parameters, weightBytes: 2, context: 32768 });
    assert.equal(figure(await readTable(page, 'kv-bill', 'bill-compare'), 'bytes_per_sequence', 1), plain.perSequence);
  });

  it('refuses a bad value in every number field with a message of its own', { timeout: TEST_TIMEOUT }, async () => {
    await setField('preset', 'gemma-3-27b');
    const bad = {
      layers: '0', 'n-heads': '0', 'n-kv-heads': '5', 'head-dim': '0', parameters: '0', 'context-length': '0', batch: '0',
      'gpu-memory-gib': '-1', 'sliding-window': '0', 'local-layers': '999',
    };
    for (const [name, value] of Object.entries(bad)) {
      await setField(name, value);
      const message = await fieldMessage(name);
      assert.ok(message, `${name} = ${value}: refused with a message`);
      const label = await field(name).evaluate((input) => input.closest('label').querySelector('span').textContent);
      assert.ok(message.text.startsWith(`${label}: `) || message.text.startsWith(`${value} is not used. `), `${name}: ${message.text}`);
      assert.doesNotMatch(message.text, /attribute|<attention|n_kv_heads|n_heads|context_length|gpu_memory_gib/u, `${name}: in the reader's words`);
      assert.ok(await readTable(page, 'kv-bill', 'bill-compare'), `${name}: the tables stay`);
      await setField('preset', 'llama-3-8b');
      await setField('preset', 'gemma-3-27b');
      assert.equal(await fieldMessage(name), null, `${name}: a preset brings the good figures back`);
    }
  });
});
