// The one place that says which Chromium the browser tests and the benchmarks start, and how.
//
// The tests start Debian's chromium-headless-shell: the classic headless build (what Playwright
// itself runs headless tests with), without the full browser's windowing and compositor
// machinery, so each page costs less processor time (the sequel page's test file: 120 → 88
// processor-seconds) and the pages are rendered by the same Blink and V8.
// The benchmarks that time frames (an edit, a training run) start the full browser (`full:
// true`), the one a reader uses: the shell paces and composites frames its own way (a training
// run drew 16 to 23 frames a second in the shell where the full browser drew 60 on the same
// machine). The page-load benchmark starts the shell: while a page loads, the full browser's own
// window renderer takes about as much processor time as the page (see bench/page-load.mjs).
// CHROMIUM_PATH names another build for either.

import { existsSync } from 'node:fs';
import process from 'node:process';
import { chromium } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';

/**
 * The executable to start: CHROMIUM_PATH; else the full browser when `full`, the headless shell
 * otherwise (the full browser where the shell is not installed).
 * @param {{full?: boolean}} [options]
 */
export function chromiumPath({ full = false } = {}) {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return full || !existsSync(HEADLESS_SHELL) ? FULL_CHROMIUM : HEADLESS_SHELL;
}

/**
 * Starts headless Chromium with no network of its own (background fetches off) and no sandbox
 * (the tests run as root in CI). `extraArgs` are added to the command line.
 * @param {{full?: boolean, extraArgs?: string[]}} [options]
 */
export function launchChromium({ full = false, extraArgs = [] } = {}) {
  return chromium.launch({
    executablePath: chromiumPath({ full }),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}
