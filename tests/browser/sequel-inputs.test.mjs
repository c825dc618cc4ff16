// <attention-layer-inputs> on a host page of our own (fixtures/sequel-inputs.html), served with
// the strict policy: it feeds the elements its `for` attribute names with no script of the page
// (the layer's elements get tokens, seed and x, the bill its toy's tokens, the traffic its token
// count); a reader's edited number reaches them, and what they compute from it is checked against
// a float64 reference from the inputs' own table and the printed weights; a refused cell, tokens
// or seed is named in the element's message in the cells' shared wording while the sections keep
// the last good input; the button brings back the seeded vectors; `values` and the
// attention-change event; and an author's mistakes (a matrix of the wrong shape, an id that is not
// there, an element that takes no inputs) are named in the element's box and on the console; the
// layer's shape (d-model, n-heads) set on it reaches the sections with the vectors.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openHostPage, startHostServer } from './embed-harness.mjs';
import {
  PAGE_CSP, TEST_TIMEOUT, assertTable, attentionHead, launchBrowser, matmul, numbers, readTable, readWeights, requireBuiltSite,
  settle, unfold,
} from './sequel-harness.mjs';

let browser;
let server;
let opened;
let page;

const IDS = ['inputs', 'gqa', 'tiles', 'bill', 'traffic', 'bad'];
const TOKENS = ['we', 'tile', 'the', 'scores', 'now'];

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  server = await startHostServer({ csp: PAGE_CSP });
  opened = await openHostPage(browser, server.fixture('sequel-inputs.html'));
  page = opened.page;
  await page.waitForFunction((ids) => ids.every((id) => {
    const element = document.getElementById(id);
    return element && (element.result || element.problem);
  }), IDS, { timeout: 90_000 });
  await settle(page);
});

after(async () => {
  await opened?.close();
  await browser?.close();
  await server?.close();
});

const cell = (row, col) => page.locator(`#inputs table[data-table="x"] input[data-row="${row}"][data-col="${col}"]`);
const message = () => page.evaluate(() => {
  const node = document.getElementById('inputs').shadowRoot.querySelector('.message');
  return node.hidden ? null : node.textContent;
});
const attributes = (id, names) => page.evaluate(([host, list]) =>
  Object.fromEntries(list.map((name) => [name, document.getElementById(host).getAttribute(name)])), [id, names]);

async function edit(locator, text) {
  await locator.fill(text);
  await locator.press('Tab');
  await settle(page);
}

