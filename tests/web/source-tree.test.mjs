// The source tree is the served tree: every relative import, script and stylesheet reference in
// web/ and site/ resolves, as written, to a file of the repository. The one exception is the
// compiler's generated glue of the wasm builds, which lives in web/generated/ (written by the
// wasm build, not committed) and is imported only by web/api/core-loader.js; a page may name
// one of the files that module loads in a preload hint, so the download starts with the page's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const GENERATED = 'web/generated/';
const GLUE_IMPORTER = 'web/api/core-loader.js';
// Packages from npm are reached through one module each in web/vendor/, and from nowhere else.
const PACKAGES = 'node_modules/';
const VENDOR = 'web/vendor/';

// Static and dynamic imports, JSDoc type imports, and src/href attributes of HTML.
const REFERENCE = /(?:from\s+|import\s*\(\s*|import\s+|src=|href=)['"](\.{1,2}\/[^'"#?]+)['"]/g;

function trackedFiles() {
  return execFileSync('git', ['ls-files', 'web', 'site'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n').filter((file) => /\.(m?js|html|css|ts)$/.test(file));
}

// The generated files web/api/core-loader.js loads: the glue it imports and the .wasm each glue
// fetches beside itself (named in CORE_BUILDS).
function coreLoaderFiles() {
  const text = readFileSync(path.join(repoRoot, GLUE_IMPORTER), 'utf8');
  const files = new Set();
  for (const [, spec] of text.matchAll(/import\(\s*'(\.\.\/generated\/[^']+\.js)'\s*\)/g)) {
    files.add(path.posix.join('web/api', spec));
  }
  for (const [, name] of text.matchAll(/wasm:\s*'([^']+\.wasm)'/g)) files.add(GENERATED + name);
  return files;
}
const loadedByCoreLoader = coreLoaderFiles();

test('a page preloads only generated files that web/api/core-loader.js loads', () => {
  assert.ok(loadedByCoreLoader.has('web/generated/attention-core.js'), [...loadedByCoreLoader].join(', '));
  assert.ok(loadedByCoreLoader.has('web/generated/attention-core.wasm'), [...loadedByCoreLoader].join(', '));
  const page = readFileSync(path.join(repoRoot, 'site/index.html'), 'utf8');
  const hinted = [...page.matchAll(/<link rel="(?:modulepreload|preload)" href="\.\.\/(web\/generated\/[^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(hinted.sort(), ['web/generated/attention-core.js', 'web/generated/attention-core.wasm']);
});

test('every relative reference in web/ and site/ resolves to a file in the repository', () => {
  const files = trackedFiles();
  assert.ok(files.length > 40, `found ${files.length} files under web/ and site/`);
  const broken = [];
  let checked = 0;
  for (const file of files) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [reference, spec] of text.matchAll(REFERENCE)) {
      const target = path.normalize(path.join(path.dirname(file), spec)).split(path.sep).join('/');
      checked += 1;
      // npm packages are reached only through web/vendor/ (one module per package).
      if (target.startsWith('node_modules/') && !file.startsWith('web/vendor/')) {
        broken.push(`${file}: ${spec} (only web/vendor/ refers into node_modules/)`);
        continue;
      }
      if (target.startsWith(GENERATED)) {
        const hinted = file.endsWith('.html') && reference.startsWith('href=') && loadedByCoreLoader.has(target);
        if (file !== GLUE_IMPORTER && !hinted) broken.push(`${file}: ${spec} (only ${GLUE_IMPORTER} imports the generated glue)`);
        continue;
      }
      if (target.startsWith(PACKAGES) && !file.startsWith(VENDOR)) {
        broken.push(`${file}: ${spec} (only ${VENDOR} imports from ${PACKAGES})`);
        continue;
      }
      // A declaration file names another as TypeScript resolves it: './x.js' is x.js's
      // declarations, x.d.ts, which may describe no module of its own (the main entry's elements).
      const declared = file.endsWith('.d.ts') && target.endsWith('.js') && existsSync(path.join(repoRoot, target.replace(/\.js$/, '.d.ts')));
      if (!existsSync(path.join(repoRoot, target)) && !declared) broken.push(`${file}: ${spec} -> ${target}`);
    }
  }
  assert.ok(checked > 100, `checked ${checked} references`);
  assert.deepEqual(broken, []);
});

test('site/ holds no module of web/ under the same name (pages import ../web/ as written)', () => {
  const files = trackedFiles();
  const webNames = new Set(files.filter((f) => f.startsWith('web/')).map((f) => path.basename(f)));
  const twins = files.filter((f) => f.startsWith('site/') && f.endsWith('.js') && webNames.has(path.basename(f)));
  assert.deepEqual(twins, []);
});

test('web/ never imports from site/ (the layers point inward: pages use web/, not the reverse)', () => {
  const outward = [];
  for (const file of trackedFiles().filter((f) => f.startsWith('web/') && f.endsWith('.js'))) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [reference, spec] of text.matchAll(REFERENCE)) {
      const target = path.normalize(path.join(path.dirname(file), spec)).split(path.sep).join('/');
      if (target.startsWith(PACKAGES) && file.startsWith(VENDOR)) continue;
      if (!target.startsWith('web/')) outward.push(`${file}: ${spec}`);
    }
  }
  assert.deepEqual(outward, []);
});

test('web/api/ never imports from web/elements/ or web/views/ (the API sits below what draws it)', () => {
  const apiFiles = trackedFiles().filter((f) => f.startsWith('web/api/') && f.endsWith('.js'));
  assert.ok(apiFiles.length >= 10, `found ${apiFiles.length} modules in web/api/`);
  const upward = [];
  let checked = 0;
  for (const file of apiFiles) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [reference, spec] of text.matchAll(REFERENCE)) {
      checked += 1;
      const target = path.normalize(path.join(path.dirname(file), spec)).split(path.sep).join('/');
      if (target.startsWith('web/elements/') || target.startsWith('web/views/')) upward.push(`${file}: ${spec}`);
    }
  }
  assert.ok(checked >= 10, `checked ${checked} references`);
  assert.deepEqual(upward, []);
});
