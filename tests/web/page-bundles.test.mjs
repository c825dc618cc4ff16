// The production pages (scripts/bundle-site.mjs, run here into a folder of its own): a page's
// bundle carries the lazily loaded modules the source page preloads, so the built page neither
// hints nor imports them (one request instead of one each), while the web package's entry module
// still loads the core's loader on first use; every script, stylesheet and hint of a built page
// names a file of the built site.
//
// Run after the wasm build: node --test tests/web/page-bundles.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
let out;

before(() => {
  out = mkdtempSync(path.join(os.tmpdir(), 'site-'));
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts/bundle-site.mjs'), '--out', out], { stdio: 'pipe' });
});
after(() => rmSync(out, { recursive: true, force: true }));

// The web/api/ modules a page hints with modulepreload (paths relative to web/).
const hintedApiModules = (html, prefix) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)]
  .map((m) => m[1]).filter((href) => href.startsWith(`${prefix}web/api/`)).map((href) => href.slice(`${prefix}web/`.length));
const pageScripts = (html) => [...html.matchAll(/<script[^>]*\bsrc="\.\/([^"/]+\.js)"/g)].map((m) => m[1]);
// What a bundle still imports from web/api/ at run time.
const importedApiModules = (code) => [...code.matchAll(/import\("\.\/web\/(api\/[^"]+)"\)/g)].map((m) => m[1]);

test('a page\u2019s bundle carries the modules its source page preloads, and the built page drops their hints', () => {
  const pages = readdirSync(path.join(repoRoot, 'site')).filter((name) => name.endsWith('.html'));
  const preloading = pages.filter((page) => hintedApiModules(readFileSync(path.join(repoRoot, 'site', page), 'utf8'), '../').length > 0);
  assert.deepEqual(preloading.sort(), ['index.html', 'sequel.html']);
  for (const page of preloading) {
    const preloaded = hintedApiModules(readFileSync(path.join(repoRoot, 'site', page), 'utf8'), '../');
    assert.deepEqual(preloaded.sort(), ['api/attention-tracer.js', 'api/core-loader.js', 'api/trainer.js'], page);
    const built = readFileSync(path.join(out, page), 'utf8');
    assert.deepEqual(hintedApiModules(built, ''), [], page);
    const scripts = pageScripts(built);
    assert.equal(scripts.length, 1, page);
    const carried = importedApiModules(readFileSync(path.join(out, scripts[0]), 'utf8'));
    for (const name of preloaded) assert.ok(!carried.includes(name), `${scripts[0]} still imports ${name}`);
    // The glue and the .wasm are still hinted: they stay files of their own.
    assert.match(built, /<link rel="modulepreload" href="web\/generated\/attention-core\.js">/, page);
    assert.match(built, /<link rel="preload" href="web\/generated\/attention-core\.wasm"/, page);
  }
});

test('an entry module whose page preloads nothing still loads the core\u2019s loader on first use', () => {
  // The entry and the chunks it imports (the code it shares with what it loads on first use).
  const entry = readFileSync(path.join(out, 'web/attention-explainer.js'), 'utf8');
  const chunks = [...entry.matchAll(/from"\.\/(attention-explainer-chunk-[A-Z0-9]+\.js)"/gu)].map((m) => m[1]);
  const explainer = [entry, ...chunks.map((name) => readFileSync(path.join(out, 'web', name), 'utf8'))].join('\n');
  assert.ok(/import\("\.\/api\/core-loader\.js"\)|from"\.\/api\/core-loader\.js"/.test(explainer),
    'web/attention-explainer.js keeps web/api/core-loader.js a file of its own');
});

test('every script, stylesheet and hint of a built page names a file of the built site', () => {
  const pages = readdirSync(out).filter((name) => name.endsWith('.html'));
  assert.ok(pages.length >= 5, pages.join(' '));
  const missing = [];
  for (const page of pages) {
    const html = readFileSync(path.join(out, page), 'utf8');
    for (const [, href] of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\.?\/?[^":#?]+)"/g)) {
      if (!existsSync(path.join(out, href))) missing.push(`${page}: ${href}`);
    }
  }
  assert.deepEqual(missing, []);
});
