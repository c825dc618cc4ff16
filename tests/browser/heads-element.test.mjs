// <attention-heads> on a host page of its own (fixtures/heads.html), under the strict policy:
// every table it prints against a float64 layer computed from the matrices it shows (x and each
// head's W_Q, W_K, W_V, and W_O), its attributes and properties, a seed changed in place, a
// model followed, each bad attribute named in its box, axe-core and a 360 px screen.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES, WCAG_TAGS } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, openHostPage, parsePrinted, readMessage, readShadowTable, startBrowserAndHost, stopBrowserAndHost,
  waitForElements,
} from './embed-harness.mjs';
import { multiHeadF64 } from '../support/multi-head-f64.mjs';

let browser;
let server;
before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

// The core computes in float32: a printed value may differ from the float64 one by the rounding
// of its last decimal and 2e-5 more.
const FLOAT32_SLACK = 2e-5;

function assertNumbers(table, expected, decimals, what) {
  assert.ok(table, `${what}: the table is shown`);
  assert.equal(table.rows.length, expected.length, `${what}: rows`);
  table.rows.forEach((row, i) => expected[i].forEach((value, j) => {
    const text = row.cells[j];
    assert.match(text, new RegExp(`^\u2212?\\d+\\.\\d{${decimals}}$`), `${what} ${row.label}/${table.columns[j]}: "${text}"`);
    assert.ok(Math.abs(parsePrinted(text) - value) <= 0.5 * 10 ** -decimals + FLOAT32_SLACK,
      `${what} ${row.label}/${table.columns[j]}: printed ${text}, float64 ${value}`);
  }));
}

const numbersOf = (table) => table.rows.map((row) => row.cells.map(parsePrinted));

// Opens the element's weight disclosures (built when first opened) and waits for their tables.
async function openDisclosures(page, id) {
  const heads = await page.evaluate((hostId) => {
    const root = document.getElementById(hostId).shadowRoot;
    for (const details of root.querySelectorAll('details.weights-disclosure')) details.open = true;
    return root.querySelectorAll('.head-card').length;
  }, id);
  await page.waitForFunction(([hostId, count]) => {
    const root = document.getElementById(hostId).shadowRoot;
    return root.querySelector('table[data-table="heads-wo"]') && root.querySelector(`table[data-table="heads-${count}-v"]`);
  }, [id, heads]);
  return heads;
}

// Every table of the element held against multiHeadF64 of the matrices it shows.
async function assertLayer(page, id, { mask, scale, dModel, nHeads, tokens }) {
  const heads = await openDisclosures(page, id);
  assert.equal(heads, nHeads, `${id}: one card per head`);
  const read = (name) => readShadowTable(page, id, name);
  const x = await read('heads-x');
  assert.deepEqual(x.rows.map((row) => row.label), tokens, `${id}: a row per token`);
  assert.equal(x.columns.length, dModel, `${id}: d_model columns`);
  const shown = { x: numbersOf(x), heads: [], w_o: numbersOf(await read('heads-wo')), mask, scale };
  for (let h = 1; h <= nHeads; h += 1) {
    const [wQ, wK, wV] = await Promise.all(['wq', 'wk', 'wv'].map((w) => read(`heads-${h}-${w}`)));
    assert.equal(wQ.rows.length, dModel);
    assert.equal(wQ.columns.length, dModel / nHeads, `${id}: head_dim columns`);
    shown.heads.push({ w_q: numbersOf(wQ), w_k: numbersOf(wK), w_v: numbersOf(wV) });
  }
  const reference = multiHeadF64(shown);
  for (const [h, head] of reference.heads.entries()) {
    const n = h + 1;
    for (const letter of ['q', 'k', 'v']) assertNumbers(await read(`heads-${n}-${letter}`), head[letter], 3, `${id} head ${n} ${letter}`);
    const weights = await read(`heads-${n}-weights`);
    assertNumbers(weights, head.weights, 4, `${id} head ${n} weights`);
    weights.rows.forEach((row, i) => row.masked.slice(0, tokens.length).forEach((masked, j) => {
      assert.equal(masked, mask !== 'none' && j > i, `${id} head ${n}: cell ${i},${j} masked`);
    }));
    assertNumbers(await read(`heads-${n}-out`), head.out, 4, `${id} head ${n} out`);
  }
  assertNumbers(await read('heads-concat'), reference.concat, 4, `${id} concat`);
  assertNumbers(await read('heads-out'), reference.out, 4, `${id} out`);
}

const layerOf = (page, id) => page.evaluate((hostId) => {
  const { layer } = document.getElementById(hostId);
  return layer && { tokens: layer.tokens, mask: layer.mask, scale: layer.scale, n_heads: layer.n_heads, d_model: layer.d_model };
}, id);

