// The one place that says which Chromium the browser tests and the benchmarks start, and how.
//
// Debian's chromium-headless-shell by default: the classic headless build (what Playwright
// itself runs headless tests with), without the full browser's windowing and compositor
// machinery, so each page costs less processor time (the sequel page's test file: 120 → 88
// processor-seconds), and the pages are rendered by the same Blink and V8. CHROMIUM_PATH names another build, for
// example Debian's full /usr/bin/chromium, to compare or to look at a page with a window.

import { existsSync } from 'node:fs';
import process from 'node:process';
import { chromium } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';

/** The executable to start: CHROMIUM_PATH, else the headless shell, else full Chromium. */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}

/**
 * Starts headless Chromium with no network of its own (background fetches off) and no sandbox
 * (the tests run as root in CI). `extraArgs` are added to the command line.
 * @param {{extraArgs?: string[]}} [options]
 */
export function launchChromium({ extraArgs = [] } = {}) {
  return chromium.launch({
    executablePath: chromiumPath(),
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
