// The iframe's height must not depend on which script runs first. Two orders that a parent
// which only listens (and an embed which only reports on change) get wrong:
//  - the host's resize script arrives after both embeds have reported (fixtures/iframe-parent-late.*);
//  - the host page also loads the elements, so its deferred resize script waits behind their
//    module while the iframes, written early in the page, load and report
//    (fixtures/iframe-parent-elements.html).
// In both, each iframe must end at the height its own document reports, not the 150px it
// started with.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, launchBrowser, startStaticServer } from './browser-harness.mjs';
import { SITE, TEST_TIMEOUT, openHostPage, requireBuiltSite, startHostServer, waitForElements } from './embed-harness.mjs';

const HASH = ''; // the article's example
const LOADS = 4;
let browser;
let siteServer;
let hostServer;

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  siteServer = await startStaticServer({ root: SITE, port: 0, csp: PAGE_CSP });
  const siteOrigin = siteServer.url.replace(/\/$/, '');
  hostServer = await startHostServer({
    csp: `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; frame-src ${siteOrigin}`,
  });
});

after(async () => {
  await browser?.close();
  await hostServer?.close();
  await siteServer?.close();
});

// Opens the fixture, waits for both embeds to render, then for each iframe's height to equal
// what its document reports (or gives up after 3 s and returns both numbers).
async function heightsAfterLoad(fixture) {
  const src = `${siteServer.url}embed.html${HASH}`;
  const opened = await openHostPage(browser, `${hostServer.fixture(fixture)}?src=${encodeURIComponent(src)}`);
  try {
    const { page } = opened;
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 2);
    const results = {};
    for (const id of ['plain', 'sandboxed']) {
      const frame = await (await page.$(`#${id}`)).contentFrame();
      await waitForElements(frame);
      await frame.waitForFunction(() => document.documentElement.dataset.height !== undefined);
      let reported;
      let attribute;
      for (let attempt = 0; attempt < 60; attempt += 1) {
        reported = await frame.evaluate(() => Number(document.documentElement.dataset.height));
        attribute = await page.evaluate((frameId) => Number(document.getElementById(frameId).height), id);
        if (attribute === reported) break;
        await page.waitForTimeout(50);
      }
      results[id] = { reported, attribute };
    }
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(await opened.cspViolations(), []);
    return results;
  } finally {
    await opened.close();
  }
}

describe('iframe sizing whatever script runs first', { timeout: TEST_TIMEOUT * 4 }, () => {
  for (const [fixture, order] of [
    ['iframe-parent-late.html', 'the resize script added after both embeds reported'],
    ['iframe-parent-elements.html', 'a host page that also loads the elements'],
  ]) {
    it(`${order}: every iframe takes its page's height, in ${LOADS} of ${LOADS} loads`, async () => {
      for (let load = 1; load <= LOADS; load += 1) {
        const heights = await heightsAfterLoad(fixture);
        for (const [id, { reported, attribute }] of Object.entries(heights)) {
          assert.ok(reported > 500, `load ${load}, #${id}: the embed reports its whole page (${reported}px)`);
          assert.equal(attribute, reported, `load ${load}, #${id}: the iframe is ${attribute}px, its page ${reported}px`);
        }
      }
    });
  }
});