describe('<attention-layer-inputs> on an author\u2019s page', () => {
  it('runs under the strict policy and feeds the elements its for attribute names', { timeout: TEST_TIMEOUT }, async () => {
    assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
    assert.deepEqual(await opened.cspViolations(), []);
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    const root = await page.evaluate(() => {
      const shadow = document.getElementById('inputs').shadowRoot;
      return [shadow.mode, shadow.adoptedStyleSheets.length, shadow.querySelectorAll('style, link').length];
    });
    assert.deepEqual(root, ['open', 2, 0]);
    const table = await readTable(page, 'inputs', 'x');
    assert.deepEqual(table.rows.map((row) => row.label), TOKENS);
    assert.equal(table.columns.length, 16);
    assert.match(table.caption, /\(seed 3\)$/);
    assert.deepEqual(await attributes('gqa', ['tokens', 'seed', 'x']), { tokens: TOKENS.join(' '), seed: '3', x: null });
    assert.deepEqual(await attributes('tiles', ['tokens', 'seed']), { tokens: TOKENS.join(' '), seed: '3' });
    assert.equal((await attributes('bill', ['toy-tokens']))['toy-tokens'], TOKENS.join(' '));
    assert.equal((await attributes('traffic', ['token-count']))['token-count'], '5');
    const map = await readTable(page, 'tiles', 'tile-map');
    assert.deepEqual(map.rows.map((row) => row.label), TOKENS);
    // The sections run on the vectors the inputs show: the variant's own X table prints them.
    assertTable(await readTable(page, 'gqa', 'x'), numbers(table), 3, 'the variant\u2019s X');
    assert.equal(await message(), null);
  });

  it('hands an edited number on, and the head computed from it matches a float64 reference', { timeout: TEST_TIMEOUT }, async () => {
    await edit(cell(1, 2), '0.25');
    await edit(cell(3, 0), '\u22121,5');
    assert.equal(await cell(3, 0).inputValue(), '\u22121.5', 'the cell is written as the tables write numbers');
    const x = numbers(await readTable(page, 'inputs', 'x'));
    assert.equal(x[1][2], 0.25);
    assert.equal(x[3][0], -1.5);
    const own = await attributes('inputs', ['tokens', 'seed', 'x']);
    assert.deepEqual(own.tokens, TOKENS.join(' '));
    assert.deepEqual(JSON.parse(own.x), x, 'the x attribute is the table, reflected');
    assert.equal((await attributes('gqa', ['x'])).x, own.x);
    assert.equal((await attributes('tiles', ['x'])).x, own.x);
    assert.match(await readTable(page, 'inputs', 'x').then((table) => table.caption), /\(edited\)$/);
    // Head 0 of the GQA layer (two K/V heads: it reads K/V head 0) from the edited X, in float64.
    await unfold(page, ['gqa']);
    const [wq, wk, wv] = [await readWeights(page, 'gqa', 'w-q-0'), await readWeights(page, 'gqa', 'w-k-0'), await readWeights(page, 'gqa', 'w-v-0')];
    const q = matmul(x, wq);
    const head = attentionHead(q, matmul(x, wk), matmul(x, wv));
    assertTable(await readTable(page, 'gqa', 'q-0'), q, 3, 'Q of head 0');
    assertTable(await readTable(page, 'gqa', 'weights-0'), head.weights, 4, 'the weights of head 0');
    assertTable(await readTable(page, 'gqa', 'out-0'), head.out, 4, 'the output of head 0');
    assert.equal(await message(), null);
  });

  it('refuses a cell, tokens or a seed it cannot use, names it, and the sections keep the last good input', { timeout: TEST_TIMEOUT }, async () => {
    const before_ = await attributes('gqa', ['tokens', 'seed', 'x']);
    const kept = await cell(0, 0).inputValue();
    const problems = [];
    await page.exposeFunction('recordInputsProblem', (problem) => problems.push(problem));
    await page.evaluate(() => document.getElementById('inputs').addEventListener('attention-change',
      (event) => globalThis.recordInputsProblem(event.detail.problem)));

    // Leaving a refused cell puts its good value back and says so, as part one's cells do; the
    // message describes the cell.
    await edit(cell(0, 0), 'abc');
    assert.equal(await cell(0, 0).inputValue(), kept);
    assert.equal(await cell(0, 0).getAttribute('aria-invalid'), null);
    assert.equal(await message(), `x0 of \u201cwe\u201d: \u201cabc\u201d is not a number, so it was not used. The cell is back to ${kept}.`);
    assert.equal(await cell(0, 0).getAttribute('aria-describedby'),
      await page.evaluate(() => document.getElementById('inputs').shadowRoot.querySelector('.message').id));
    await edit(cell(0, 0), '1e20');
    assert.match(await message(), /^x0 of “we”: the core refused it \(x\[0\]\[0\]: is 1e20, outside the allowed range of ±1e6\), so it was not used\. The cell is back to /);
    assert.equal(await cell(0, 0).inputValue(), kept);
    // Escape puts the good value back over what was typed and not yet counted.
    await cell(0, 0).fill('nonsense');
    await cell(0, 0).press('Escape');
    assert.equal(await cell(0, 0).inputValue(), kept);
    assert.equal(await cell(0, 0).getAttribute('aria-invalid'), null);
    assert.equal(await message(), null);

    const tokens = page.locator('#inputs [data-control="tokens"]');
    await tokens.fill(Array.from({ length: 65 }, (_, i) => `w${i}`).join(' '));
    await tokens.press('Enter');
    await settle(page);
    assert.equal(await tokens.getAttribute('aria-invalid'), 'true');
    assert.equal(await message(), `Tokens: has 65 tokens; the limit is 64, so they were not used. The sections keep \u201c${TOKENS.join(' ')}\u201d and nothing else changed.`);
    const seed = page.locator('#inputs [data-control="seed"]');
    await seed.fill('1.5');
    await seed.press('Enter');
    await settle(page);
    assert.equal(await message(), 'Seed: \u201c1.5\u201d is not a whole number, so it was not used. The sections keep seed 3 and nothing else changed.');
    await seed.fill('9999999999999999');
    await seed.press('Enter');
    await settle(page);
    assert.match(await message(), /^Seed: must be a whole number from 0 to 9007199254740991, got 1e\+?16, so it was not used\./);

    assert.deepEqual(await attributes('gqa', ['tokens', 'seed', 'x']), before_, 'the sections kept the last good input');
    assert.equal(await page.evaluate(() => document.getElementById('inputs').values.seed), 3);
    assert.equal(problems.length, 5, 'one attention-change per refusal');
    assert.ok(problems.every((problem) => typeof problem === 'string'));
    assert.deepEqual(opened.record.pageErrors, []);

    // A good seed: accepted, the marks and the message go, the seeded vectors of seed 4 come.
    await seed.fill('4');
    await seed.press('Enter');
    await settle(page);
    assert.equal(await message(), null);
    assert.equal(await tokens.getAttribute('aria-invalid'), null);
    assert.deepEqual(await attributes('gqa', ['tokens', 'seed', 'x']), { tokens: TOKENS.join(' '), seed: '4', x: null });
  });

  it('brings back the seeded vectors with its button', { timeout: TEST_TIMEOUT }, async () => {
    const seeded = numbers(await readTable(page, 'inputs', 'x'));
    const reset = page.locator('#inputs [data-control="reset"]');
    assert.equal(await reset.isDisabled(), true, 'nothing to bring back yet');
    await edit(cell(2, 5), '3');
    assert.equal(await reset.isDisabled(), false);
    assert.ok((await attributes('gqa', ['x'])).x);
    await reset.click();
    await settle(page);
    assert.deepEqual(numbers(await readTable(page, 'inputs', 'x')), seeded);
    assert.equal((await attributes('inputs', ['x'])).x, null);
    assert.equal((await attributes('gqa', ['x'])).x, null);
    assert.equal(await reset.isDisabled(), true);
  });

  it('is one Tab stop whose fields the arrow keys walk, and a number typed on the way reaches the sections', { timeout: TEST_TIMEOUT }, async () => {
    const focused = () => page.evaluate(() => {
      const active = document.getElementById('inputs').shadowRoot.activeElement;
      return active?.dataset.row === undefined ? null : [Number(active.dataset.row), Number(active.dataset.col)];
    });
    const stops = await page.evaluate(() => Array.from(
      document.getElementById('inputs').shadowRoot.querySelectorAll('table[data-table="x"] input'), (field) => field.tabIndex));
    assert.equal(stops.filter((index) => index === 0).length, 1, 'one field of the table is in the Tab order');
    assert.ok(stops.length > 1 && stops.filter((index) => index === -1).length === stops.length - 1);
    await cell(0, 0).focus();
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await focused(), [1, 0], 'Down keeps the column');
    await page.keyboard.press('ArrowRight');  // the field's text is selected: Right moves the caret to its end first
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await focused(), [1, 1], 'Right at the end of the text moves to the next field');
    await page.keyboard.press('ArrowUp');
    assert.deepEqual(await focused(), [0, 1]);
    // Typing, then moving on by arrow key, commits the number as leaving by Tab does.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0.5');
    await page.keyboard.press('ArrowDown');
    await settle(page);
    assert.deepEqual(await focused(), [1, 1]);
    assert.equal(await page.evaluate(() => document.getElementById('gqa').result.layer.x[0][1]), 0.5);
  });

  it('sets its attributes from values, and fires attention-change once the sections have them', { timeout: TEST_TIMEOUT }, async () => {
    const seen = await page.evaluate(() => new Promise((resolve) => {
      const inputs = document.getElementById('inputs');
      inputs.addEventListener('attention-change', (event) => resolve({
        tokens: event.detail.result.tokens,
        problem: event.detail.problem,
        values: inputs.values,
        gqa: [document.getElementById('gqa').getAttribute('tokens'), document.getElementById('gqa').getAttribute('seed')],
        count: document.getElementById('traffic').getAttribute('token-count'),
      }), { once: true });
      inputs.values = { tokens: ['one', 'two', 'three'] };
    }));
    assert.deepEqual(seen.tokens, ['one', 'two', 'three']);
    assert.equal(seen.problem, null);
    assert.equal(seen.values.seed, 1, 'no seed: the core\u2019s default');
    assert.equal(seen.values.x, null);
    assert.deepEqual(seen.gqa, ['one two three', null], 'an attribute the inputs do not have is removed from the sections');
    assert.equal(seen.count, '3');
    await settle(page);
    assert.deepEqual(await page.evaluate(() => document.getElementById('gqa').result.layer.tokens), ['one', 'two', 'three']);
  });

  it('names an author\u2019s mistakes in its box and on the console, and starts from what the core accepts', { timeout: TEST_TIMEOUT }, async () => {
    const bad = await page.evaluate(() => {
      const element = document.getElementById('bad');
      const box = element.shadowRoot.querySelector('.message');
      return { problem: element.problem, shown: !box.hidden, role: box.getAttribute('role'), values: element.values };
    });
    assert.equal(bad.problem, 'x attribute: has 1 row but there are 4 tokens (one row per token). Not used: the seeded vectors are used. '
      + 'for attribute: no element has the id \u201cnowhere\u201d; <p id="plain"> takes none of these inputs.');
    assert.deepEqual([bad.shown, bad.role], [true, 'alert']);
    assert.deepEqual(bad.values.tokens, ['the', 'cat', 'sat', 'on']);
    assert.equal(bad.values.x, null);
    assert.equal((await readTable(page, 'bad', 'x')).rows.length, 4);
    assert.deepEqual(await attributes('plain', ['tokens', 'seed', 'x']), { tokens: null, seed: null, x: null });
    assert.ok(opened.record.warnings.some((text) => text.startsWith('<attention-layer-inputs id="bad">: x attribute: has 1 row but')));
    assert.ok(opened.record.warnings.every((text) => !text.startsWith('<attention-layer-inputs id="inputs">')), 'a reader\u2019s typing is not an author\u2019s mistake');
    // Fixing the attribute: the author's vectors are used.
    await page.evaluate(() => document.getElementById('bad').setAttribute('x', JSON.stringify(Array.from({ length: 4 }, () => Array(16).fill(0.5)))));
    await settle(page);
    assert.match(await page.evaluate(() => document.getElementById('bad').problem), /^for attribute: /);
    assert.deepEqual(numbers(await readTable(page, 'bad', 'x')).flat().every((value) => value === 0.5), true);
  });

  // After the test above: the author's shape refused here is warned about, as an author's mistake.
  it('takes the layer\u2019s shape (d-model, n-heads), hands it on with the vectors, and refuses one the core cannot use', { timeout: TEST_TIMEOUT }, async () => {
    await page.evaluate(() => {
      const inputs = document.getElementById('inputs');
      inputs.removeAttribute('x');
      inputs.setAttribute('d-model', '12');
      inputs.setAttribute('n-heads', '2');
    });
    await settle(page);
    assert.equal(await message(), null);
    const table = await readTable(page, 'inputs', 'x');
    assert.equal(table.columns.length, 12);
    assert.deepEqual(await attributes('gqa', ['d-model', 'n-heads']), { 'd-model': '12', 'n-heads': '2' });
    assert.deepEqual(await attributes('tiles', ['d-model', 'n-heads']), { 'd-model': '12', 'n-heads': '2' });
    assert.deepEqual(await attributes('bill', ['d-model', 'n-heads']), { 'd-model': null, 'n-heads': null }, 'the bill takes only the toy\u2019s tokens');
    // Head 0 of the GQA layer, now 12 wide with two heads of 6, from the inputs' X in float64.
    await unfold(page, ['gqa']);
    const x = numbers(table);
    const [wq, wk, wv] = [await readWeights(page, 'gqa', 'w-q-0'), await readWeights(page, 'gqa', 'w-k-0'), await readWeights(page, 'gqa', 'w-v-0')];
    assert.deepEqual([wq.length, wq[0].length], [12, 6]);
    const q = matmul(x, wq);
    const head = attentionHead(q, matmul(x, wk), matmul(x, wv));
    assertTable(await readTable(page, 'gqa', 'q-0'), q, 3, 'Q of head 0');
    assertTable(await readTable(page, 'gqa', 'weights-0'), head.weights, 4, 'the weights of head 0');
    // A reader's number is checked, and handed on, in that shape.
    await edit(cell(0, 11), '0.5');
    assert.equal(JSON.parse((await attributes('gqa', ['x'])).x)[0][11], 0.5);
    assert.equal(await message(), null);

    // A shape the vectors do not fit, then one the core refuses (7 numbers do not split into 2
    // heads): each named, and the input stays.
    await page.evaluate(() => document.getElementById('inputs').setAttribute('d-model', '7'));
    await settle(page);
    assert.equal(await message(), 'x attribute, item 1: has 12 values; expected 7 (d-model). Not used: the input stays the last good one.');
    await page.evaluate(() => document.getElementById('inputs').removeAttribute('x'));
    await settle(page);
    assert.match(await message() ?? '', /^n-heads attribute: must divide d-model 7 .*Not used: the input stays the last good one\.$/);
    assert.equal((await readTable(page, 'inputs', 'x')).columns.length, 12);
    assert.equal((await attributes('gqa', ['d-model']))['d-model'], '12');
    assert.ok(opened.record.warnings.some((text) => text.startsWith('<attention-layer-inputs id="inputs">: n-heads attribute: ')));

    // Without the shape attributes the core's defaults come back, in the sections too.
    await page.evaluate(() => {
      const inputs = document.getElementById('inputs');
      for (const name of ['d-model', 'n-heads', 'x']) inputs.removeAttribute(name);
    });
    await settle(page);
    assert.equal(await message(), null);
    assert.equal((await readTable(page, 'inputs', 'x')).columns.length, 16);
    assert.deepEqual(await attributes('gqa', ['d-model', 'n-heads']), { 'd-model': null, 'n-heads': null });
  });
});
