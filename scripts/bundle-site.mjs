#!/usr/bin/env node
// Assembles the production site from the source folders: the served tree of `site/` and
// `web/` with every page script and every public entry module bundled and minified, so that a
// page makes a handful of requests instead of one per module.
//
//   node scripts/bundle-site.mjs --out build/site [--version 0.1.0]
//
// Layout of the output (the same relative paths as the source tree, so that a page's
// `../web/...` becomes `web/...` and nothing else changes):
//   <out>/*.html, *.css, ...    site/ (HTML references to ../web/ rewritten to web/)
//   <out>/*.js                  each page script of site/ that an HTML page loads, bundled,
//                               with the lazily loaded modules (below) its page preloads
//                               (whose hints the built page then drops)
//   <out>/*.css                 each stylesheet of site/ that an HTML page links, its @imports
//                               (site/styles/*.css) bundled in and minified
//   <out>/web/<entry>.js        the public entry modules of web/, bundled, each with its chunks
//                               beside it (<entry>-*.js): the code it loads on first use
//                               (web/elements/on-first-use.js) and the code shared with it
//   <out>/web/api/core-loader.js, web/api/attention-tracer.js, web/api/trainer.js,
//   web/api/training-channel.js, web/api/training-worker.js, web/api/trained-input.js
//                               loaded on first use, kept as separate files (minified) so that
//                               the embed bundle stays small and the generated glue is found
//                               at the same relative place as in the source tree (the training
//                               worker, bundled with what it imports, is started from
//                               training-channel.js's own URL, so the two stay side by side)
//   <out>/web/generated/        the compiler's glue (minified) and .wasm files, from web/generated/
//                               (where the wasm build writes them; a warning when it has not)
//   <out>/web/**/*.js           every other module of web/, as written, for an author who
//                               imports one piece (no page of the site loads these)
//   <out>/embed-resize.js       the script an author's host page adds for iframe embeds, as written
//   <out>/web/package.json, *.d.ts
//   <out>/benchmark-index.json  the benchmark results present in <out> (bench/site-index.mjs)
// Why a script and not the esbuild command line: the lazily loaded modules stay external, and
// their import paths have to be rewritten relative to each bundle, which needs a plugin.
import { build, transform } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { writeBenchmarkIndex } from '../bench/site-index.mjs';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const SITE = path.join(repoRoot, 'site');
const WEB = path.join(repoRoot, 'web');

// The public entry modules of web/ (what an author's page names in a script tag).
const WEB_ENTRIES = [
  'attention-explainer.js', 'attention-sequel-elements.js', 'attention-training-elements.js', 'attention-practice-elements.js',
];
// Loaded on first use and never inlined: relative to web/, kept at the same place.
const LAZY_MODULES = [
  'api/core-loader.js', 'api/attention-tracer.js', 'api/trainer.js', 'api/training-channel.js', 'api/training-worker.js',
  'api/trained-input.js',
];
const STATIC_SITE_FILE = /\.(html|css|svg|png|json)$/;
// Classic scripts that other sites' pages load (not modules of ours): copied as they are.
const HOST_SCRIPTS = ['embed-resize.js'];

function parseArguments(argv) {
  const options = { out: path.join(repoRoot, 'build', 'site'), version: null };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--out') options.out = path.resolve(argv[++i]);
    else if (argv[i] === '--version') options.version = argv[++i];
    else throw new Error(`bundle-site: unknown argument ${argv[i]} (usage: --out DIR [--version V])`);
  }
  return options;
}

// The lazily loaded modules a page preloads (`<link rel="modulepreload">`): it needs them as
// soon as its script runs, so its bundle carries them instead (one request instead of one
// each), and the production page drops those hints.
function preloadedLazyModules(html) {
  const lazy = new Set(LAZY_MODULES);
  return new Set([...html.matchAll(/<link rel="modulepreload" href="\.\.\/web\/([^"]+)">/g)]
    .map((m) => m[1]).filter((name) => lazy.has(name)));
}

// Page scripts are the module scripts that site/*.html load from site/ itself; each maps to the
// lazily loaded modules its bundle carries (those any page loading it preloads).
// `pages`: each page's HTML (file name -> text).
function pageScripts(pages) {
  const scripts = new Map();
  for (const html of pages.values()) {
    const preloaded = preloadedLazyModules(html);
    for (const [, src] of html.matchAll(/<script[^>]*\bsrc="\.\/([^"/]+\.js)"/g)) {
      scripts.set(src, new Set([...(scripts.get(src) ?? []), ...preloaded]));
    }
  }
  return [...scripts].sort(([a], [b]) => a.localeCompare(b));
}

