#!/usr/bin/env node
// Edit latency of the walkthrough page in headless Chromium: the time from a reader's edit of a
// Q cell to the updated tables, with 16 tokens and head_dim 16 (the largest example the page
// shows), against the one-frame target of 16 ms. Prints figures; it is not a test and asserts
// nothing about them.
//
// Each edit types a new value into one cell (the input event the page listens to) and records:
//   script  the page's handler: the core's run(), the tables on or near the screen redrawn
//           (those farther away draw when the browser is idle: web/elements/draw-when-near.js),
//           the hash written;
//   layout  script plus the style and layout the browser must do before it can paint;
//   frame   until the next animation frame after the edit has run (paint included; quantised
//           by the browser's frame clock, so a figure near 16.7 ms means "the next frame").
// Edits follow one another frame after frame, as fast typing would, each started just after a
// frame began, so that its style, layout and paint fall in that frame (and an empty handler
// still measures one frame, about 16.3 ms). Then edits at a reader's pace: each at a random
// moment of a frame, timed to the next animation frame and to just after that frame's paint,
// beside the same for an edit nothing listens to. Then, one edit at a time, the time until every
// table on the page shows the edit (off screen ones included) and a frame has passed; and, for
// scale, the core's run() alone on the same input.
//
// Usage: node bench/edit-latency.mjs [--edits N] [--tokens T] [--head-dim D] [--json FILE] [--site DIR]
// Build the site first (scripts/build); scripts/bench-edit does both. --site serves another
// build (build/site by default), to compare two builds on the same machine state.

import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { chromiumPath, launchChromium } from '../scripts/launch-chromium.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

function parseArguments(argv) {
  const options = { edits: 200, warmup: 20, tokens: 16, headDim: 16, json: null,
    site: fileURLToPath(new URL('../build/site/', import.meta.url)) };
  for (let n = 0; n < argv.length; n += 1) {
    const take = () => argv[++n];
    switch (argv[n]) {
      case '--edits': options.edits = Number(take()); break;
      case '--tokens': options.tokens = Number(take()); break;
      case '--head-dim': options.headDim = Number(take()); break;
      case '--json': options.json = take(); break;
      case '--site': options.site = path.resolve(take()); break;
      case '-h': case '--help':
        console.log('usage: node bench/edit-latency.mjs [--edits N] [--tokens T] [--head-dim D] [--json FILE] [--site DIR]');
        process.exit(0);
        break;
      default:
        console.error(`edit-latency: unknown option ${argv[n]}`);
        process.exit(2);
    }
  }
  for (const [name, value, max] of [['edits', options.edits, 100_000], ['tokens', options.tokens, 16], ['head-dim', options.headDim, 16]]) {
    if (!Number.isInteger(value) || value < 1 || value > max) {
      console.error(`edit-latency: --${name} must be a whole number from 1 to ${max}`);
      process.exit(2);
    }
  }
  return options;
}