describe('<attention-heads>', { timeout: TEST_TIMEOUT * 2 }, () => {
  let opened;
  let page;
  before(async () => {
    opened = await openHostPage(browser, server.fixture('heads.html'));
    page = opened.page;
    await waitForElements(page);
  });
  after(() => opened?.close());

  it('prints every table of its layer as a float64 layer of the matrices it shows computes them', async () => {
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(await opened.cspViolations(), []);
    await assertLayer(page, 'own', { mask: 'none', scale: 'd', dModel: 16, nHeads: 4, tokens: ['the', 'cat', 'sat', 'on'] });
    await assertLayer(page, 'narrow', { mask: 'causal', scale: 'sqrt_d', dModel: 6, nHeads: 2, tokens: ['a', 'b', 'c'] });
    await assertLayer(page, 'single', { mask: 'causal', scale: 'sqrt_d', dModel: 1, nHeads: 1, tokens: ['a', 'b'] });
  });

  it('counts in its captions agree with their nouns: one head of one number', async () => {
    await openDisclosures(page, 'single');
    const captions = await page.evaluate(() => Array.from(
      document.getElementById('single').shadowRoot.querySelectorAll('caption'), (caption) => caption.textContent));
    assert.ok(captions.includes('x \u00b7 the token vectors (seeded), 1 number each'), captions.join(' | '));
    assert.ok(captions.includes('Head 1 \u00b7 out (1 number per token)'), captions.join(' | '));
    assert.ok(captions.some((text) => text.startsWith('W_O \u00b7 maps the one head\u2019s slice')), captions.join(' | '));
    assert.ok(!captions.some((text) => /\b1 (numbers|heads)\b/u.test(text)), captions.join(' | '));
  });

  it('reflects its attributes as properties, and a new seed patches the tables on screen and fires attention-change', async () => {
    const reflected = await page.evaluate(() => {
      const el = document.getElementById('narrow');
      const read = { tokens: el.tokens, seed: el.seed, dModel: el.dModel, heads: el.heads, mask: el.mask, model: el.model };
      el.tokens = ['New York', 'is', 'big'];
      const tokens = el.getAttribute('tokens');
      el.tokens = 'a b c';
      return { read, tokens };
    });
    assert.deepEqual(reflected.read, { tokens: ['a', 'b', 'c'], seed: 3, dModel: 6, heads: 2, mask: null, model: null });
    assert.equal(reflected.tokens, '["New York","is","big"]');
    const event = await page.evaluate(() => new Promise((resolve) => {
      const el = document.getElementById('narrow');
      const root = el.shadowRoot;
      root.querySelector('table[data-table="heads-x"]').dataset.kept = 'yes';
      root.querySelector('table[data-table="heads-1-wq"]').dataset.kept = 'yes';
      const before = root.querySelector('table[data-table="heads-x"] td.num').textContent;
      document.addEventListener('attention-change', (e) => resolve({
        target: e.target.id, bubbles: e.bubbles, composed: e.composed, same: e.detail.layer === el.layer && e.detail.result === el.layer && e.detail.problem === null,
        before, after: root.querySelector('table[data-table="heads-x"] td.num').textContent,
        kept: [...root.querySelectorAll('table[data-kept="yes"]')].map((t) => t.dataset.table),
      }), { once: true });
      el.seed = 4;
    }));
    assert.deepEqual({ ...event, before: undefined, after: undefined },
      { target: 'narrow', bubbles: true, composed: true, same: true, kept: ['heads-x', 'heads-1-wq'], before: undefined, after: undefined });
    assert.notEqual(event.after, event.before, 'seed 4 draws other token vectors');
    assert.equal(await page.evaluate(() => document.getElementById('narrow').getAttribute('seed')), '4');
    await assertLayer(page, 'narrow', { mask: 'causal', scale: 'sqrt_d', dModel: 6, nHeads: 2, tokens: ['a', 'b', 'c'] });
  });

  it('follows the tokens, mask and scale of the model it names; its own attribute wins', async () => {
    assert.deepEqual(await layerOf(page, 'follows'),
      { tokens: ['le', 'chat', 'dort'], mask: 'causal', scale: 'sqrt_d', n_heads: 4, d_model: 16 });
    await page.evaluate(() => {
      const model = document.getElementById('m');
      model.tokens = ['un', 'chien', 'dort'];
      model.mask = 'none';
    });
    await page.waitForFunction(() => document.getElementById('follows').layer?.tokens[1] === 'chien');
    assert.deepEqual(await layerOf(page, 'follows'),
      { tokens: ['un', 'chien', 'dort'], mask: 'none', scale: 'sqrt_d', n_heads: 4, d_model: 16 });
    await assertLayer(page, 'follows', { mask: 'none', scale: 'sqrt_d', dModel: 16, nHeads: 4, tokens: ['un', 'chien', 'dort'] });
    await page.evaluate(() => { document.getElementById('follows').mask = 'causal'; });
    await page.waitForFunction(() => document.getElementById('follows').layer?.mask === 'causal');

    await page.evaluate(() => document.getElementById('m').setAttribute('q', '[[1, 0]]'));
    await page.waitForFunction(() => document.getElementById('follows').layer === null);
    assert.match(await readMessage(page, 'follows'), /^<attention-heads> not shown\. the model "m" it follows has a problem: q attribute/);
    await page.evaluate(() => document.getElementById('m').setAttribute('q', '[[1, 0], [0, 1], [1, 1]]'));
    await page.waitForFunction(() => document.getElementById('follows').layer !== null);
    assert.equal(await readMessage(page, 'follows'), null);
  });

  it('names each bad attribute and its value in its own box, and says it once on the console', async () => {
    const expected = {
      'bad-heads': 'heads attribute: must divide d-model 16 into heads of equal size (5 does not)',
      'bad-seed': 'seed attribute: "two" is not a whole number',
      'bad-d-model': 'd-model attribute: must be a whole number from 1 to 256, got 512',
      'bad-mask': 'mask attribute: must be "causal", "none" or "causal_zero", got "diagonal"',
      'bad-tokens': 'tokens attribute: a JSON list here must hold only strings',
      'no-model': 'model attribute: there is no <attention-model id="nowhere"> in this page',
      'wrong-model': 'model attribute: the element with id "not-a-model" is a <p>, not an <attention-model> or <attention-explainer>',
    };
    for (const [id, text] of Object.entries(expected)) {
      assert.equal(await readMessage(page, id), `<attention-heads> not shown. ${text}`, id);
      assert.equal(opened.record.warnings.filter((warning) => warning === `<attention-heads id="${id}">: ${text}`).length, 1, `${id}: one warning`);
      assert.equal(await layerOf(page, id), null, `${id}: no layer`);
    }
    assert.deepEqual(opened.record.pageErrors, []);
    // Put right, the element shows its layer; a model that joins later is followed.
    await page.evaluate(() => {
      document.getElementById('bad-heads').heads = 2;
      const model = document.createElement('attention-model');
      model.id = 'nowhere';
      model.setAttribute('tokens', 'x y');
      model.setAttribute('q', '[[1], [2]]');
      model.setAttribute('k', '[[1], [1]]');
      model.setAttribute('v', '[[1], [2]]');
      document.querySelector('main').append(model);
    });
    await page.waitForFunction(() => document.getElementById('bad-heads').layer?.n_heads === 2);
    await page.waitForFunction(() => document.getElementById('no-model').layer?.tokens.join(' ') === 'x y');
    assert.equal(await readMessage(page, 'bad-heads'), null);
    assert.equal(await readMessage(page, 'no-model'), null);
  });

  // axe-core takes tens of seconds over a thousand elements in shadow roots: it checks the small
  // layer with its disclosures open, and a message box, alone on the page.
  it('has no WCAG 2 A/AA violation in light, none of the colour rules in dark', async () => {
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('attention-heads:not(#narrow):not(#bad-seed), attention-model')) el.remove();
    });
    await openDisclosures(page, 'narrow');
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      const axe = new AxeBuilder({ page });
      const results = await (colorScheme === 'light' ? axe.withTags(WCAG_TAGS) : axe.withRules(COLOUR_RULES)).analyze();
      assert.ok(results.passes.length >= 1, `axe ran (${colorScheme})`);
      assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`), [], colorScheme);
    }
  });
});

describe('<attention-heads> on a 360 px screen', { timeout: TEST_TIMEOUT }, () => {
  it('scrolls its wide tables inside their own boxes, never the page sideways', async () => {
    const opened = await openHostPage(browser, server.fixture('heads.html'), { viewport: { width: 360, height: 740 } });
    try {
      const { page } = opened;
      await waitForElements(page);
      await openDisclosures(page, 'own');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
        'the page does not scroll sideways');
      const boxes = await page.evaluate(() => [...document.getElementById('own').shadowRoot.querySelectorAll('.table-scroll')]
        .map((box) => ({ right: box.getBoundingClientRect().right, scrolls: box.scrollWidth > box.clientWidth, overflow: getComputedStyle(box).overflowX })));
      assert.ok(boxes.length >= 20 && boxes.some((box) => box.scrolls), `${boxes.length} tables, the wide ones scroll`);
      for (const box of boxes) {
        assert.ok(box.right <= 360, `a table box ends at ${box.right}px`);
        assert.equal(box.overflow, 'auto');
      }
    } finally {
      await opened.close();
    }
  });
});
