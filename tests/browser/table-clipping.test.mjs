// No table's text is cut off, in Chromium at 1280 and 360 px, on every page with tables (the
// elements' shadow roots included): a caption never makes its table wider than its rows (it
// wraps; on one line it pushed its end past the table's box at 360 px), at 1280 px a table that
// fits the page's column is shown whole (the multi-head cards once cut theirs off inside their grid
// columns), and a wider one scrolls in its own box.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TIMEOUT, settlePage, startBrowserAndHost, stopBrowserAndHost } from './embed-harness.mjs';

const PAGES = ['index.html', 'sequel.html', 'example-article.html', 'authors.html', 'authors-sequel.html'];
let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

function clippedText(page) {
  return page.evaluate(() => {
    const problems = [];
    const roots = [document];
    for (let i = 0; i < roots.length; i += 1) {
      for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    const main = document.querySelector('main');
    const style = getComputedStyle(main);
    const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const parentOf = (el) => el.parentElement ?? el.getRootNode().host ?? null;
    const clipOf = (el) => {
      for (let a = parentOf(el); a; a = parentOf(a)) if (getComputedStyle(a).overflowX !== 'visible') return a;
      return document.documentElement;
    };
    for (const root of roots) {
      for (const table of root.querySelectorAll('table')) {
        if (table.getBoundingClientRect().width === 0) continue;
        const box = clipOf(table);
        const what = `${root.host ? `<${root.host.localName}> ` : ''}"${(table.caption?.textContent ?? '').trim().slice(0, 40)}"`;
        const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
        const rows = Math.max(...[...table.rows].map((row) => row.getBoundingClientRect().width));
        if (box.scrollWidth > box.clientWidth + 1) {
          if (!scrolls) problems.push(`${what}: cut off by a box that does not scroll`);
          else if (window.innerWidth >= 1280 && rows <= column) problems.push(`${what}: ${Math.round(rows)}px wide, fits the ${Math.round(column)}px column, yet scrolls in a ${box.clientWidth}px box`);
        }
        if (table.caption) {
          const caption = table.caption.getBoundingClientRect().width;
          if (caption > rows + 1) problems.push(`${what}: the caption (${Math.round(caption)}px) is wider than the rows (${Math.round(rows)}px)`);
        }
        for (const cell of table.querySelectorAll('th, td, caption')) {
          if (cell.scrollWidth > cell.clientWidth + 1) problems.push(`${what}: "${cell.textContent.trim()}" overflows its cell`);
        }
      }
    }
    return problems;
  });
}

describe('no table text cut off', { timeout: TEST_TIMEOUT * 3 }, () => {
  for (const width of [1280, 360]) {
    for (const name of PAGES) {
      it(`${name} at ${width} px`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(new URL(`site/${name}`, server.url).href);
          await settlePage(page);
          assert.deepEqual(await clippedText(page), []);
        } finally {
          await context.close();
        }
      });
    }
  }
});
