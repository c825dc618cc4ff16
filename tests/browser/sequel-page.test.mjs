// The sequel page as a reader meets it: served with the strict policy it runs without a
// violation or an error; axe-core finds no WCAG 2 A/AA violation in light or dark mode; at 360 px
// the page never scrolls sideways; the working of a figure shows on hover and on keyboard focus;
// the reader's settings go into the URL hash and a fresh page opened with that hash shows the
// same settings and numbers; a malformed hash is named in a message while the page works from
// the defaults; an edited token vector reaches every section; the page links back to part one.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES, WCAG_TAGS, allText } from './browser-harness.mjs';
import {
  AXE_TIMEOUT, openSequel, PAGE_CSP, readTable, settle, TEST_TIMEOUT, unfold, useSequelPage,
} from './sequel-harness.mjs';

const sequel = useSequelPage({ open: false });

const SECTION_IDS = ['variant-mha', 'variant-gqa', 'variant-mqa', 'variant-mla', 'flash-tiles', 'quantised-cache', 'kv-bill'];

// The <attention-variant> instances whose folded projection tables axe-core checks (and which are
// colour-checked in dark mode), and those whose projection tables stay folded (and which are left
// out of dark mode's colour check).
const DARK_CHECKED_VARIANTS = ['variant-gqa', 'variant-mla'];
const DARK_SKIPPED_VARIANTS = ['variant-mha', 'variant-mqa'];

// The kinds of element (tag and sorted classes) inside the shadow roots of `skipped` that occur
// in none of `checked`: none means the checked instances hold every styled thing the others do.
function kindsMissing(page, skipped, checked) {
  return page.evaluate(([left, kept]) => {
    const kinds = (ids) => new Set(ids.flatMap((id) => [...document.getElementById(id).shadowRoot.querySelectorAll('*')]
      .map((node) => `${node.localName}.${[...node.classList].sort().join('.')}`)));
    const present = kinds(kept);
    return [...kinds(left)].filter((kind) => !present.has(kind));
  }, [skipped, checked]);
}

/** Closes the folded parts of these elements again (what they drew stays, hidden). */
function fold(page, hostIds) {
  return page.evaluate((ids) => {
    for (const id of ids) {
      for (const details of document.getElementById(id).shadowRoot.querySelectorAll('details')) details.open = false;
    }
  }, hostIds);
}

function sectionProblems(page) {
  return page.evaluate((ids) => ids.map((id) => [id, document.getElementById(id).problem]), SECTION_IDS);
}