// A page as served from the build: references to ../web/ become web/, and the hints for the
// modules its bundle now carries are dropped.
function productionPage(html) {
  let page = html;
  for (const name of preloadedLazyModules(html)) {
    page = page.replace(new RegExp(`\\n[ \\t]*<link rel="modulepreload" href="\\.\\./web/${name.replace(/[.]/g, '\\.')}">`), '');
  }
  return page.replace(/((?:src|href)=")\.\.\/web\//g, '$1web/');
}

// Stylesheets are the ones that site/*.html link from site/ itself. A sheet may be a list of
// @imports of its pieces (site/style.css of site/styles/*.css): bundled, a page still loads one
// file per link.
function pageStylesheets(pages) {
  const sheets = new Set();
  for (const html of pages.values()) {
    for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
      if (!/\brel="stylesheet"/.test(tag)) continue;
      const href = tag.match(/\bhref="\.\/([^"/]+\.css)"/);
      if (href) sheets.add(href[1]);
    }
  }
  return [...sheets].sort();
}

async function bundleStylesheet(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

// Marks the lazily loaded modules and the generated glue external, with their import path
// rewritten to where they are in the output, relative to the bundle being written.
// `carried`: lazily loaded modules (names relative to web/) this bundle includes instead.
function keepLazyModulesExternal(outfile, out, carried) {
  const lazy = new Set(LAZY_MODULES.filter((name) => !carried.has(name)).map((name) => path.join(WEB, name)));
  const generated = path.join(WEB, 'generated') + path.sep;
  return {
    name: 'lazy-modules',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = path.resolve(args.resolveDir, args.path);
        if (!lazy.has(target) && !target.startsWith(generated)) return undefined;
        const placed = path.join(out, 'web', path.relative(WEB, target));
        let relative = path.relative(path.dirname(outfile), placed).split(path.sep).join('/');
        if (!relative.startsWith('.')) relative = `./${relative}`;
        return { path: relative, external: true };
      });
    },
  };
}

// The elements' stylesheets are CSS text in template literals (web/**/*-styles.js), which the
// script minifier leaves as written: each literal assigned to a `…CSS` constant is minified as
// CSS (8.9 to 7.6 kB for the elements' own sheet). A literal holding `${`, a backslash or a
// backtick is left alone, so nothing the literal means as JavaScript can change.
const CSS_LITERAL = /^(const \w*CSS = )`([^`$\\]*)`;/gmu;
const minifyElementStyles = {
  name: 'minify-element-styles',
  setup(esbuild) {
    esbuild.onLoad({ filter: /-styles\.js$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      let code = source;
      for (const [literal, start, css] of source.matchAll(CSS_LITERAL)) {
        const minified = (await transform(css, { loader: 'css', minify: true })).code.trim();
        code = code.replace(literal, `${start}\`${minified}\`;`);
      }
      return { contents: code, loader: 'js' };
    });
  },
};

// What every bundled script of the site shares: one minified ES module with a source map.
const SCRIPT_OPTIONS = Object.freeze({
  bundle: true, format: 'esm', minify: true, sourcemap: true, legalComments: 'none', logLevel: 'warning',
  external: ['node:*'],
});
const scriptPlugins = (...plugins) => [minifyElementStyles, ...plugins];

async function bundle(entry, outfile, out, carried = new Set()) {
  await build({
    ...SCRIPT_OPTIONS,
    entryPoints: [entry],
    outfile,
    plugins: scriptPlugins(keepLazyModulesExternal(outfile, out, carried)),
  });
}

// A public entry module of web/, with the code its elements load on first use
// (web/elements/on-first-use.js) split into chunks beside it, named after the entry, which
// only a page using those elements fetches. Code both need goes into a chunk the entry imports.
async function bundleWithChunks(entry, out) {
  const outdir = path.join(out, 'web');
  const name = path.basename(entry, '.js');
  // The chunks of an earlier build (their names change with their content).
  for (const file of readdirSync(outdir).filter((n) => n.startsWith(`${name}-`) && /\.js(\.map)?$/u.test(n))) {
    rmSync(path.join(outdir, file));
  }
  await build({
    ...SCRIPT_OPTIONS,
    entryPoints: [entry],
    outdir,
    splitting: true,
    chunkNames: `${name}-[name]-[hash]`,
    plugins: scriptPlugins(keepLazyModulesExternal(path.join(outdir, `${name}.js`), out, new Set())),
  });
}

