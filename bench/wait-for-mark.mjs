// Waits for a page's performance mark without putting anything into the page. Playwright's
// waitForFunction and evaluate first inject a script of their own (its compile and run cost the
// page's main thread 30 to 50 ms during a cold load, which a load benchmark would then count);
// a DevTools protocol Runtime.evaluate of one expression, a few times a frame, costs next to
// nothing. The page marks the moment itself (performance.mark), so the poll's own period does
// not add to the figure.

const POLL_MS = 10;

/**
 * Resolves to the start time (ms from navigation start) of `page`'s first performance mark
 * named `name`, polling with a CDP session; rejects after `timeout` ms.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {{timeout?: number}} [options]
 * @returns {Promise<number>}
 */
export async function waitForMark(page, name, { timeout = 60_000 } = {}) {
  const session = await page.context().newCDPSession(page);
  const expression = `performance.getEntriesByName(${JSON.stringify(name)}, 'mark')[0]?.startTime ?? null`;
  const deadline = Date.now() + timeout;
  try {
    for (;;) {
      const { result, exceptionDetails } = await session.send('Runtime.evaluate', { expression, returnByValue: true });
      if (exceptionDetails) throw new Error(`reading the mark ${name} failed: ${exceptionDetails.text}`);
      if (typeof result.value === 'number') return result.value;
      if (Date.now() > deadline) throw new Error(`the page made no mark ${name} within ${timeout} ms`);
      await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    }
  } finally {
    await session.detach().catch(() => {});
  }
}
