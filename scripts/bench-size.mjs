#!/usr/bin/env node
// The size benchmark: what a page that embeds the explainer downloads, gzipped. It follows the
// static imports of build/site/web/attention-explainer.js (the one <script> an author adds) and
// the .wasm files those modules fetch with new URL("….wasm", import.meta.url), and the core
// build the elements import as soon as one is on the page (attention-core-embed.js), then prints
// each file's raw and gzipped size and the total against the 60 KB target. Other dynamic imports
// (a build a page only loads when asked, Node-only helpers) are listed apart and not counted.
//
// A benchmark, not a test: it prints figures and exits 0 whatever the total, unless --check is
// given (then it exits 1 over the target).
//
// Usage: scripts/bench-size [--site DIR] [--entry FILE] [--check]

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** 60 KB, counted as 60 × 1024 bytes. */
export const TARGET_BYTES = 60 * 1024;

/** The build of the core that the embeddable elements import when the first one connects. */
export const ELEMENTS_BUILD = ['generated/attention-core-embed.js'];

const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const WASM_URL = /new URL\(\s*['"]([^'"]+\.wasm)['"]\s*,\s*import\.meta\.url\s*\)/g;

/**
 * The files a page downloads when it loads `entry` from `siteDir`: the static module graph, the
 * dynamic imports named in `loaded`, and the .wasm they fetch, in the order they are found; plus
 * the dynamic imports it does not follow.
 * @param {string} siteDir
 * @param {string} [entry]
 * @param {string[]} [loaded]
 * @returns {Promise<{files: string[], dynamic: string[]}>}  names relative to siteDir
 */
export async function moduleGraph(siteDir, entry = 'attention-explainer.js', loaded = ELEMENTS_BUILD) {
  const files = [];
  const dynamic = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const name = queue.shift();
    if (files.includes(name)) continue;
    files.push(name);
    if (!name.endsWith('.js')) continue;
    const source = await readFile(path.join(siteDir, name), 'utf8');
    const relative = (specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(name), specifier));
    for (const [, specifier] of source.matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) queue.push(relative(specifier));
    }
    for (const [, specifier] of source.matchAll(WASM_URL)) queue.push(relative(specifier));
    for (const [, specifier] of source.matchAll(DYNAMIC_IMPORT)) {
      const target = specifier.startsWith('.') ? relative(specifier) : specifier;
      if (loaded.includes(target)) queue.push(target);
      else dynamic.add(target);
    }
  }
  return { files, dynamic: [...dynamic].filter((name) => !files.includes(name)) };
}

/** Raw and gzipped (level 9, as a static host would precompress) bytes of each file. */
export async function measure(siteDir, files) {
  const rows = [];
  for (const name of files) {
    const bytes = await readFile(path.join(siteDir, name));
    rows.push({ name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return rows;
}

function parseArguments(argv) {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const options = { site: path.join(repoRoot, 'build', 'site', 'web'), entry: 'attention-explainer.js', check: false };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--check') options.check = true;
    else if (flag === '--site' || flag === '--entry') {
      if (argv[i + 1] === undefined) throw new Error(`${flag} needs a value`);
      options[flag.slice(2)] = argv[i + 1];
      i += 1;
    } else throw new Error(`unknown argument: ${flag} (usage: scripts/bench-size [--site DIR] [--entry FILE] [--check])`);
  }
  return options;
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`bench-size: ${error.message}`);
    process.exit(2);
  }
  const { files, dynamic } = await moduleGraph(options.site, options.entry);
  const rows = await measure(options.site, files);
  const width = Math.max(...rows.map((row) => row.name.length), 'total'.length);
  const line = (name, raw, gzip) => `${name.padEnd(width)}  ${String(raw).padStart(9)}  ${String(gzip).padStart(9)}`;
  const relative = path.relative(process.cwd(), options.site);
  const where = relative === '' ? '.' : relative.startsWith('..') ? path.resolve(options.site) : relative;
  console.log(`What a page embedding ${options.entry} downloads (${where}):`);
  console.log(line('file', 'bytes', 'gzip -9'));
  for (const row of rows) console.log(line(row.name, row.raw, row.gzip));
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
  console.log(line('total', total.raw, total.gzip));
  const wasm = rows.filter((row) => row.name.endsWith('.wasm')).reduce((sum, row) => sum + row.gzip, 0);
  console.log(`  of which JavaScript ${total.gzip - wasm} and WebAssembly ${wasm} bytes gzipped`);
  if (dynamic.length > 0) console.log(`not counted (dynamic imports, loaded only on demand): ${dynamic.join(', ')}`);
  const verdict = total.gzip <= TARGET_BYTES ? 'within' : 'OVER';
  console.log(`gzipped total ${(total.gzip / 1024).toFixed(1)} KB: ${verdict} the target of ${TARGET_BYTES / 1024} KB ` +
    `(${TARGET_BYTES} bytes)`);
  if (options.check && total.gzip > TARGET_BYTES) process.exitCode = 1;
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) main();
