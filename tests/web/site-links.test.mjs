// Links between the pages of site/ (the source, as served): every link to a page of the site
// names a page that exists, and every #fragment names an id that the target page's markup
// holds, so moving a section from one page to another cannot leave a link landing at the top
// of the wrong page.

import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';

const SITE = new URL('../../site/', import.meta.url);
// href="./page.html#id", href="page.html", href="#id": relative links within site/ only.
const LOCAL_HREF = /\bhref="(?:\.\/)?([\w-]+\.html)?(?:#([^"]*))?"/g;

async function pages() {
  const names = (await readdir(SITE)).filter((name) => name.endsWith('.html')).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(new URL(name, SITE), 'utf8')])));
}

const idsOf = (html) => new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));

describe('links between the pages', () => {
  it('land on a page that exists and on an id that page holds', async () => {
    const site = await pages();
    assert.ok(site.size >= 5, `the pages of site/ are found (${site.size})`);
    const broken = [];
    let checked = 0;
    for (const [name, html] of site) {
      for (const [href, page, fragment] of html.matchAll(LOCAL_HREF)) {
        if (page === undefined && fragment === undefined) continue;
        const target = page ?? name;
        checked += 1;
        if (!site.has(target)) broken.push(`${name}: ${href} names no page of the site`);
        else if (fragment && !idsOf(site.get(target)).has(fragment)) broken.push(`${name}: ${href}: ${target} has no id "${fragment}"`);
      }
    }
    assert.ok(checked > 20, `the links are found (${checked})`);
    assert.deepEqual(broken, []);
  });
});
