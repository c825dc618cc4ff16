// The shared header in Chromium, on every page that has it: axe-core finds no WCAG 2 A/AA
// violation in it (every rule in light mode, the colour rules in dark mode); at 360 px it fits
// without sideways scrolling and every link is at least 24 px tall; the keyboard reaches its
// links in order, the current one announced as the current page; print hides it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES } from './browser-harness.mjs';
import { TEST_TIMEOUT, startBrowserAndHost, stopBrowserAndHost } from './embed-harness.mjs';

const PAGES = ['index.html', 'sequel.html', 'training.html', 'authors.html', 'benchmark.html', 'example-article.html', 'authors-sequel.html', 'authors-iframe.html'];
// Pages outside the header's five siblings: none of its links is the current page.
const UNLISTED = ['example-article.html', 'authors-sequel.html', 'authors-iframe.html'];
const NAV_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

async function open(name, options = {}) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, ...options });
  const page = await context.newPage();
  await page.goto(new URL(`site/${name}`, server.url).href);
  await page.waitForLoadState('load');
  return { page, close: () => context.close() };
}

// Each page takes its own time (30 to 45 s on a busy machine): the suite's allowance grows with the list.
describe('the site header', { timeout: TEST_TIMEOUT * PAGES.length }, () => {
  for (const name of PAGES) {
    it(`${name}: accessible, fits 360 px, keyboard order, hidden in print`, async () => {
      // One load per page: the dark scheme is switched on the same page (only colours change).
      const { page, close } = await open(name, { colorScheme: 'light' });
      try {
        const headerViolations = async (colorScheme) => {
          await page.emulateMedia({ colorScheme });
          const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
          assert.equal(dark, colorScheme === 'dark', `${name}: the ${colorScheme} scheme is in force`);
          // Every WCAG 2 A/AA rule in light mode; in dark mode, on the same page, where only
          // colours change, the rules whose outcome depends on colour.
          const axe = new AxeBuilder({ page }).include('.site-nav');
          const results = await (colorScheme === 'light' ? axe.withTags(NAV_TAGS) : axe.withRules(COLOUR_RULES)).analyze();
          assert.ok(results.passes.length >= 1, `${name}: axe ran its checks (${colorScheme})`);
          return results.violations.map((v) => `${v.id}: ${v.help}`);
        };
        assert.deepEqual(await headerViolations('light'), [], `${name} (light)`);
        const box = await page.evaluate(() => {
          const nav = document.querySelector('.site-nav');
          const links = [...nav.querySelectorAll('a')];
          return {
            overflow: nav.scrollWidth - nav.clientWidth,
            page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            shortest: Math.min(...links.map((a) => a.getBoundingClientRect().height)),
            right: Math.max(...links.map((a) => a.getBoundingClientRect().right)),
            texts: links.map((a) => a.textContent),
            current: links.filter((a) => a.getAttribute('aria-current') === 'page').map((a) => a.getAttribute('href')),
          };
        });
        assert.ok(box.overflow <= 0, `${name}: the header scrolls sideways by ${box.overflow}px`);
        assert.ok(box.right <= 360, `${name}: a link ends at ${box.right}px`);
        assert.ok(box.shortest >= 24, `${name}: a link is ${box.shortest}px tall`);
        const expectedCurrent = UNLISTED.includes(name) ? [] : [`./${name}`];
        assert.deepEqual(box.current, expectedCurrent);
        // Keyboard: the header's links come first (after a skip link, where there is one).
        const focused = [];
        for (let n = 0; n < 7; n += 1) {
          await page.keyboard.press('Tab');
          focused.push(await page.evaluate(() => (document.activeElement.closest('.site-nav') ? document.activeElement.textContent : null)));
        }
        const inNav = focused.filter((text) => text !== null);
        assert.deepEqual(inNav.slice(0, 5), box.texts, `${name}: Tab walks the header's links in order`);
        assert.deepEqual(await headerViolations('dark'), [], `${name} (dark)`);
        await page.emulateMedia({ media: 'print' });
        assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.site-nav')).display), 'none');
      } finally {
        await close();
      }
    });
  }
});
