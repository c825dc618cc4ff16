// The explorable page for every reader, in Chromium: axe-core finds no WCAG 2 A or AA violation
// in light or dark mode (on the article and on a busy state: sixteen tokens, the leaking mask);
// a 360 px screen never scrolls sideways; the step-through works by keyboard alone; every
// control is reachable by keyboard with a visible focus; cells say what they are to screen
// readers; the dark scheme, reduced motion and print are honoured.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { cellField } from './browser-harness.mjs';
import { TEST_TIMEOUT, readTable, startExploring } from './explore-harness.mjs';
import { COLOUR_RULES, WCAG_TAGS } from './browser-harness.mjs';

let explorer;
before(async () => { explorer = await startExploring(); });
after(async () => { await explorer?.close(); });

// `size` tokens of head_dim `size` and the leaking mask: sixteen is the widest the page gets.
async function busyHash(page, size = 16) {
  const tokens = Array.from({ length: size }, (_, n) => `word${n}`);
  const matrix = await page.evaluate(async (n) => {
    const { createAttention } = await import('./web/attention-explainer.js');
    return (await createAttention()).randomMatrix({ rows: n, cols: n, seed: 9, min: -2, max: 2, decimals: 2 });
  }, size);
  const json = encodeURIComponent(JSON.stringify(matrix));
  return `#tokens=${tokens.join('%20')}&q=${json}&k=${json}&v=${json}&mask=causal_zero&scale=sqrt_d&seed=1`;
}

