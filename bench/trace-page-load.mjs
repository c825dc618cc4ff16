#!/usr/bin/env node
// Where a cold load of a page spends its time: records a Chromium trace of one load in a fresh
// context (empty cache; after one untraced load that warms the browser and the server) and
// prints, in order, the requests (start and end from navigation start) and the page's
// main-thread tasks over a threshold with what ran inside them (bench/trace-long-tasks.mjs
// reads the trace). A diagnostic, not a test: it asserts nothing.
//
// Usage: node bench/trace-page-load.mjs [--page index.html] [--full] [--threshold MS] [--site DIR] [--save FILE]
// The headless shell, as bench/page-load.mjs (--full: the full Chromium).
import path from 'node:path';
import process from 'node:process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/launch-chromium.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import { longTasks, startTrace } from './trace-long-tasks.mjs';
import { waitForMark } from './wait-for-mark.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

function parseArguments(argv) {
  const options = { page: 'index.html', full: false, threshold: 4, save: null,
    site: fileURLToPath(new URL('../build/site/', import.meta.url)) };
  for (let n = 0; n < argv.length; n += 1) {
    if (argv[n] === '--page') options.page = argv[++n];
    else if (argv[n] === '--full') options.full = true;
    else if (argv[n] === '--threshold') options.threshold = Number(argv[++n]);
    else if (argv[n] === '--site') options.site = path.resolve(argv[++n]);
    else if (argv[n] === '--save') options.save = path.resolve(argv[++n]);
    else throw new Error(`unknown argument ${argv[n]} (usage: --page NAME --full --threshold MS --site DIR --save FILE)`);
  }
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const server = await startStaticServer({ root: options.site, port: 0, csp: CSP });
  const browser = await launchChromium({ full: options.full });
  try {
    // One untraced load first, as bench/page-load.mjs does: the browser's own first-use costs
    // are not the page's.
    const warm = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const warmPage = await warm.newPage();
    await warmPage.goto(`${server.url}${options.page}`, { waitUntil: 'commit' });
    await waitForMark(warmPage, 'fully-rendered');
    await warm.close();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests = [];
    page.on('requestfinished', (request) => requests.push(request));
    const stop = await startTrace(page);
    await page.goto(`${server.url}${options.page}`, { waitUntil: 'commit' });
    const done = await waitForMark(page, 'fully-rendered');
    const marks = await page.evaluate(() => ({
      marks: performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]),
      navigationStart: performance.timeOrigin,
    }));
    const events = await stop();
    if (options.save) writeFileSync(options.save, JSON.stringify({ traceEvents: events }));
    console.log('requests (ms from navigation start: start → response end, size):');
    for (const request of requests) {
      const timing = request.timing();
      const start = timing.startTime - marks.navigationStart;
      const sizes = await request.sizes();
      console.log(`  ${start.toFixed(0).padStart(6)} → ${(start + timing.responseEnd).toFixed(0).padStart(6)}  ` +
        `${String(sizes.responseBodySize).padStart(8)} B  ${request.url().replace(server.url, '')}`);
    }
    for (const [name, at] of marks.marks) console.log(`mark ${name}: ${at.toFixed(0)} ms`);
    console.log(`fully rendered: ${done.toFixed(0)} ms`);
    // The trace's origin: the navigation's start, which the trace records as a mark.
    const navigation = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
    const { tasks, work } = longTasks(events, { threshold: options.threshold, minimum: 1.5, depth: 6 });
    const origin = navigation ? navigation.ts / 1000 : 0;
    const first = Math.min(...events.filter((e) => typeof e.ts === 'number' && e.ts > 0).map((e) => e.ts)) / 1000;
    console.log(`main-thread tasks over ${options.threshold} ms (start from navigation; wall, CPU):`);
    for (const task of tasks) {
      console.log(`${(task.start + first - origin).toFixed(0).padStart(6)} ms ${task.duration.toFixed(1).padStart(7)} ms cpu ${(task.cpu ?? 0).toFixed(1).padStart(6)}`);
      for (const line of task.lines) console.log(`        ${line}`);
    }
    console.log(`all main-thread tasks: ${work.tasks}, CPU ${work.total.toFixed(0)} ms`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(`trace-page-load: ${error.message}`);
  process.exit(1);
});
