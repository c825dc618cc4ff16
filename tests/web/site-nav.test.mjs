// The header every page shares: the same <nav class="site-nav"> in each page of site/ (the
// source, as served), naming the five sibling pages in the same order, the page's own link
// marked aria-current="page" and no other; the iframe embed has none. The markup is checked
// to be one piece, so that a page cannot drift from the others.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

const SITE = new URL('../../site/', import.meta.url);
const SIBLINGS = ['index.html', 'sequel.html', 'training.html', 'authors.html', 'benchmark.html'];
const PAGES = [...SIBLINGS, 'example-article.html', 'authors-sequel.html', 'authors-iframe.html'];
const read = (name) => readFile(new URL(name, SITE), 'utf8');
const NAV = /<nav class="site-nav"[\s\S]*?<\/nav>/g;

describe('the shared site header', () => {
  it('is one piece of markup on every page, differing only in which link is current', async () => {
    const shapes = new Map();
    for (const name of PAGES) {
      const html = await read(name);
      const navs = html.match(NAV) ?? [];
      assert.equal(navs.length, 1, `${name}: one site header`);
      const [nav] = navs;
      assert.match(nav, /aria-label="[^"]+"/, `${name}: the navigation landmark is named`);
      const hrefs = [...nav.matchAll(/<a href="\.\/([^"#]+)"/g)].map((m) => m[1]);
      assert.deepEqual(hrefs, SIBLINGS, `${name}: links to the five siblings in order`);
      const current = [...nav.matchAll(/<a href="\.\/([^"]+)" aria-current="page">/g)].map((m) => m[1]);
      assert.deepEqual(current, SIBLINGS.includes(name) ? [name] : [], `${name}: aria-current on its own link only`);
      // Linked, or bundled into a sheet the page links (the walkthrough's style.css imports it).
      const linked = [...html.matchAll(/<link rel="stylesheet" href="\.\/([^"]+)">/g)].map((m) => m[1]);
      const imported = await Promise.all(linked.map(async (sheet) => (await read(sheet)).includes('@import url("./site-nav.css")')));
      assert.ok(linked.includes('site-nav.css') || imported.some(Boolean), `${name}: links the header's sheet`);
      // Before <main>: the reader meets it first, after the skip link.
      assert.ok(html.indexOf(nav) < html.indexOf('<main'), `${name}: the header comes before main`);
      shapes.set(name, nav.replace(' aria-current="page"', ''));
    }
    const [first, ...rest] = [...shapes.values()];
    for (const [name, shape] of shapes) assert.equal(shape, first, `${name}: the same markup as index.html`);
    assert.ok(rest.length === PAGES.length - 1);
  });

  it('is left out of the iframe embed, which sits inside someone else\u2019s page', async () => {
    const embed = await read('embed.html');
    assert.doesNotMatch(embed, /site-nav/);
  });

  it('is hidden in print', async () => {
    const css = await read('site-nav.css');
    assert.match(css, /@media print\s*{\s*\.site-nav\s*{\s*display: none/);
  });
});