// Runs inside the page: `count` edits of one cell, alternating two values so each is a change.
async function measureInPage({ count, warmup }) {
  // Focusing the cell moves the table's one text field into it (web/views/cell-field.js).
  document.querySelector('table[data-table="q"] tbody tr:last-child td[data-col="0"]').focus();
  const input = document.querySelector('table[data-table="q"] tbody tr:last-child input[data-col="0"]');
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const samples = { script: [], layout: [], frame: [] };
  for (let n = 0; n < warmup + count; n += 1) {
    await nextFrame();
    input.value = n % 2 === 0 ? '0.7' : '-0.3';
    const start = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const scripted = performance.now();
    void document.body.offsetHeight;  // style and layout, as the browser would do before painting
    const laidOut = performance.now();
    const framed = await nextFrame();
    if (n < warmup) continue;
    samples.script.push(scripted - start);
    samples.layout.push(laidOut - start);
    samples.frame.push(framed - start);
  }
  // At a reader's pace: a keystroke falls at any moment of a frame, not just after one began.
  // Each edit comes a random 0 to 16 ms after a frame, and is timed to just after the paint of
  // the next frame (a message posted from that frame's animation callback is handled after its
  // paint); an empty handler measures about half a frame here.
  const afterNextPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
    const framed = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve({ framed, painted: performance.now() });
    channel.port2.postMessage(null);
  }));
  // For scale, the same with an edit nothing listens to (a field outside the page's tables).
  const idle = document.body.appendChild(document.createElement('input'));
  for (const [name, field] of [['painted', input], ['paintedEmpty', idle]]) {
    samples[name] = [];
    samples[`${name}Frame`] = [];
    for (let n = 0; n < warmup + count; n += 1) {
      await nextFrame();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 16));
      field.value = n % 2 === 0 ? '0.5' : '-0.1';
      const start = performance.now();
      field.dispatchEvent(new Event('input', { bubbles: true }));
      const { framed, painted } = await afterNextPaint();
      if (n < warmup) continue;
      samples[`${name}Frame`].push(framed - start);
      samples[name].push(painted - start);
    }
  }
  idle.remove();
  // The tables far off screen draw each edit when the browser is idle (draw-when-near.js): the
  // time until every table on the page shows an edit, one edit at a time.
  const { createAttention, whenPiecesDrawn = async () => {} } = await import('./web/attention-explainer.js');
  samples.everything = [];
  for (let n = 0; n < Math.max(5, Math.ceil(count / 4)); n += 1) {
    await whenPiecesDrawn();
    await nextFrame();
    input.value = n % 2 === 0 ? '0.6' : '-0.2';
    const start = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await whenPiecesDrawn();
    samples.everything.push(await nextFrame() - start);
  }
  const check = document.querySelector('table[data-table="weights"] tbody tr:last-child td.row-sum .value')?.textContent;
  // The core alone, on the example now on screen.
  const attention = await createAttention();
  const example = {
    tokens: Array.from(document.querySelectorAll('.token-input'), (field) => field.value),
    ...Object.fromEntries(['q', 'k', 'v'].map((m) => [m, Array.from(document.querySelectorAll(`table[data-table="${m}"] tbody tr`),
      (tr) => Array.from(tr.querySelectorAll('td[data-col]'),
        (cell) => Number((cell.querySelector('input')?.value ?? cell.querySelector('.value').textContent).replace('\u2212', '-'))))])),
  };
  const core = [];
  for (let n = 0; n < warmup + count; n += 1) {
    const start = performance.now();
    attention.run(example);
    if (n >= warmup) core.push(performance.now() - start);
  }
  return { samples: { ...samples, core }, rowSum: check, cells: document.querySelectorAll('main td').length };
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = values.reduce((s, x) => s + x, 0) / values.length;
  return { median: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1), mean };
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const server = await startStaticServer({ root: options.site, port: 0, csp: CSP });
  const browser = await launchChromium({ full: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('load-status')?.classList.contains('done'));
    // The example: `tokens` tokens of head_dim `headDim`, seeded values from the core.
    const hash = await page.evaluate(async ({ tokens, headDim }) => {
      const { createAttention } = await import('./web/attention-explainer.js');
      const values = (await createAttention()).randomMatrix({ rows: tokens, cols: headDim, seed: 7, min: -1, max: 1, decimals: 2 });
      const json = encodeURIComponent(JSON.stringify(values));
      const names = Array.from({ length: tokens }, (_, n) => `t${n}`).join('%20');
      return `#tokens=${names}&q=${json}&k=${json}&v=${json}&mask=causal&scale=sqrt_d&seed=1`;
    }, options);
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    await page.waitForFunction((t) => document.querySelectorAll('.token-input').length === t, options.tokens);
    // The edits start from a page whose every table is drawn (an older build has no whenPiecesDrawn).
    await page.evaluate(async () => (await import('./web/attention-explainer.js')).whenPiecesDrawn?.());
    const result = await page.evaluate(measureInPage, { count: options.edits, warmup: options.warmup });
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    const version = browser.version();
    const figures = Object.fromEntries(Object.entries(result.samples).map(([name, values]) => [name, summary(values)]));

    const ms = (x) => x.toFixed(2).padStart(7);
    console.log(`Edit latency of the walkthrough page: ${options.tokens} tokens, head_dim ${options.headDim}, ` +
      `${options.edits} edits of one Q cell (after ${options.warmup} warm-up edits)`);
    const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
    console.log(`Chromium ${version} (${chromiumPath({ full: true })}), ${result.cells} table cells on the page; target: under 16 ms (one frame)`);
    console.log(`machine: ${os.cpus().length} CPUs, load average ${load} (other work on the machine slows every figure)\n`);
    console.log('| measured from the input event to | median ms | p90 ms | p99 ms | max ms |');
    console.log('|---|--:|--:|--:|--:|');
    const rows = [
      ['script: the handler (tables near the screen updated)', figures.script],
      ['layout: updated and laid out', figures.layout],
      ['frame: the next animation frame', figures.frame],
      ['at a reader\'s pace (any moment of a frame): the next animation frame', figures.paintedFrame],
      ['at a reader\'s pace: that frame painted', figures.painted],
      ['(an edit nothing listens to, at a reader\'s pace: next frame)', figures.paintedEmptyFrame],
      ['(an edit nothing listens to, at a reader\'s pace: painted)', figures.paintedEmpty],
      ['every table drawn, off screen too, then a frame', figures.everything],
      ['(the core\'s run() alone)', figures.core],
    ];
    for (const [label, f] of rows) console.log(`| ${label} | ${ms(f.median)} | ${ms(f.p90)} | ${ms(f.p99)} | ${ms(f.max)} |`);
    console.log(`\nlast row's weights add up to ${result.rowSum} after the last edit`);
    if (options.json) {
      const target = path.resolve(options.json);
      await writeFile(target, `${JSON.stringify({ options, chromium: version, cells: result.cells, figures, samples: result.samples }, null, 1)}\n`);
      console.error(`edit-latency: wrote ${target}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(`edit-latency: ${error?.stack ?? error}`);
  process.exit(1);
});
