// The index of benchmark results that site/benchmark.html reads first. The page fetches only
// the result documents the index names, so that a site with no results yet makes no failed
// requests: the build always writes the index (scripts/bundle-site.mjs), and every run that
// copies its results into the built site rewrites it (bench/command-line.mjs).

import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const INDEX_FILE = 'benchmark-index.json';
export const INDEX_SCHEMA = 'attention-by-hand/benchmark-index@1';

// The result documents the page knows how to show, in the order it shows them.
export const RESULT_FILES = [
  { file: 'benchmark-results-node.json', where: 'Node' },
  { file: 'benchmark-results-chromium.json', where: 'Chromium' },
];

/** The index of the result documents present in `siteDir`. */
export function benchmarkIndex(siteDir) {
  return {
    schema: INDEX_SCHEMA,
    runs: RESULT_FILES.filter(({ file }) => existsSync(path.join(siteDir, file))),
  };
}

/** Writes `siteDir`/benchmark-index.json from the result documents present there. */
export function writeBenchmarkIndex(siteDir) {
  const index = benchmarkIndex(siteDir);
  writeFileSync(path.join(siteDir, INDEX_FILE), `${JSON.stringify(index, null, 1)}\n`);
  return index;
}
