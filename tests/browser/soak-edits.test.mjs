// Soak in Chromium: 1 000 edits typed into the cells of an editable <attention-explainer>
// (fixtures/bad-inputs-soak.html), some accepted and some refused, leave the number of DOM nodes
// (document and shadow roots) exactly where it was after the first 100 edits and the JS heap
// (after a forced garbage collection) within HEAP_MARGIN of it, both measured in the same state
// (edits dropped with reset()); the numbers still match float64 at the end. Prints its figures.
// ATTN_SOAK_EDITS=N runs another number of edits.

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { cellField } from './browser-harness.mjs';
import { openHostPage, startBrowserAndHost, stopBrowserAndHost, waitForElements } from './embed-harness.mjs';
import { checkTrace } from '../support/bad-inputs.mjs';

const EDITS = Number(process.env.ATTN_SOAK_EDITS ?? 1000);
const WARM_UP = 100;
const HEAP_MARGIN = 1024 * 1024;  // bytes the heap may move between edit 100 and the last: ~1 KiB per edit
// What is typed, in turn: accepted numbers (large ones too), and text the element refuses.
const TYPED = ['0.5', '-1.25', '3', '1e6', '-0', '0.001', 'abc', '1e16', '2,5', '\u22120.75', '', '7'];

let browser;
let server;

before(async () => ({ browser, server } = await startBrowserAndHost()));
after(() => stopBrowserAndHost(browser, server));

function countNodes(page) {
  return page.evaluate(() => {
    let count = 0;
    const walk = (node) => {
      count += 1;
      if (node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.childNodes) walk(child);
    };
    walk(document);
    return count;
  });
}

it(`${EDITS} edits leave the DOM node count and the JS heap flat`, { timeout: 240_000 }, async () => {
  const opened = await openHostPage(browser, server.fixture('bad-inputs-soak.html'));
  try {
    const { page } = opened;
    await waitForElements(page);
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    const cells = await page.$$eval('#edited', ([el]) =>
      [...el.shadowRoot.querySelectorAll('td.editable-cell')].map((cell) => ({
        matrix: cell.closest('table').dataset.matrix, row: cell.dataset.row, col: cell.dataset.col,
      })));
    assert.ok(cells.length >= 24, `${cells.length} editable cells`);
    const edit = async (n) => {
      const { matrix, row, col } = cells[n % cells.length];
      const input = cellField(page, `#edited table[data-table="${matrix}"]`, row, col);
      await input.fill(TYPED[n % TYPED.length]);
      if (n % 10 === 9) await input.press('Tab');  // leaving a refused cell puts the good value back
    };

    // Both measurements are taken in the same state (a good edit, which hides any message of a
    // refused one, then the edits dropped with reset()), so that a message left on screen by
    // the last edit does not count as a change.
    const settle = async () => {
      const first = cellField(page, '#edited table[data-table="q"]', 0, 0);
      await first.fill('0.5');
      await first.press('Tab');
      await page.evaluate(() => new Promise((resolve) => {
        document.getElementById('edited').reset();
        requestAnimationFrame(() => setTimeout(resolve, 0));
      }));
    };
    const started = Date.now();
    for (let n = 0; n < WARM_UP; n += 1) await edit(n);
    await settle();
    const nodesBefore = await countNodes(page);
    const heapBefore = await heap();
    for (let n = WARM_UP; n < EDITS; n += 1) await edit(n);
    await settle();
    const nodesAfter = await countNodes(page);
    const heapAfter = await heap();
    await edit(EDITS);  // and it still takes edits
    const seconds = (Date.now() - started) / 1000;

    const mib = (bytes) => (bytes / 2 ** 20).toFixed(2);
    console.log(`soak-edits: ${EDITS} edits in ${seconds.toFixed(1)} s; DOM nodes after ${WARM_UP}: ${nodesBefore}, ` +
      `after ${EDITS}: ${nodesAfter}; JS heap after ${WARM_UP}: ${mib(heapBefore)} MiB, after ${EDITS}: ` +
      `${mib(heapAfter)} MiB (${heapAfter >= heapBefore ? '+' : ''}${((heapAfter - heapBefore) / 1024).toFixed(1)} KiB; ` +
      `margin ${mib(HEAP_MARGIN)} MiB)`);
    assert.equal(nodesAfter, nodesBefore, 'the DOM node count is flat');
    assert.ok(heapAfter - heapBefore <= HEAP_MARGIN,
      `the JS heap grew by ${heapAfter - heapBefore} bytes, more than ${HEAP_MARGIN}`);

    // Still correct: the trace on screen is float64's for the numbers in the cells.
    const { input, trace } = await page.evaluate(() => {
      const el = document.getElementById('edited');
      const { tokens, token_count, head_dim, scores, scaled, weights, out } = el.trace;
      return { input: el.attentionModel.input, trace: { tokens, token_count, head_dim, scores, scaled, weights, out } };
    });
    checkTrace(trace, input, 'after the edits');
    assert.deepEqual(opened.record.pageErrors, []);
    assert.deepEqual(opened.record.errors, []);
  } finally {
    await opened.close();
  }
});
