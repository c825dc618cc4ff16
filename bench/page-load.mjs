#!/usr/bin/env node
// Page-load benchmark: cold loads of the production pages (build/site) in headless Chromium,
// each in a fresh browser context (empty cache), served under the pages' strict policy.
// Prints, per page, the requests a load makes and the time from navigation start to fully
// rendered (the walkthrough: every table computed; the sequel: every section computed; both
// pages mark `fully-rendered` as the frame that shows that begins, and `fully-painted` once the
// main thread has done that frame's style, layout and paint), as median and p90 over the loads. The
// page is watched without injecting a script into it (bench/wait-for-mark.mjs). A benchmark,
// not a test: it prints figures and asserts nothing.
//
// Usage: node bench/page-load.mjs [--loads N] [--site DIR] [--against DIR] [--page NAME] [--full]
//   (scripts/bench-load builds first)
// --page loads only that page (index.html or sequel.html). --against DIR loads a second build
// too, one load of each in turn (which goes first alternating), and prints both: on a shared
// machine figures taken minutes apart differ by more than most changes, so only builds loaded
// alternately compare.
// The browser is the headless shell (chromium-headless-shell, what Playwright runs headless
// with); --full loads the pages in the full Chromium instead. On this project's 2-core machine
// without a GPU the full browser spends about as much processor time again on a renderer of its
// own window (`--top-chrome-webui`) while a page loads, which then competes with the page: its
// figures say more about the browser than about the page. CHROMIUM_PATH names another build.
import path from 'node:path';
import os from 'node:os';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { chromiumPath, launchChromium } from '../scripts/launch-chromium.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import { waitForMark } from './wait-for-mark.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const PAGES = ['index.html', 'sequel.html'];

function parseArguments(argv) {
  const options = { loads: 15, sites: [fileURLToPath(new URL('../build/site/', import.meta.url))], pages: PAGES, full: false };
  for (let n = 0; n < argv.length; n += 1) {
    if (argv[n] === '--loads') options.loads = Number(argv[++n]);
    else if (argv[n] === '--site') options.sites[0] = path.resolve(argv[++n]);
    else if (argv[n] === '--against') options.sites[1] = path.resolve(argv[++n]);
    else if (argv[n] === '--page') options.pages = [argv[++n]];
    else if (argv[n] === '--full') options.full = true;
    else throw new Error(`unknown argument ${argv[n]} (usage: --loads N --site DIR --against DIR --page NAME --full)`);
  }
  if (options.sites.includes(undefined)) throw new Error('--against needs a folder');
  if (!Number.isInteger(options.loads) || options.loads < 1) throw new Error('--loads must be a positive integer');
  if (!options.pages.every((name) => PAGES.includes(name))) throw new Error(`--page must be one of ${PAGES.join(', ')}`);
  return options;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function loadOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let requests = 0;
  page.on('request', () => { requests += 1; });
  await page.goto(url, { waitUntil: 'commit' });
  const milliseconds = await waitForMark(page, 'fully-rendered');
  const painted = await waitForMark(page, 'fully-painted');
  await context.close();
  return { milliseconds, painted, requests };
}

function report(label, runs) {
  const times = runs.map((r) => r.milliseconds).sort((a, b) => a - b);
  const requests = [...new Set(runs.map((r) => r.requests))].sort((a, b) => a - b).join(' or ');
  console.log(`${label}: ${requests} requests; cold load to fully rendered: median ${quantile(times, 0.5).toFixed(0)} ms, ` +
    `p90 ${quantile(times, 0.9).toFixed(0)} ms (${runs.length} loads)`);
  const painted = runs.map((r) => r.painted).sort((a, b) => a - b);
  console.log(`  and until that frame's style, layout and paint are done: median ${quantile(painted, 0.5).toFixed(0)} ms, ` +
    `p90 ${quantile(painted, 0.9).toFixed(0)} ms`);
  return quantile(times, 0.5);
}

async function main() {
  const { loads, sites, pages, full } = parseArguments(process.argv.slice(2));
  const servers = await Promise.all(sites.map((root) => startStaticServer({ root, port: 0, csp: CSP })));
  const executable = chromiumPath({ full });
  const browser = await launchChromium({ full });
  try {
    for (const name of pages) {
      const urls = servers.map((server) => `${server.url}${name}`);
      for (const url of urls) await loadOnce(browser, url);  // warm the server and the OS file cache
      const runs = urls.map(() => []);
      for (let n = 0; n < loads; n += 1) {
        const order = n % 2 === 0 ? urls.keys() : [...urls.keys()].reverse();
        for (const s of order) runs[s].push(await loadOnce(browser, urls[s]));
      }
      const medians = runs.map((r, s) => report(sites.length > 1 ? `${name} from ${sites[s]}` : name, r));
      if (medians.length > 1) console.log(`  median of the second against the first: ${(medians[1] / medians[0]).toFixed(3)}`);
    }
    console.log(`Chromium ${browser.version()} (${executable}); load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  } finally {
    await browser.close();
    await Promise.all(servers.map((server) => server.close()));
  }
}

main().catch((error) => {
  console.error(`page-load: ${error.message}`);
  process.exit(1);
});
