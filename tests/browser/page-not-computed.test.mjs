// The walkthrough page before and instead of its numbers, in a real browser (Chromium via
// playwright-core), served from build/site under a strict Content-Security-Policy: while the
// core loads every slot says "computing…" and no table is shown; when WebAssembly is unavailable
// or the module fails to load, an alert says so and no slot pretends to hold a result.
//
// Build the site first (cmake --preset wasm && cmake --build --preset wasm).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openPage, waitForOutcome } from './browser-harness.mjs';
import { TEST_TIMEOUT, startWalkthroughSite } from './page-harness.mjs';

let site;

before(async () => {
  site = await startWalkthroughSite();
});

after(async () => {
  await site?.close();
});

describe('before the numbers arrive', { timeout: TEST_TIMEOUT }, () => {
  it('shows "computing…" in every slot, then the tables', async () => {
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const opened = await openPage(site.browser, site.cspServer.url, {
      waitForResult: false,
      waitUntil: 'domcontentloaded',
      route: (page) => page.route('**/generated/attention-core.js', async (route) => {
        await gate;
        await route.continue();
      }),
    });
    try {
      const { page } = opened;
      const pending = await page.evaluate(() => ({
        tables: document.querySelectorAll('table').length,
        busy: document.querySelectorAll('[data-slot][aria-busy="true"]').length,
        computing: document.querySelectorAll('[data-slot] .computing').length,
        text: document.querySelector('[data-slot="table-scores"]').textContent.trim(),
      }));
      assert.equal(pending.tables, 0, 'no table before the core has answered');
      assert.ok(pending.busy >= 13 && pending.computing === pending.busy, JSON.stringify(pending));
      assert.equal(pending.text, 'computing…');
      release();
      await waitForOutcome(page);
      assert.equal(await page.locator('[aria-busy="true"]').count(), 0);
      assert.ok(await page.locator('table').count() >= 13);
    } finally {
      release();
      await opened.close();
    }
  });
});

describe('when the numbers cannot be computed', { timeout: TEST_TIMEOUT * 2 }, () => {
  async function assertHonestFailure(page, messagePattern) {
    const alert = page.locator('[role="alert"]');
    assert.equal(await alert.isVisible(), true, 'the alert is visible');
    assert.match(await alert.textContent(), messagePattern);
    const state = await page.evaluate(() => ({
      tables: document.querySelectorAll('table').length,
      busy: document.querySelectorAll('[aria-busy="true"]').length,
      notComputed: document.querySelectorAll('[data-slot] > .not-computed').length,
      markedNotComputed: document.querySelectorAll('.not-computed').length,
      slots: document.querySelectorAll('[data-slot]').length,
      statusHidden: document.getElementById('load-status').hidden,
      mainText: document.querySelector('main').textContent,
    }));
    assert.equal(state.tables, 0, 'no table pretends to hold results');
    assert.equal(state.busy, 0, 'nothing claims to be still computing');
    assert.equal(state.notComputed, state.slots, 'every slot says it was not computed');
    assert.equal(state.markedNotComputed, state.slots, 'and nothing else is styled as such');
    assert.equal(state.statusHidden, true);
    assert.doesNotMatch(state.mainText, /\d\.\d/, 'no number is shown');
  }

  it('says so in an alert when WebAssembly is unavailable', async () => {
    const opened = await openPage(site.browser, site.cspServer.url, {
      initScript: 'delete globalThis.WebAssembly;',
    });
    try {
      assert.equal(await opened.page.evaluate(() => typeof WebAssembly), 'undefined');
      await assertHonestFailure(opened.page, /WebAssembly/);
      assert.deepEqual(opened.problems.pageErrors, []);
    } finally {
      await opened.close();
    }
  });

  it('says so in an alert when the wasm module fails to load', async () => {
    const opened = await openPage(site.browser, site.cspServer.url, {
      route: (page) => page.route('**/attention-core.wasm', (route) =>
        route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' })),
    });
    try {
      await assertHonestFailure(opened.page, /failed to load/);
    } finally {
      await opened.close();
    }
  });
});
