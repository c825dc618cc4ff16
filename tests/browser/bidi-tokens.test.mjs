// A token is the reader's own text: a right-to-left word, or a right-to-left override (U+202E)
// that it opens and never closes, must not turn around the sentence it is set in. Without the
// isolates of web/views/token-text.js, "softmax of the ‮evil row: weight = eˣ ÷ total" shows
// everything after the token backwards ("latot ÷ ˣe = thgiew :wor"), numbers of a working
// included. Checked on the screen: where each word of the sentence is drawn, left to right.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, SITE_ROOT, launchBrowser, openPage, startStaticServer } from './browser-harness.mjs';

const OVERRIDE = '\u202e';
const TOKENS = ['cat', `${OVERRIDE}evil`];
// Tokens outside the article's vocabulary come with their own vectors.
const HASH = `#tokens=${TOKENS.map(encodeURIComponent).join('%20')}` +
  ['q', 'k', 'v'].map((m) => `&${m}=${encodeURIComponent(JSON.stringify([[1, 0.5], [0.25, 1]]))}`).join('');

let browser;
let server;
before(async () => {
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE_ROOT, port: 0, csp: PAGE_CSP });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// Where each word's first appearance in the first element (light or shadow tree) whose text
// matches `pattern` is drawn ({left, top, height} of its box), after scrolling it into view
// (sections away from the screen are not laid out); null for a word not found in it.
function wordPositions(page, pattern, words) {
  return page.evaluate(({ source, words }) => {
    const pattern = new RegExp(source, 'u');
    const roots = [document];
    const found = [];
    while (roots.length) {
      const root = roots.pop();
      for (const node of root.querySelectorAll('*')) {
        if (node.shadowRoot) roots.push(node.shadowRoot);
        if (/^(caption|p|figcaption)$/u.test(node.localName) && pattern.test(node.textContent)) found.push(node);
      }
    }
    const [element] = found;
    if (!element) return null;
    element.scrollIntoView({ block: 'center' });
    const text = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) text.push(node);
    return words.map((word) => {
      for (const node of text) {
        const at = node.data.indexOf(word);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const { left, top, height } = range.getBoundingClientRect();
        return { left, top, height };
      }
      return null;
    });
  }, { source: pattern.source, words });
}

// In reading order: each word on a later line than the one before it, or on the same line and
// further right (a caption may wrap).
function assertReadingOrder(positions, words, where) {
  assert.ok(positions, `${where}: the sentence was not found`);
  positions.forEach((box, n) => assert.notEqual(box, null, `${where}: "${words[n]}" was not found`));
  for (let n = 1; n < words.length; n += 1) {
    const [before, box] = [positions[n - 1], positions[n]];
    const lowerLine = box.top >= before.top + before.height / 2;
    const sameLine = Math.abs(box.top - before.top) < before.height / 2;
    assert.ok(lowerLine || (sameLine && before.left < box.left),
      `${where}: "${words[n]}" (${JSON.stringify(box)}) is drawn before "${words[n - 1]}" (${JSON.stringify(before)})`);
  }
}

describe('tokens that hold right-to-left text or overrides', () => {
  it('leave part one\u2019s captions and prose in their order', async () => {
    const { page, problems, close } = await openPage(browser, `${server.url}index.html${HASH}`);
    try {
      const caption = ['softmax', 'row:', 'weight', 'total'];
      assertReadingOrder(await wordPositions(page, /softmax of the .*evil.* row/, caption), caption, 'step 4\u2019s caption');
      const mix = ['mix:', 'value', 'row'];
      assertReadingOrder(await wordPositions(page, /mix: weight .* value for the .*evil/, mix), mix, 'step 5\u2019s caption');
      const prose = ['scores', 'against', 'itself', 'and', 'against'];
      assertReadingOrder(await wordPositions(page, /scores .* against itself and /, prose.slice(0, 4)), prose.slice(0, 4),
        'the sentence of the dot products');
      assert.equal(await page.locator('#link-problem').isHidden(), true, 'the link was taken');
      assert.deepEqual(problems.pageErrors, []);
    } finally {
      await close();
    }
  });

  it('leave a working\u2019s line in its order, numbers included', async () => {
    const { page, close } = await openPage(browser, `${server.url}index.html${HASH}`);
    try {
      // The working of the weight of the overriding token on the first one: pointing at the cell
      // shows it.
      const title = ['weight', 'of', 'on', 'cat'];
      const shown = await page.evaluate(() => {
        const roots = [document];
        while (roots.length) {
          const root = roots.pop();
          for (const node of root.querySelectorAll('*')) {
            if (node.shadowRoot) roots.push(node.shadowRoot);
            if (node.matches('table[data-table="weights"] td.num[data-row="1"][data-col="0"]')) {
              node.scrollIntoView({ block: 'center' });
              node.focus();
              node.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
              return true;
            }
          }
        }
        return false;
      });
      assert.ok(shown, 'the weights table has the cell');
      assertReadingOrder(await wordPositions(page, /^weight of .*evil.* on cat$/, title), title, 'the working\u2019s title');
    } finally {
      await close();
    }
  });
});
