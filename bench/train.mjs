#!/usr/bin/env node
// How fast the trainer trains: optimiser steps per second for the default model and corpus, and
// the time the default run takes to come within 5 % of its final loss, in Node and in headless
// Chromium, over several runs (median and p90). It prints figures and asserts nothing.
//
//   node bench/train.mjs [--runs N] [--node-only | --chromium-only]
//
// Needs the wasm build (build/site). The full Chromium, as scripts/launch-chromium.mjs starts it for benchmarks (CHROMIUM_PATH names another).

import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../scripts/launch-chromium.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';

const SITE = fileURLToPath(new URL('../build/site/', import.meta.url));

// One default run, in whatever context calls it (Node or the page): the default steps in chunks
// of `chunk`, timing each, then the time at which the loss first came within 5 % of the final.
// Self-contained so that page.evaluate can take its source.
async function timeDefaultRun(createAttention, chunk) {
  const attention = await createAttention();
  const trainer = attention.trainer();
  const steps = trainer.state().default_steps;
  const curve = [];  // [seconds since start, loss]
  const start = performance.now();
  for (let done = 0; done < steps; done += chunk) {
    const { loss } = trainer.step(Math.min(chunk, steps - done));
    curve.push([(performance.now() - start) / 1000, loss]);
  }
  const seconds = (performance.now() - start) / 1000;
  const finalLoss = curve.at(-1)[1];
  const reached = curve.find(([, loss]) => loss <= finalLoss * 1.05)[0];
  const { baselines } = trainer.state();
  trainer.dispose();
  return { steps, seconds, reached, finalLoss, bigram: baselines.bigram };
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function report(where, runs) {
  const line = (name, values, digits) =>
    `  ${name.padEnd(34)} median ${quantile(values, 0.5).toFixed(digits).padStart(8)}   p90 ${quantile(values, 0.9).toFixed(digits).padStart(8)}`;
  console.log(`${where}: ${runs.length} default runs of ${runs[0].steps} steps ` +
    `(final loss ${runs[0].finalLoss.toFixed(4)}, bigram baseline ${runs[0].bigram.toFixed(4)})`);
  // Every p90 is the slow end: the 90th percentile of the times, and steps/s at that time.
  const steps = runs[0].steps;
  const seconds = runs.map((r) => r.seconds);
  console.log(`  ${'optimiser steps per second'.padEnd(34)} median ${(steps / quantile(seconds, 0.5)).toFixed(1).padStart(8)}` +
    `   p90 ${(steps / quantile(seconds, 0.9)).toFixed(1).padStart(8)}`);
  console.log(line('seconds for the whole run', seconds, 2));
  console.log(line('seconds to within 5 % of final loss', runs.map((r) => r.reached), 2));
}

async function benchNode(runs, chunk) {
  const { createAttention } = await import(pathToFileURL(`${SITE}web/attention-explainer.js`).href);
  const results = [];
  for (let n = 0; n < runs; n += 1) results.push(await timeDefaultRun(createAttention, chunk));
  report('Node', results);
}

async function benchChromium(runs, chunk) {
  const browser = await launchChromium({ full: true });
  const server = await startStaticServer({ root: SITE });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}authors.html`, { waitUntil: 'load' });
    const results = [];
    for (let n = 0; n < runs; n += 1) {
      results.push(await page.evaluate(async ({ source, chunk }) => {
        const { createAttention } = await import('./web/attention-explainer.js');
        // eslint-disable-next-line no-new-func -- the bench page has no CSP; the run's source is ours
        const run = new Function(`return (${source})`)();
        return run(createAttention, chunk);
      }, { source: timeDefaultRun.toString(), chunk }));
    }
    report('Chromium', results);
  } finally {
    await browser.close();
    await server.close();
  }
}

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
if (!Number.isInteger(runs) || runs < 1) {
  console.error('--runs: must be a positive whole number');
  process.exit(2);
}
const chunk = 5;  // steps between loss readings: the resolution of the time to within 5 %
if (!args.includes('--chromium-only')) await benchNode(runs, chunk);
if (!args.includes('--node-only')) await benchChromium(runs, chunk);
