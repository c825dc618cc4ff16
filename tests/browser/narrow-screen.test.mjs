// Every page of the site at 360 px (a small phone): once the page has done its work, the page
// itself never scrolls sideways. Wide tables scroll inside their own boxes and long words
// (code, ids, URLs) wrap. The benchmark page is checked with a result document in
// benchmark-page.test.mjs.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TIMEOUT, settlePage, startBrowserAndHost, stopBrowserAndHost } from './embed-harness.mjs';

const PAGES = ['index.html', 'sequel.html', 'training.html', 'embed.html', 'example-article.html', 'authors.html', 'authors-sequel.html', 'authors-iframe.html'];

let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

describe('no sideways scrolling at 360 px', { timeout: TEST_TIMEOUT }, () => {
  for (const name of PAGES) {
    it(name, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      try {
        await page.goto(new URL(`site/${name}`, server.url).href);
        await settlePage(page);
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
        }));
        assert.ok(widths.scroll <= widths.client, `${name}: scrollWidth ${widths.scroll} > ${widths.client}`);
      } finally {
        await context.close();
      }
    });
  }
});