describe('the sequel page', () => {
  // One load (light scheme, 1100 px) for two tests: what the load left behind is read first, and
  // then axe-core checks the same page, which the first test only reads and never changes.
  describe('as loaded', () => {
    let opened;
    before(async () => { opened = await openSequel(sequel.browser, sequel.server, { colorScheme: 'light' }); });
    after(async () => { await opened?.close(); });

    it('runs under the strict policy with no violation, error or failed request', { timeout: TEST_TIMEOUT }, async () => {
      assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
      assert.deepEqual(await opened.cspViolations(), []);
      assert.deepEqual(opened.record.pageErrors, []);
      assert.deepEqual(opened.record.errors, []);
      assert.deepEqual(opened.record.warnings, []);
      assert.deepEqual(opened.record.failedRequests, []);
      const state = await opened.page.evaluate(() => ({
        status: document.getElementById('load-status').textContent,
        inlineScripts: [...document.scripts].filter((script) => !script.src).length,
        styleAttributes: document.querySelectorAll('[style]').length,
        styleElements: document.querySelectorAll('style').length,
        hash: location.hash,
        back: document.querySelector('.site-nav a[href="./index.html"]')?.textContent ?? null,
      }));
      assert.match(state.status, /computed just now/);
      assert.equal(state.inlineScripts, 0);
      assert.equal(state.styleAttributes + state.styleElements, 0);
      assert.equal(state.hash, '', 'the defaults leave the address alone');
      assert.ok(state.back, 'a link back to part one');
      assert.deepEqual((await sectionProblems(opened.page)).filter(([, problem]) => problem !== null), []);
      // Each element draws in an open shadow root styled by adopted stylesheets.
      const styled = await opened.page.evaluate((ids) => ids.map((id) => {
        const root = document.getElementById(id).shadowRoot;
        return [root.mode, root.adoptedStyleSheets.length, root.querySelectorAll('style').length];
      }), SECTION_IDS);
      for (const entry of styled) assert.deepEqual(entry, ['open', 2, 0]);
    });

    // The page, checked in light mode with every WCAG 2 A/AA rule over the whole page, then
    // switched to the dark scheme and checked again with the rules whose outcome depends on colour
    // (only colours change between the schemes; the page is the largest of the site, and axe's
    // colour-contrast time grows with its elements). The four <attention-variant> sections are one
    // element with one stylesheet: in dark mode the two with controls (GQA, MLA) are checked and MHA
    // and MQA are left out, after asserting that every kind of element (tag and classes) inside the
    // left-out ones also occurs inside the checked ones. Everything else on the page, the page's own
    // content included, is colour-checked in dark mode as well.
    it('has no WCAG 2 A/AA violation in light mode, nor in dark mode\'s colours (axe-core)', { timeout: AXE_TIMEOUT * 2 }, async () => {
      // Open the folded projection tables, so that they are checked too; once every kind of element
      // in MHA's and MQA's is known to occur in GQA's or MLA's, fold MHA's and MQA's again (the same
      // element draws all four; axe-core's time grows with the page's visible elements).
      await unfold(opened.page, SECTION_IDS);
      const unchecked = await kindsMissing(opened.page, DARK_SKIPPED_VARIANTS, DARK_CHECKED_VARIANTS);
      assert.deepEqual(unchecked, [], 'every kind of element in MHA and MQA is checked in GQA or MLA');
      await fold(opened.page, DARK_SKIPPED_VARIANTS);
      for (const colorScheme of ['light', 'dark']) {
        await opened.page.emulateMedia({ colorScheme });
        await settle(opened.page);
        const background = await opened.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(background, colorScheme === 'dark' ? 'rgb(20, 23, 28)' : 'rgb(255, 255, 255)');
        const axe = new AxeBuilder({ page: opened.page });
        if (colorScheme === 'light') axe.withTags(WCAG_TAGS);
        else {
          axe.withRules(COLOUR_RULES);
          for (const id of DARK_SKIPPED_VARIANTS) axe.exclude(`#${id}`);
        }
        const results = await axe.analyze();
        const summary = results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        assert.deepEqual(summary, [], `${colorScheme} mode`);
        assert.ok(results.passes.length >= (colorScheme === 'light' ? 10 : 1), `axe ran its checks (${colorScheme})`);
        if (colorScheme === 'dark') {
          const contrast = results.passes.find((rule) => rule.id === 'color-contrast');
          // A node inside a shadow root is targeted as [host, inner selector].
          const hosts = new Set(contrast.nodes.map(({ target: [first] }) => (Array.isArray(first) ? first[0] : first)));
          for (const id of DARK_CHECKED_VARIANTS) assert.ok(hosts.has(`#${id}`), `#${id} colour-checked in dark mode`);
          for (const id of DARK_SKIPPED_VARIANTS) assert.ok(!hosts.has(`#${id}`), `#${id} left out in dark mode`);
        }
      }
    });
  });

  it('fits a 360 px screen without sideways scrolling', { timeout: TEST_TIMEOUT }, async () => {
    const opened = await openSequel(sequel.browser, sequel.server, { viewport: { width: 360, height: 740 } });
    try {
      const overflow = await opened.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
      const wide = await opened.page.evaluate(() => {
        const host = document.getElementById('kv-bill');
        const region = host.shadowRoot.querySelector('table[data-table="bill-presets"]').closest('.table-scroll');
        return { scrolls: region.scrollWidth > region.clientWidth, focusable: region.tabIndex === 0, hostWidth: host.getBoundingClientRect().width };
      });
      assert.ok(wide.scrolls && wide.focusable, 'a wide table scrolls in its own focusable box');
      assert.ok(wide.hostWidth <= 360);
    } finally {
      await opened.close();
    }
  });

  it('shows a figure\u2019s working on hover and on keyboard focus, and the arrow keys move between cells', { timeout: TEST_TIMEOUT }, async () => {
    const opened = await openSequel(sequel.browser, sequel.server);
    const { page } = opened;
    try {
      const cell = page.locator('#kv-bill table[data-table="bill-compare"] tr[data-key="bytes_per_token_per_layer"] td[data-column="model"]');
      await cell.hover();
      const panel = page.locator('#kv-bill [data-part="compare"] .cell-working');
      assert.match(await panel.textContent(), /2 · n_kv_heads · head_dim · dtype_bytes.*2 · 8 · 128 · 2 = 4096/s);
      // Keyboard: the table is one Tab stop; the arrow keys move, and focus shows the working.
      const first = page.locator('#kv-bill table[data-table="bill-compare"] td.has-working').first();
      await first.focus();
      assert.equal(await first.getAttribute('tabindex'), '0');
      await page.keyboard.press('ArrowDown');
      const focused = await page.evaluate(() => {
        const active = document.getElementById('kv-bill').shadowRoot.activeElement;
        return { key: active?.closest('tr')?.dataset.key, tabIndex: active?.tabIndex };
      });
      assert.equal(focused.tabIndex, 0);
      assert.ok(focused.key, 'a cell of the next row has the focus');
      assert.match(await panel.textContent(), /bytes per/);
      const outline = await page.evaluate(() => getComputedStyle(document.getElementById('kv-bill').shadowRoot.activeElement).outlineStyle);
      assert.equal(outline, 'solid', 'the focused cell is outlined');
      // A tile's rescale factor shows its exponent.
      await page.locator('#flash-tiles table[data-table="tile-3-running"] td[data-row="1"][data-col="3"]').hover();
      assert.match(await page.locator('#flash-tiles section[data-step="3"] .cell-working').textContent(), /e\^\(m before − m after\) = e\^\(/);
    } finally {
      await opened.close();
    }
  });

  it('keeps the reader\u2019s settings in the hash, and a page opened with it shows the same', { timeout: TEST_TIMEOUT }, async () => {
    const opened = await openSequel(sequel.browser, sequel.server);
    const { page } = opened;
    let hash;
    let before;
    try {
      await page.fill('#layer-inputs [data-control="tokens"]', 'I think therefore I am');
      await page.press('#layer-inputs [data-control="tokens"]', 'Enter');
      await page.fill('#layer-inputs [data-control="seed"]', '7');
      await page.press('#layer-inputs [data-control="seed"]', 'Enter');
      await settle(page);
      const cell = page.locator('#layer-inputs table[data-table="x"] input[data-row="1"][data-col="2"]');
      await cell.fill('0.25');
      await cell.press('Tab');
      const set = async (host, control, value) => {
        const input = page.locator(`#${host} [data-control="${control}"]`);
        if ((await input.evaluate((node) => node.tagName)) === 'SELECT') await input.selectOption(value);
        else {
          await input.fill(value);
          await input.press('Enter');
        }
        await settle(page);
      };
      await set('variant-gqa', 'n-kv-heads', '1');
      await set('variant-mla', 'd-latent', '4');
      await set('flash-tiles', 'block-rows', '3');
      await set('flash-tiles', 'block-cols', '4');
      await set('quantised-cache', 'rotation', 'none');
      await page.locator('#quantised-cache input[type="checkbox"][value="8"]').uncheck();
      await settle(page);
      await set('kv-bill', 'preset', 'falcon-7b');
      await set('kv-bill', 'batch', '16');
      hash = await page.evaluate(() => location.hash);
      for (const part of ['tokens=I%20think%20therefore%20I%20am', 'seed=7', 'x=[[', 'gqa.n-kv-heads=1', 'mla.d-latent=4',
        'flash.block-rows=3', 'flash.block-cols=4', 'quant.rotation=none', 'quant.bits=4,3,2', 'bill.preset=falcon-7b', 'bill.batch=16']) {
        assert.ok(hash.includes(part), `the hash ${hash.slice(0, 80)}… holds ${part}`);
      }
      before = await page.evaluate((ids) => ids.map((id) => JSON.stringify(document.getElementById(id).result)), SECTION_IDS);
      assert.deepEqual((await sectionProblems(page)).filter(([, problem]) => problem !== null), []);
    } finally {
      await opened.close();
    }
    const again = await openSequel(sequel.browser, sequel.server, { hash });
    try {
      const after_ = await again.page.evaluate((ids) => ids.map((id) => JSON.stringify(document.getElementById(id).result)), SECTION_IDS);
      assert.deepEqual(after_, before, 'every section computed the same from the link');
      const controls = await again.page.evaluate(() => ({
        tokens: document.getElementById('layer-inputs').shadowRoot.querySelector('[data-control="tokens"]').value,
        seed: document.getElementById('layer-inputs').shadowRoot.querySelector('[data-control="seed"]').value,
        x: document.getElementById('layer-inputs').shadowRoot.querySelector('table[data-table="x"] input[data-row="1"][data-col="2"]').value,
        kv: document.getElementById('variant-gqa').shadowRoot.querySelector('[data-control="n-kv-heads"]').value,
        rows: document.getElementById('flash-tiles').shadowRoot.querySelector('[data-control="block-rows"]').value,
        preset: document.getElementById('kv-bill').shadowRoot.querySelector('[data-control="preset"]').value,
        hash: location.hash,
      }));
      assert.deepEqual(controls, { tokens: 'I think therefore I am', seed: '7', x: '0.25', kv: '1', rows: '3', preset: 'falcon-7b', hash });
      const map = await readTable(again.page, 'flash-tiles', 'tile-map');
      assert.deepEqual(map.rows.map((row) => row.label), ['I', 'think', 'therefore', 'I', 'am']);
    } finally {
      await again.close();
    }
  });

  it('names what it cannot use in a malformed hash and works from the defaults', { timeout: TEST_TIMEOUT }, async () => {
    const hash = '#seed=banana&nonsense=1&flash.block-rows=99&bill.preset=gpt-9&x=[[1,2&%E0%A4%A';
    const opened = await openSequel(sequel.browser, sequel.server, { hash });
    const { page } = opened;
    try {
      const message = await page.evaluate(() => {
        const node = document.getElementById('link-problem');
        return node.hidden ? null : node.textContent;
      });
      assert.ok(message, 'the link\u2019s problems are shown');
      for (const part of ['seed', 'nonsense', 'x', 'percent-encoding']) assert.ok(message.includes(part), `the message names ${part}: ${message}`);
      // Values that only an element can judge are reported in that element's box.
      const problems = Object.fromEntries(await sectionProblems(page));
      assert.match(problems['flash-tiles'], /^block-rows attribute: must be a whole number from 1 to 4, got 99/);
      assert.match(problems['kv-bill'], /^preset attribute: must be one of/);
      assert.equal(problems['variant-gqa'], null);
      assert.equal(problems['quantised-cache'], null);
      assert.deepEqual(opened.record.pageErrors, []);
      // The controls stay, the field at fault is marked, and fixing the value brings the section back.
      const rows = page.locator('#flash-tiles [data-control="block-rows"]');
      assert.equal(await rows.getAttribute('aria-invalid'), 'true');
      assert.equal(await rows.inputValue(), '99');
      await rows.fill('2');
      await rows.press('Enter');
      await settle(page);
      assert.equal(await page.evaluate(() => document.getElementById('flash-tiles').problem), null);
      assert.equal(await rows.getAttribute('aria-invalid'), null);
      assert.ok(await readTable(page, 'flash-tiles', 'flash-out'));
    } finally {
      await opened.close();
    }
  });

  it('counts one of a thing in the singular, with one token and one-wide tiles and caches', { timeout: TEST_TIMEOUT }, async () => {
    const hash = '#tokens=a&mla.d-latent=1&bill.preset=&bill.layers=1&bill.sliding-window=1&bill.local-layers=1';
    const opened = await openSequel(sequel.browser, sequel.server, { hash });
    const { page } = opened;
    try {
      const texts = (await allText(page)).replace(/\s+/gu, ' ');
      assert.ok(texts.includes('tiles of 1 query \u00d7 1 key'), 'tiles of one query and one key');
      assert.ok(texts.includes('1 tile computed'), 'one tile computed');
      assert.ok(texts.includes('1 token)'), 'a bill of one token');
      assert.ok(texts.includes('keeps 1 number,'), 'a latent of one number');
      assert.ok(texts.includes('on its one layer'), 'a window on the one layer');
      // No count of one before a plural noun ("1 × 1 scores" names a grid, not a count).
      const plurals = [...texts.matchAll(/(?<!\u00d7 )\b1 (tokens|queries|keys|tiles|numbers|layers|heads|rows|values|steps)\b/gu)]
        .map((m) => texts.slice(m.index - 30, m.index + 20));
      assert.deepEqual(plurals, []);
      assert.deepEqual(opened.record.pageErrors, []);
    } finally {
      await opened.close();
    }
  });

  it('refuses a number it cannot use in X, names it, and keeps the last good input', { timeout: TEST_TIMEOUT }, async () => {
    const opened = await openSequel(sequel.browser, sequel.server);
    const { page } = opened;
    try {
      const cell = page.locator('#layer-inputs table[data-table="x"] input[data-row="0"][data-col="0"]');
      await cell.fill('abc');
      await cell.press('Tab');
      assert.equal(await cell.inputValue(), '\u22121', 'the refused cell is back to its value');
      assert.match(await page.locator('#layer-inputs .message').textContent(), /x0 of “the”: “abc” is not a number/);
      await cell.fill('1e20');
      await cell.press('Tab');
      assert.match(await page.locator('#layer-inputs .message').textContent(), /x\[0\]\[0\]/);
      const x00 = await page.evaluate(() => document.getElementById('variant-mha').result.layer.x[0][0]);
      assert.equal(x00, -1, 'the sections keep the seeded value');
      await cell.fill('0.5');
      await cell.press('Tab');
      await settle(page);
      const values = await page.evaluate(() => ['variant-mha', 'variant-mla', 'flash-tiles'].map((id) => document.getElementById(id).getAttribute('x')?.slice(0, 6)));
      assert.deepEqual(values, ['[[0.5,', '[[0.5,', '[[0.5,']);
      assert.equal(await page.locator('#layer-inputs .message').isHidden(), true);
    } finally {
      await opened.close();
    }
  });
});