// The wasm build writes the glue into web/generated/; the site carries a copy at the same
// relative place, the .wasm as it is and the glue minified. Emscripten 3.1.6 has no closure
// compiler here and leaves the glue's own names and layout: esbuild's minifier (names local
// to the glue only; properties, which the .wasm's imports and exports name, stay) takes it
// from 9.3 to 6.9 KB gzipped for the embed build, and the browser parses half the text.
// Without the glue the pages load but cannot compute, so the script says so.
async function copyGeneratedGlue(out) {
  const generated = path.join(WEB, 'generated');
  const files = existsSync(generated) ? readdirSync(generated).filter((n) => /\.(js|wasm)$/.test(n)) : [];
  if (files.length === 0) {
    console.warn(`bundle-site: ${generated} holds no compiled core: build the wasm preset ` +
      '(scripts/build) first, or the pages will say the core failed to load');
    return;
  }
  mkdirSync(path.join(out, 'web', 'generated'), { recursive: true });
  for (const name of files) {
    const from = path.join(generated, name);
    const to = path.join(out, 'web', 'generated', name);
    if (name.endsWith('.wasm')) {
      copyFileSync(from, to);
    } else {
      const { code } = await transform(readFileSync(from, 'utf8'), { minify: true, format: 'esm', legalComments: 'none' });
      writeFileSync(to, code);
    }
  }
}

async function main() {
  const { out, version } = parseArguments(process.argv.slice(2));
  mkdirSync(path.join(out, 'web'), { recursive: true });

  const siteFiles = readdirSync(SITE);
  const pages = new Map(siteFiles.filter((name) => name.endsWith('.html'))
    .map((name) => [name, readFileSync(path.join(SITE, name), 'utf8')]));
  for (const name of siteFiles.filter((n) => STATIC_SITE_FILE.test(n))) {
    if (pages.has(name)) writeFileSync(path.join(out, name), productionPage(pages.get(name)));
    else copyFileSync(path.join(SITE, name), path.join(out, name));
  }
  for (const name of HOST_SCRIPTS) copyFileSync(path.join(SITE, name), path.join(out, name));
  for (const name of readdirSync(WEB, { recursive: true })) {
    if (!name.endsWith('.js') || name.startsWith(`generated${path.sep}`)) continue;
    mkdirSync(path.join(out, 'web', path.dirname(name)), { recursive: true });
    copyFileSync(path.join(WEB, name), path.join(out, 'web', name));
  }
  const jobs = [];
  for (const [script, carried] of pageScripts(pages)) {
    jobs.push(bundle(path.join(SITE, script), path.join(out, script), out, carried));
  }
  for (const sheet of pageStylesheets(pages)) {
    jobs.push(bundleStylesheet(path.join(SITE, sheet), path.join(out, sheet)));
  }
  // web/vendor/ re-exports npm packages from node_modules/, which the site does not carry: each
  // is bundled in place, so the readable modules that import it work in the package as well.
  const vendor = readdirSync(path.join(WEB, 'vendor')).filter((n) => n.endsWith('.js')).map((n) => `vendor/${n}`);
  for (const entry of WEB_ENTRIES) jobs.push(bundleWithChunks(path.join(WEB, entry), out));
  for (const entry of [...LAZY_MODULES, ...vendor]) {
    jobs.push(bundle(path.join(WEB, entry), path.join(out, 'web', entry), out));
  }
  await Promise.all(jobs);
  for (const name of readdirSync(WEB).filter((n) => n.endsWith('.d.ts'))) {
    copyFileSync(path.join(WEB, name), path.join(out, 'web', name));
  }
  const packageJson = readFileSync(path.join(WEB, 'package.json.in'), 'utf8')
    .replaceAll('@PROJECT_VERSION@', version ?? JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version);
  writeFileSync(path.join(out, 'web', 'package.json'), packageJson);
  await copyGeneratedGlue(out);
  // Always written, listing the benchmark results a run of scripts/bench left in <out> (none
  // on a fresh build): the benchmark page reads it instead of probing for files that 404.
  writeBenchmarkIndex(out);
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
