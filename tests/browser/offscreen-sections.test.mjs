// Part one's sections away from the screen are laid out only when the reader comes near them
// (site/styles/offscreen.css): at load, a table of the questions at the end of the page is not
// rendered yet while the example's at the top is; scrolled to, it is; printed, every section
// is, without scrolling. And the clipping that skipping brings (a skipped section paints
// nothing outside its box) cuts nothing off: at 1280 and 360 px no element reaches past a box
// that clips its painting, the layer of heads (wider than the column at 1280 px) included, and
// none on the benchmark page, whose sections the same stylesheet skips.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TIMEOUT, settlePage, startBrowserAndHost, stopBrowserAndHost } from './embed-harness.mjs';
import { twoFrames } from './browser-harness.mjs';

let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

async function openPage(width, name = 'index.html') {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(new URL(`site/${name}`, server.url).href);
  // Part one says "done" once everything is computed; the benchmark page, once it has shown
  // its results or said that there are none yet.
  await page.waitForFunction((pageName) => {
    const status = document.getElementById('load-status');
    return status.classList.contains('done') || (pageName === 'benchmark.html' && !status.textContent.startsWith('Loading'));
  }, name);
  return { page, close: () => context.close() };
}

// Whether a table is rendered: checkVisibility() counts a table in a skipped section as hidden.
const rendered = (page, name) => page.$eval(`table[data-table="${name}"]`,
  (table) => table.checkVisibility({ contentVisibilityAuto: true }));

// Scrolls from the top to the end a screen at a time, two frames each, so that every section
// has been laid out once and keeps its real height (a section never shown counts as 900 px, and
// what is measured inside it would seem to reach past it).
const scrollThrough = (page) => page.evaluate(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
    window.scrollTo({ top: y, behavior: 'instant' });
    await frame();
  }
});

// Elements (shadow roots included) reaching more than a pixel past the nearest ancestor that
// clips their painting: content-visibility, paint containment, or overflow hidden or clip.
// (A scrolling box is where reaching past is meant: what is inside one is not looked at.)
function cutOff(page) {
  return page.evaluate(() => {
    const parentOf = (el) => el.parentElement ?? el.getRootNode().host ?? null;
    const clipper = (el) => {
      for (let a = parentOf(el); a; a = parentOf(a)) {
        const style = getComputedStyle(a);
        if (['auto', 'scroll'].includes(style.overflowX) || ['auto', 'scroll'].includes(style.overflowY)) return null;
        if (style.contentVisibility !== 'visible' || /paint|strict|content/.test(style.contain) ||
          /hidden|clip/.test(style.overflowX + style.overflowY)) return a;
      }
      return null;
    };
    const problems = [];
    const roots = [document];
    for (let i = 0; i < roots.length; i += 1) {
      for (const el of roots[i].querySelectorAll('*')) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const clip = clipper(el);
        if (!clip) continue;
        const edge = clip.getBoundingClientRect();
        const past = Math.max(edge.left - box.left, box.right - edge.right, edge.top - box.top, box.bottom - edge.bottom);
        if (past > 1) {
          problems.push(`<${el.localName} class="${el.className}"> reaches ${Math.round(past)}px past <${clip.localName} class="${clip.className}">`);
        }
      }
    }
    return problems.slice(0, 10);
  });
}

describe('part one\u2019s sections away from the screen', { timeout: TEST_TIMEOUT * 2 }, () => {
  it('are rendered when the reader scrolls to them, and the example at the top at once', async () => {
    const { page, close } = await openPage(1280);
    try {
      assert.equal(await rendered(page, 'q'), true, 'the example\u2019s Q, at the top');
      assert.equal(await rendered(page, 'faq-weights'), false, 'the questions\u2019 weights, at the end, not yet');
      await page.locator('table[data-table="faq-weights"]').scrollIntoViewIfNeeded();
      await twoFrames(page);
      assert.equal(await rendered(page, 'faq-weights'), true, 'scrolled to');
    } finally {
      await close();
    }
  });

  it('are all rendered for print, without scrolling', async () => {
    const { page, close } = await openPage(1280);
    try {
      await page.emulateMedia({ media: 'print' });
      await twoFrames(page);
      assert.equal(await rendered(page, 'faq-weights'), true);
      assert.equal(await rendered(page, 'heads-1-weights'), true);
    } finally {
      await close();
    }
  });

  // The benchmark page shares part one's stylesheet, and so its skipped sections.
  for (const [name, width] of [['index.html', 1280], ['index.html', 360], ['benchmark.html', 1280], ['benchmark.html', 360]]) {
    it(`cut nothing off on ${name} at ${width} px`, async () => {
      const { page, close } = await openPage(width, name);
      try {
        if (name === 'index.html') await settlePage(page);
        await scrollThrough(page);
        assert.deepEqual(await cutOff(page), []);
      } finally {
        await close();
      }
    });
  }
});