// Light mode runs every WCAG 2 A/AA rule; dark mode, where nothing but colours changes, runs
// the rules whose outcome depends on colour (the states are large, and axe's time grows with them).
async function axeViolations(page, colorScheme) {
  const axe = new AxeBuilder({ page });
  const results = await (colorScheme === 'dark' ? axe.withRules(COLOUR_RULES) : axe.withTags(WCAG_TAGS)).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`);
}

describe('axe-core', { timeout: TEST_TIMEOUT * 2 }, () => {
  // One page checked in both schemes: each state first in light mode with every WCAG 2 A/AA
  // rule, then switched (emulateMedia) to the dark scheme and checked with the colour rules.
  // The busy state has six tokens: axe takes about a second per thousand elements, and sixteen
  // tokens make twenty thousand of the same kinds.
  it('reports no WCAG 2 A/AA violation in light mode, nor in dark mode\'s colours, on the article and on a busy state', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const checkBothSchemes = async (state, schemes) => {
        for (const colorScheme of schemes) {
          await page.emulateMedia({ colorScheme });
          assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), colorScheme === 'dark');
          assert.deepEqual(await axeViolations(page, colorScheme), [], `${state} (${colorScheme})`);
        }
      };
      // Open a head's disclosures and a copy menu too, so that what they hold is checked.
      const openSome = () => page.evaluate(() => {
        const heads = document.querySelector('attention-heads').shadowRoot;
        for (const details of heads.querySelectorAll('.head-card:first-child details, details.heads-wo')) details.open = true;
        document.querySelector('.table-tools').open = true;
      });
      await openSome();
      await page.locator('table[data-table="heads-1-wq"]').waitFor();
      await page.locator('table[data-table="weights"] td[data-row="1"][data-col="0"]').hover();
      await checkBothSchemes('the article', ['light', 'dark']);

      const hash = await busyHash(page, 6);
      await page.evaluate((h) => { window.location.hash = h; }, hash);
      await page.waitForFunction(() => document.querySelectorAll('.token-input').length === 6);
      await page.locator('.walk-toggle').click();
      await page.locator('.step-next').click();
      await page.locator('.walk-toggle').click();
      await openSome();
      await cellField(page, 'table[data-table="q"]', 0, 0).fill('abc');  // a refusal on screen
      // Still dark from the article: this state is checked dark first, then light.
      await checkBothSchemes('six tokens, causal_zero, a refused cell', ['dark', 'light']);
    } finally {
      await opened.close();
    }
  });
});

describe('on a 360 px screen', { timeout: TEST_TIMEOUT }, () => {
  it('never scrolls sideways, even with sixteen tokens of head_dim 16: wide tables scroll in their own box', async () => {
    const opened = await explorer.open('', { viewport: { width: 360, height: 740 } });
    try {
      const { page } = opened;
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(await overflow() <= 0, 'the article');
      await page.evaluate((h) => { window.location.hash = h; }, await busyHash(page));
      await page.waitForFunction(() => document.querySelectorAll('.token-input').length === 16);
      assert.ok(await overflow() <= 0, `sixteen tokens: the page is ${await overflow()}px too wide`);
      const boxes = await page.$$eval('.table-scroll', (all) => all.map((box) => ({
        scrolls: box.scrollWidth > box.clientWidth,
        right: box.getBoundingClientRect().right,
        overflowX: getComputedStyle(box).overflowX,
      })));
      assert.ok(boxes.some((box) => box.scrolls), 'the wide tables scroll');
      for (const box of boxes) {
        assert.ok(box.right <= 360, `a table box ends at ${box.right}px`);
        assert.equal(box.overflowX, 'auto');
      }
      const controls = await page.locator('.explore-controls').boundingBox();
      assert.ok(controls.x >= 0 && controls.x + controls.width <= 360, 'the controls fit');
    } finally {
      await opened.close();
    }
  });
});

describe('the step-through by keyboard alone', { timeout: TEST_TIMEOUT }, () => {
  it('starts with Enter, moves with the arrow keys and the buttons, and ends showing every step', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const visible = () => page.$$eval('main > section', (sections) => sections.filter((s) => !s.hidden).map((s) => s.dataset.walk ?? 'intro'));
      const focused = () => page.evaluate(() => document.activeElement?.className ?? '');
      // Tab from the top of the page to the walk button.
      let reached = false;
      for (let n = 0; n < 40 && !reached; n += 1) {
        await page.keyboard.press('Tab');
        reached = (await focused()) === 'walk-toggle';
      }
      assert.ok(reached, 'Tab reaches "Walk it step by step"');
      await page.keyboard.press('Enter');
      assert.deepEqual(await visible(), ['intro', 'inputs']);
      assert.equal(await focused(), 'step-next', 'focus moves to "Next step"');
      assert.match(await page.locator('.stepper-status').textContent(), /The inputs: Q, K and V \(1 of 7\)/);
      assert.match(page.url(), /step=0$/);

      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await visible(), ['intro', 'inputs', 'score']);
      assert.equal(await focused(), 'step-next');
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await visible(), ['intro', 'inputs', 'score', 'scale', 'mask']);
      assert.match(await page.locator('.stepper-status').textContent(), /Step 3 · Mask \(4 of 7\)/);
      assert.equal(await page.locator('[data-walk="mask"] .stepper').count(), 1, 'the bar follows the current step');

      await page.keyboard.press('ArrowLeft');
      assert.deepEqual(await visible(), ['intro', 'inputs', 'score', 'scale']);
      assert.equal(await focused(), 'step-previous', 'focus stays on the button that moved');
      await page.keyboard.press('Tab');
      assert.equal(await focused(), 'step-next');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      assert.deepEqual(await visible(), ['intro', 'inputs', 'score']);

      await page.goBack();  // the step is in the history too
      await page.waitForFunction(() => !document.querySelector('[data-walk="scale"]').hidden);
      await page.goForward();
      await page.waitForFunction(() => document.querySelector('[data-walk="scale"]').hidden);

      await page.locator('.step-next').focus();
      for (let n = 0; n < 5; n += 1) await page.keyboard.press('ArrowRight');
      assert.match(await page.locator('.stepper-status').textContent(), /Step 6 · A demonstration \(7 of 7\)/);
      assert.equal(await page.locator('.step-next').textContent(), 'Finish: show everything');
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('.stepper').count(), 0);
      assert.equal((await visible()).length, await page.locator('main > section').count(), 'every section is back');
      assert.equal(await focused(), 'walk-toggle');
      assert.equal(await page.locator('.walk-toggle').getAttribute('aria-pressed'), 'false');
    } finally {
      await opened.close();
    }
  });
});

describe('keyboard, focus and screen readers', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;
  before(async () => {
    opened = await explorer.open();
    page = opened.page;
  });
  after(async () => opened?.close());

  it('reaches every control with Tab (a table is one stop) and shows where the focus is', async () => {
    const stops = [];
    await page.locator('body').focus();
    for (let n = 0; n < 800; n += 1) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        // The focused element itself, also inside the shadow root of an element the page is
        // made of (where document.activeElement is only its host); its position is the path of
        // positions through those roots.
        let el = document.activeElement;
        if (!el || el === document.body) return null;
        let root = document;
        const path = [];
        for (;;) {
          path.push(Array.prototype.indexOf.call(root.querySelectorAll('*'), el));
          if (!el.shadowRoot?.activeElement) break;
          root = el.shadowRoot;
          el = root.activeElement;
        }
        const style = getComputedStyle(el);
        return {
          key: `${el.tagName.toLowerCase()}.${el.className}|${el.closest('[data-table]')?.dataset.table ?? ''}|${path.join('/')}`,
          outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
          ring: style.boxShadow !== 'none',
          arrowsBox: el.querySelector(':scope > svg.arrows') !== null,
        };
      });
      if (!stop || stops.some((s) => s.key === stop.key)) break;
      stops.push(stop);
    }
    const controls = await page.evaluate(() => Array.from(document.querySelectorAll(
      'main button:not([disabled]), main input:not([disabled]), main summary'))
      .filter((el) => el.checkVisibility() && !el.closest('table.navigable'))
      .filter((el) => !(el.type === 'radio' && !el.checked))  // a radio group is one stop
      .length);
    const reachedControls = stops.filter((s) => /^(button|input|summary)\./.test(s.key) && !/\|(q|k|v)\|/.test(s.key)).length;
    assert.ok(reachedControls >= controls, `${reachedControls} of ${controls} controls reached by Tab`);
    for (const table of ['q', 'k', 'v', 'scores', 'weights', 'head-dim-study', 'heads-out']) {
      assert.equal(stops.filter((s) => s.key.includes(`|${table}|`)).length, 1, `${table}: one Tab stop`);
    }
    const boxes = stops.filter((s) => s.key.startsWith('div.table-scroll'));
    assert.ok(boxes.length >= 1 && boxes.every((s) => s.arrowsBox),
      'a table\'s scrolling box is no extra stop (its cells are); only an arrows view\'s box is one');
    for (const stop of stops) assert.ok(stop.outline || stop.ring, `${stop.key}: a visible focus`);
  });

  it('names cells for screen readers by what they are', async () => {
    const label = (table, row, col) => page.locator(`table[data-table="${table}"] td[data-row="${row}"][data-col="${col}"]`).getAttribute('aria-label');
    assert.equal(await label('weights', 1, 0), 'weight of cat on the: 0.2799');
    assert.equal(await label('weights', 0, 1), 'weight of the on cat: 0.0000, masked');
    assert.equal(await label('scores', 1, 1), 'score of cat against cat: 2.090');
    assert.equal(await label('masked', 0, 1), 'masked score of the against cat: \u2212\u221e, masked');
    assert.equal(await label('softmax', 0, 1), 'eˣ of cat on the: 1.1052');
    const field = cellField(page, 'table[data-table="q"]', 1, 0);
    await field.focus();  // the table's one field moves into the cell, named for it
    assert.equal(await field.getAttribute('aria-label'), 'q0 of cat');
    assert.equal(await page.locator('table[data-table="weights"] td.row-sum[data-row="1"]').getAttribute('aria-label'), 'row sum of cat: 1.0000');
    assert.equal(await page.locator('.remove-token').first().getAttribute('aria-label'), 'Remove token 1, “the”');
    const tables = await page.$$eval('main table', (all) => all.map((t) => ({
      caption: Boolean(t.caption?.textContent), headers: t.querySelectorAll('thead th[scope="col"]').length, rows: t.querySelectorAll('tbody th[scope="row"]').length,
    })));
    assert.ok(tables.length > 25, `${tables.length} tables`);
    assert.ok(tables.every((t) => t.caption && t.headers > 0 && t.rows > 0), 'real tables: caption, column and row headers');
  });
});

describe('colour scheme, motion and print', { timeout: TEST_TIMEOUT }, () => {
  it('follows a dark colour scheme, with hatching that does not depend on colour', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const look = () => page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        masked: getComputedStyle(document.querySelector('table[data-table="weights"] td.masked')).backgroundImage,
      }));
      const light = await look();
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await look();
      assert.equal(light.body, 'rgb(255, 255, 255)');
      assert.equal(dark.body, 'rgb(20, 23, 28)');
      assert.notEqual(dark.text, light.text);
      assert.match(dark.masked, /repeating-linear-gradient/, 'masked cells stay hatched in the dark');
      const grid = await readTable(page, 'grid');
      assert.ok(grid.rows[3].cells.every((c) => c.text.length > 0), 'every cell still prints its number');
    } finally {
      await opened.close();
    }
  });

  it('drops transitions and smooth scrolling when the reader asks for reduced motion', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const motion = () => page.evaluate(() => ({
        cell: getComputedStyle(document.querySelector('table[data-table="scores"] td.num')).transitionDuration,
        scroll: getComputedStyle(document.documentElement).scrollBehavior,
      }));
      assert.deepEqual(await motion(), { cell: '0.15s, 0.15s', scroll: 'smooth' });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      assert.deepEqual(await motion(), { cell: '0s', scroll: 'auto' });
    } finally {
      await opened.close();
    }
  });

  it('prints the tables and prose without the controls, every step shown', async () => {
    const opened = await explorer.open('#step=1');
    try {
      const { page } = opened;
      await page.emulateMedia({ media: 'print' });
      const printed = await page.evaluate(() => ({
        controls: getComputedStyle(document.querySelector('.explore-controls')).display,
        tools: getComputedStyle(document.querySelector('.table-tools')).display,
        stepper: getComputedStyle(document.querySelector('.stepper')).display,
        hiddenStep: getComputedStyle(document.querySelector('[data-walk="mask"]')).display,
        scroll: getComputedStyle(document.querySelector('.table-scroll')).overflowX,
        masked: getComputedStyle(document.querySelector('td.masked')).printColorAdjust,
      }));
      assert.deepEqual(printed, { controls: 'none', tools: 'none', stepper: 'none', hiddenStep: 'block', scroll: 'visible', masked: 'exact' });
      const pdf = await page.pdf({ format: 'A4' });
      assert.ok(pdf.length > 10_000, 'the page prints');
    } finally {
      await opened.close();
    }
  });
});
