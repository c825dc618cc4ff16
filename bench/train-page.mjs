#!/usr/bin/env node
// Whether training keeps the training page responsive: in headless Chromium, the page trains
// for a few seconds at each speed while a PerformanceObserver counts long tasks (over 50 ms)
// and requestAnimationFrame counts frames; it prints long tasks, the longest, frames per second
// and steps per second. It prints figures and asserts nothing (the machine's load decides them).
//
//   node bench/train-page.mjs [--seconds S]
//
// Needs the wasm build (build/site). Chromium is Debian's unless CHROMIUM_PATH names another.

import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startStaticServer } from '../scripts/static-server.mjs';

const SITE = fileURLToPath(new URL('../build/site/', import.meta.url));
const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

function parseArguments(argv) {
  const options = { seconds: 6 };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else throw new Error(`train-page: unknown argument ${argv[i]} (usage: [--seconds S])`);
  }
  if (!(options.seconds > 0)) throw new Error('train-page: --seconds must be a positive number');
  return options;
}

// In the page: trains at `speed` for `seconds`, counting frames, long tasks and steps.
async function measure({ speed, seconds }) {
  const trainer = document.getElementById('trainer');
  // Both resolve once the training engine (a worker, or slices on the page) has answered.
  await trainer.reset();
  const select = trainer.shadowRoot.querySelector('select');
  select.value = speed;
  const longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  let frames = 0;
  let counting = true;
  const count = () => {
    frames += 1;
    if (counting) requestAnimationFrame(count);
  };
  requestAnimationFrame(count);
  const firstStep = trainer.run.latest.step;
  const start = performance.now();
  trainer.play();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await trainer.pause();
  const elapsed = (performance.now() - start) / 1000;
  counting = false;
  // Long tasks are reported after they end: give the observer a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  observer.disconnect();
  return {
    speed,
    steps: trainer.run.latest.step - firstStep,
    inWorker: trainer.run.inWorker,
    elapsed,
    frames,
    longTasks: longTasks.length,
    longest: longTasks.length ? Math.max(...longTasks) : 0,
  };
}

async function main() {
  const { seconds } = parseArguments(process.argv.slice(2));
  const server = await startStaticServer({ root: SITE, csp: PAGE_CSP });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${server.url}training.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('trainer')?.view, null, { timeout: 120_000 });
    const inWorker = await page.evaluate(() => document.getElementById('trainer').run.inWorker);
    console.log(`training page, ${seconds} s per speed (long task: over 50 ms), steps taken ${inWorker ? 'in a worker' : 'on the page'}`);
    console.log('speed    steps/s  frames/s  long tasks  longest (ms)');
    for (const speed of ['slow', 'steady', 'fast']) {
      const r = await page.evaluate(measure, { speed, seconds });
      console.log(`${speed.padEnd(8)} ${(r.steps / r.elapsed).toFixed(1).padStart(7)}  ${(r.frames / r.elapsed).toFixed(1).padStart(8)}  `
        + `${String(r.longTasks).padStart(10)}  ${r.longest.toFixed(0).padStart(12)}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
