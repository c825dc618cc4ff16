// Every way an author can get an attribute wrong (tests/browser/fixtures/bad-attributes.html):
// each element shows, inside its own box, a short message naming the attribute and what is
// wrong, says the same on the console once, and the rest of the page keeps working. And tokens
// or attribute values that look like markup (fixtures/markup.html, and the embed page's hash)
// are shown as text: no element is created from them and no script runs.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  TEST_TIMEOUT, assertTable, openHostPage, readMessage, readShadowTable, referenceAttention,
  startBrowserAndHost, stopBrowserAndHost, waitForElements,
} from './embed-harness.mjs';

const MARKUP = '<img src=x onerror=alert(1)>';

// [element id, attribute named, what the message must say after "<attribute> attribute…: "]
const CASES = [
  ['bad-json', 'q', /^q attribute: is not a JSON array of rows: expected "," or "\]" at character \d+, the text ends$/],
  ['ragged', 'k', /^k attribute, row 2: has 3 values but q rows have 4 \(head_dim\)$/],
  ['shape', 'v', /^v attribute: has 3 rows but there are 2 tokens \(one row per token\)$/],
  ['not-a-number', 'q', /^q attribute, row 1, column 2: must be a finite number, got "NaN"$/],
  ['too-big', 'v', /^v attribute, row 1, column 1: is 1e16, outside the allowed range of ±1e15$/],
  // Tokens alone go to the trained head (api/trained-input.js), whose model has 16 positions.
  ['too-many', 'tokens', /^tokens attribute: has 65 words; the limit is 16 \(the rows of the position table\)$/],
  ['no-tokens', 'tokens', /^tokens attribute: is empty; give at least one word$/],
  ['tokens-rows', 'k', /^k attribute: has 2 rows but there are 3 tokens .*\(k is not set, so the article's example is used for it\)$/],
  // Tokens alone take the trained head's Q, K and V: a word it does not know is refused.
  ['tokens-unknown', 'tokens', /^tokens attribute, token 2: "cta" is not in the vocabulary of 38 words; nearest: cat, /],
  ['bad-step', 'steps', /^steps attribute: unknown step "softmaxx"; the steps are q, k, v, scores, /],
  ['bad-mask', 'mask', /^mask attribute: must be "causal".*"none".*got "diagonal"$/],
  ['bad-scale', 'scale', /^scale attribute: must be "sqrt_d", "d" or "none", got "cube_root"$/],
  ['bad-row', 'row', /^row attribute: there is no token 7: the tokens are numbered 0 to 1$/],
  ['unknown-step', 'step', /^step attribute: unknown step "attention"/],
  ['missing-step', 'step', /^step attribute: is missing; name one of q, k, v/],
  ['bad-table-name', 'table-name', /^table-name attribute: must be a letter followed by letters, digits, hyphens or underscores, got "my table"$/],
  ['empty-caption', 'caption', /^caption attribute: is empty; leave it out to keep the step’s own caption$/],
  ['bad-col', 'col', /^col attribute: "first" is not a whole number/],
  ['bad-of', 'of', /^of attribute: must be "score" or "weight", got "everything"$/],
  ['missing-model', 'model', /^model attribute: there is no <attention-model id="nowhere"> in this page$/],
  ['wrong-model', 'model', /^model attribute: the element with id "not-a-model" is a <p>, not an <attention-model>/],
  ['broken', 'mask', /^mask attribute: must be "causal".*"none".*got "sideways"$/],
];

let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

describe('bad attributes', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;

  before(async () => {
    opened = await openHostPage(browser, server.fixture('bad-attributes.html'));
    page = opened.page;
    await waitForElements(page);
  });

  after(() => opened?.close());

  for (const [id, attribute, pattern] of CASES) {
    it(`#${id}: names the ${attribute} attribute in its own box and on the console`, async () => {
      const message = await readMessage(page, id);
      assert.ok(message, `#${id} shows a message`);
      const prefix = /^<attention-[a-z-]+> not shown\. /;
      assert.match(message, prefix, 'says which element could not be shown');
      const text = message.replace(prefix, '');
      assert.match(text, pattern);
      assert.ok(text.length < 200, `short: ${text.length} characters`);
      const layout = await page.evaluate((hostId) => {
        const host = document.getElementById(hostId);
        const box = host.getBoundingClientRect();
        const shown = host.shadowRoot.querySelector('.message:not(.edit-message)').getBoundingClientRect();
        return {
          inside: shown.top >= box.top && shown.bottom <= box.bottom && shown.left >= box.left && shown.right <= box.right,
          visible: shown.height > 0,
          tables: host.shadowRoot.querySelectorAll('table, svg').length,
          role: host.shadowRoot.querySelector('.message').getAttribute('role'),
          trace: host.trace,
        };
      }, id);
      assert.ok(layout.inside && layout.visible, 'the message is inside the element\u2019s own box');
      assert.equal(layout.tables, 0, 'no half-computed tables');
      assert.equal(layout.role, 'alert');
      if (['tokens', 'q', 'k', 'v', 'mask', 'scale', 'model'].includes(attribute)) {
        assert.equal(layout.trace, null, 'a bad input leaves no trace');
      }
      const tag = await page.evaluate((hostId) => document.getElementById(hostId).localName, id);
      const warnings = opened.record.warnings.filter((w) => w.startsWith(`<${tag} id="${id}">: `));
      assert.deepEqual(warnings, [`<${tag} id="${id}">: ${text}`], 'the console says the same, once');
    });
  }

  it('a piece of a broken model says so in its box, without repeating the warning', async () => {
    const message = await readMessage(page, 'broken-piece');
    assert.match(message, /the model "broken" it shows has a problem: mask attribute: must be "causal".*got "sideways"/);
    assert.equal(opened.record.warnings.filter((w) => w.includes('id="broken-piece"')).length, 0);
  });

  it('the rest of the page keeps working: the correct explainer computes', async () => {
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
    assert.equal(await readMessage(page, 'good'), null);
    const article = await page.evaluate(async () => {
      const { createAttention } = await import('../site/web/attention-explainer.js');
      return (await createAttention()).article();
    });
    assertTable(await readShadowTable(page, 'good', 'scores'), referenceAttention(article.two_words).scores, 3, 'good');
  });

  it('fixing the attribute brings the element back, and breaking it again says so again', async () => {
    const state = await page.evaluate(async () => {
      const el = document.getElementById('bad-mask');
      el.setAttribute('mask', 'none');
      await new Promise((resolve) => setTimeout(resolve, 0));
      const fixed = { message: el.shadowRoot.querySelector('.message').hidden, mask: el.trace?.mask };
      el.q = [[Number.NaN, 0, 0, 0], [0, 0, 0, 0]];   // a property, not JSON: NaN itself
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { fixed, broken: el.shadowRoot.querySelector('.message').textContent };
    });
    assert.deepEqual(state.fixed, { message: true, mask: 'none' });
    assert.match(state.broken, /q attribute, row 1, column 1: must be a finite number, got "NaN"/);
  });
});

// Every element of the document and of every open shadow root in it.
function allElements(page) {
  return page.evaluate(() => {
    const found = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        found.push(el.localName);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return found;
  });
}

describe('tokens and values that look like markup', { timeout: TEST_TIMEOUT }, () => {
  it('are shown as text in tables, workings, arrows and messages; no element, no script', async () => {
    const opened = await openHostPage(browser, server.fixture('markup.html'));
    try {
      const { page } = opened;
      await waitForElements(page);
      await page.waitForTimeout(200);   // an onerror would have fired by now
      assert.deepEqual(opened.record.dialogs, [], 'no alert ran');
      assert.deepEqual(opened.record.pageErrors, []);
      const tags = await allElements(page);
      assert.ok(!tags.includes('img') && !tags.includes('b'), `no element made from a token: ${[...new Set(tags)].join(', ')}`);
      assert.equal(tags.filter((tag) => tag === 'script').length, 1, 'only the page\u2019s own <script>');
      assert.ok(!opened.record.requests.some((url) => url.endsWith('/x')), 'nothing fetched for src=x');

      const q = await readShadowTable(page, 'one-token', 'q');
      assert.deepEqual(q.rows.map((row) => row.label), [MARKUP, '<b>cat</b>']);
      const scores = await readShadowTable(page, 'one-token', 'scores');
      assert.deepEqual(scores.columns, [MARKUP, '<b>cat</b>']);
      const split = await readShadowTable(page, 'split-tokens', 'q');
      assert.deepEqual(split.rows.map((row) => row.label), ['<img', 'src=x', 'onerror=alert(1)>']);
      const texts = await page.evaluate(() => ({
        arrows: [...document.getElementById('one-token').shadowRoot.querySelectorAll('svg text')].map((t) => t.textContent),
        titles: [...document.getElementById('markup-arrows').shadowRoot.querySelectorAll('svg title')].map((t) => t.textContent),
        working: document.getElementById('markup-working').shadowRoot.querySelector('.working-title').textContent,
        workingLabel: document.getElementById('markup-working').shadowRoot.querySelector('.working').getAttribute('aria-label'),
        softmax: document.getElementById('one-token').shadowRoot.querySelector('table[data-table="softmax"] caption').textContent,
      }));
      assert.deepEqual(texts.arrows, [MARKUP, '<b>cat</b>']);
      assert.ok(texts.titles.some((title) => title.startsWith(`<script>alert(2)</script> \u2192 ${MARKUP}: weight `)),
        JSON.stringify(texts.titles));
      assert.equal(texts.working, `q<script>alert(2)</script> \u00b7 k${MARKUP}`);
      assert.match(texts.workingLabel, /<script>alert\(2\)<\/script>/);
      assert.match(texts.softmax, /the <b>cat<\/b> row/);
      const message = await readMessage(page, 'markup-value');
      assert.match(message, /q attribute: is not a JSON array of rows: expected "\[" at character 1, found "<img src\u2026"/u);
    } finally {
      await opened.close();
    }
  });

  it('in the embed page\u2019s hash, too', async () => {
    // With q, k and v: tokens alone would go to the trained head, which knows neither word.
    const hash = `#tokens=${encodeURIComponent(JSON.stringify([MARKUP, 'cat']))}&q=[[1,0],[0,1]]&k=[[1,0],[0,1]]&v=[[1,2],[3,4]]&steps=q,arrows`;
    const opened = await openHostPage(browser, `${server.url}site/embed.html${hash}`);
    try {
      const { page } = opened;
      await waitForElements(page);
      assert.deepEqual(opened.record.dialogs, []);
      const tags = await allElements(page);
      assert.ok(!tags.includes('img'));
      const q = await readShadowTable(page, 'embedded', 'q');
      assert.deepEqual(q.rows.map((row) => row.label), [MARKUP, 'cat']);
    } finally {
      await opened.close();
    }
  });
});
