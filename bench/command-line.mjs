// The command line both runners share (run-node.mjs, run-chromium.mjs): parse the options, run
// the benchmark, write the JSON, print the Markdown report.

import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { parseBenchArguments, USAGE } from './options.mjs';
import { markdownReport } from './report.mjs';
import { writeBenchmarkIndex } from './site-index.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Writes the document to `file`; with `siteName`, also copies it into build/site (when the site
 * is built) so that the site's benchmark page can plot it, and rewrites the site's index of results.
 */
export async function saveResults(doc, file, siteName) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(doc, null, 1)}\n`);
  const siteDir = path.join(ROOT, 'build/site');
  if (siteName && (await stat(siteDir).catch(() => null))) {
    await copyFile(file, path.join(siteDir, siteName));
    writeBenchmarkIndex(siteDir);  // the page fetches only what the index names
  }
}

/**
 * When the module at `moduleUrl` is the script node was started with: runs
 * `run(options)` for `environment` ("node", "chromium") and reports as the runners do. Bad
 * arguments exit with 2, a failed run with 1.
 */
export function runFromCommandLine(moduleUrl, environment, run) {
  const script = fileURLToPath(moduleUrl);
  if (!process.argv[1] || path.resolve(process.argv[1]) !== script) return;
  const name = path.basename(script, '.mjs');
  let options;
  try {
    options = parseBenchArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`${name}: ${error.message}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(`usage: node bench/${name}.mjs [options]\n${USAGE}`);
    return;
  }
  (async () => {
    const doc = await run(options);
    const out = path.resolve(options.out ?? path.join(ROOT, `build/bench/results-${environment}.json`));
    // Only the default location feeds the site's page: a run written elsewhere (a smoke test, an
    // experiment) does not replace the figures the page shows.
    await saveResults(doc, out, options.out ? undefined : `benchmark-results-${environment}.json`);
    console.log(markdownReport(doc));
    console.error(`wrote ${path.relative(process.cwd(), out)}`);
  })().catch((error) => {
    console.error(error?.stack ?? error);
    process.exit(1);
  });
}
