// The walkthrough page's structure and prose in a real browser (Chromium via playwright-core),
// served from build/site: under a strict Content-Security-Policy it loads without a violation or
// an error; every number is set in tabular, right-aligned figures with a real minus sign; every
// table has a caption and scoped headers; token names go in as text, never as markup; the page's
// source holds no numbers, inline scripts, inline styles or foreign resources; and without a
// policy, on a 360 px screen, it computes and does not overflow sideways.
//
// Build the site first (cmake --preset wasm && cmake --build --preset wasm).
// ATTN_SCREENSHOT=docs/screenshot.png additionally saves a full-page screenshot there.

import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, SITE_ROOT, cellAt, openPage, readTable } from './browser-harness.mjs';
import { TEST_TIMEOUT, startWalkthroughSite } from './page-harness.mjs';

let site;

before(async () => {
  site = await startWalkthroughSite({ plain: true });
});

after(async () => {
  await site?.close();
});

describe('the walkthrough under a strict Content-Security-Policy', { timeout: TEST_TIMEOUT * 4 }, () => {
  let opened;
  let page;

  before(async () => {
    opened = await openPage(site.browser, site.cspServer.url);
    page = opened.page;
  });

  after(async () => {
    if (process.env.ATTN_SCREENSHOT && page) {
      const target = path.resolve(process.env.ATTN_SCREENSHOT);
      await mkdir(path.dirname(target), { recursive: true });
      await page.screenshot({ path: target, fullPage: true });
    }
    await opened?.close();
  });

  it('is served with the policy and loads without errors or violations', async () => {
    assert.equal(opened.response.headers()['content-security-policy'], PAGE_CSP);
    const problems = await opened.collectViolations();
    assert.deepEqual(problems.cspViolations, [], 'CSP violations');
    assert.deepEqual(problems.failedRequests, [], 'failed requests');
    assert.deepEqual(problems.pageErrors, [], 'uncaught page errors');
    assert.deepEqual(problems.consoleErrors, [], 'console errors');
    assert.equal(await page.locator('#load-problem').isHidden(), true, 'no failure message');
    assert.equal(await page.locator('[aria-busy="true"]').count(), 0, 'no slot is still computing');
  });

  it('sets every number in tabular, right-aligned figures with a real minus sign', async () => {
    const cells = await page.$$eval('table td.num', (tds) => tds.map((td) => {
      const style = getComputedStyle(td);
      return { text: td.querySelector('.value')?.textContent ?? '', align: style.textAlign, digits: style.fontVariantNumeric };
    }));
    assert.ok(cells.length > 100, `${cells.length} number cells`);
    for (const cell of cells) {
      assert.equal(cell.align, 'right', `"${cell.text}" is right-aligned`);
      assert.match(cell.digits, /tabular-nums/, `"${cell.text}" uses tabular figures`);
      assert.ok(!cell.text.includes('-'), `"${cell.text}" has no hyphen-minus`);
    }
    const bodyText = await page.locator('main').textContent();
    assert.ok(!/-\d/.test(bodyText), 'no hyphen-minus before a digit anywhere in the prose');
  });

  it('gives every table a caption naming it and scoped headers', async () => {
    const tables = await page.$$eval('table', (all) => all.map((table) => ({
      name: table.dataset.table,
      caption: table.caption?.textContent ?? '',
      unscoped: table.querySelectorAll('th:not([scope])').length,
      scrollable: table.parentElement.classList.contains('table-scroll'),
    })));
    assert.ok(tables.length >= 13, `${tables.length} tables`);
    for (const table of tables) {
      assert.ok(table.caption.length > 5, `table ${table.name} has a caption`);
      assert.equal(table.unscoped, 0, `table ${table.name}: every th has a scope`);
      assert.ok(table.scrollable, `table ${table.name} scrolls sideways on narrow screens`);
    }
  });

  it('inserts token names as text, never as markup', async () => {
    const result = await page.evaluate(async () => {
      const { renderMatrixTable } = await import('./web/views/render-tables.js');
      const table = renderMatrixTable(document, [[1]], {
        name: 'probe',
        caption: '<i>caption</i>',
        rowLabels: ['<img src=x>'],
        columnLabels: ['<b>key</b>'],
        format: (x) => String(x),
      });
      return {
        elements: table.querySelectorAll('img, b, i').length,
        row: table.tBodies[0].rows[0].cells[0].textContent,
        column: table.tHead.rows[0].cells[1].textContent,
      };
    });
    assert.deepEqual(result, { elements: 0, row: '<img src=x>', column: '<b>key</b>' });
  });
});

describe('the page source', () => {
  it('holds no numbers: everything numeric is filled in at load time', async () => {
    const html = await readFile(path.join(SITE_ROOT, 'index.html'), 'utf8');
    const text = html
      .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
      .replace(/<span class="step-label">Step \d<\/span>/g, ' ')
      .replace(/\bstep \d\b/gi, ' ')
      // A citation's year is not a computed number.
      .replace(/Vaswani et al\. \(\d{4}\)/g, ' ')
      .replace(/<[^>]*>/g, ' ');
    assert.deepEqual(text.match(/.{0,20}\d.{0,20}/g) ?? [], [], 'digits typed into the page');
  });

  it('has no inline scripts, inline styles or foreign resources', async () => {
    const html = await readFile(path.join(SITE_ROOT, 'index.html'), 'utf8');
    assert.doesNotMatch(html, /\sstyle=/i, 'no style attributes');
    assert.doesNotMatch(html, /<style/i, 'no style elements');
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
    const scripts = html.match(/<script[^>]*>/gi);
    assert.deepEqual(scripts, ['<script type="module" src="./walkthrough.js">']);
    // A link to read elsewhere fetches nothing; a source or stylesheet would.
    assert.doesNotMatch(html, /\ssrc="(https?:)?\/\//i, 'nothing fetched from elsewhere');
    assert.doesNotMatch(html, /<link[^>]*href="(https?:)?\/\//i, 'nothing fetched from elsewhere');
  });
});

describe('the walkthrough without a CSP header, on a narrow screen', { timeout: TEST_TIMEOUT }, () => {
  it('computes the numbers without errors and does not overflow sideways', async () => {
    const opened = await openPage(site.browser, site.plainServer.url, { viewport: { width: 360, height: 740 } });
    try {
      const { page, problems } = opened;
      assert.equal(opened.response.headers()['content-security-policy'], undefined);
      assert.deepEqual(problems.failedRequests, []);
      assert.deepEqual(problems.pageErrors, []);
      assert.deepEqual(problems.consoleErrors, []);
      const scores = await readTable(page, 'scores');
      assert.equal(cellAt(scores, 'cat', 'cat').text, '2.090');
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 360px screen`);
    } finally {
      await opened.close();
    }
  });
});
