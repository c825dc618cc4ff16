#!/usr/bin/env node
// The benchmark in headless Chromium: serves the repository root on 127.0.0.1 (the page needs
// build/site and node_modules), opens bench/bench-page.html, runs the same suite as Node inside
// the page, writes build/bench/results-chromium.json, copies it next to the site's benchmark page
// and prints Markdown tables. Takes the options of run-node.mjs.

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/launch-chromium.mjs';

import { startStaticServer } from '../scripts/static-server.mjs';
import { runFromCommandLine } from './command-line.mjs';
import { recordLoad } from './run-node.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs the benchmark in a fresh headless Chromium and returns the result document.
 * @param {object} options  parseBenchArguments() output, plus optional `log`
 */
export async function runChromiumBenchmark(options = {}) {
  const { log = (line) => console.error(line), out: _out, help: _help, ...benchOptions } = options;
  const server = await startStaticServer({ root: ROOT, port: 0 });
  let browser;
  try {
    browser = await launchChromium({ full: true });
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
      log(`[chromium] ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // Everything must come from this machine: a request anywhere else (a CDN fallback of a peer)
    // is refused and reported.
    const foreign = [];
    await page.route((url) => !url.href.startsWith(server.url) && url.protocol !== 'data:', (route) => {
      foreign.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${server.url}bench/bench-page.html`);
    await page.waitForFunction(() => window.benchmarkPageReady === true || undefined, undefined, { timeout: 60_000 })
      .catch(() => { throw new Error(`the benchmark page did not start: ${problems.join('; ') || 'no error reported'}`); });
    const loadBefore = os.loadavg();
    const doc = await page.evaluate((opts) => window.runBenchmark(opts), benchOptions);
    recordLoad(doc, loadBefore, os.loadavg());
    doc.environment.runtime = `Chromium ${browser.version()}, headless`;
    doc.environment.cpu = os.cpus()[0]?.model?.trim();
    if (problems.length) doc.notes.push(...problems.map((p) => `page reported: ${p}`));
    if (foreign.length) doc.notes.push(`requests outside the local server, refused: ${foreign.join(', ')}`);
    return doc;
  } finally {
    await browser?.close();
    await server.close();
  }
}

runFromCommandLine(import.meta.url, 'chromium', runChromiumBenchmark);
