// How part one (site/index.html) ends: after the questions, in this order, how to check it
// yourself (the on-page check, the command-line tool, the test suite), what it leaves out (the
// cost) with the way on to part two, and further reading with Vaswani et al. (2017) linked.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

const html = await readFile(new URL('../../site/index.html', import.meta.url), 'utf8');
const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
const sections = [...main.matchAll(/<section\b[\s\S]*?<\/section>/g)].map((m) => m[0]);
const heading = (section) => /<h2[^>]*>([\s\S]*?)<\/h2>/.exec(section)?.[1] ?? '';

describe('the end of part one', () => {
  it('closes with checking, what it leaves out, and further reading, after the questions', () => {
    const last = sections.slice(-4).map(heading);
    assert.match(last[0], /Questions/);
    assert.match(last[1], /[Cc]heck/);
    assert.match(last[2], /leaves out/);
    assert.match(last[3], /Further reading/);
  });

  it('says how to check it: the on-page check, the command-line tool and the tests', () => {
    const check = sections.at(-3);
    const target = /<a href="#([^"]+)">[^<]*on-page check/.exec(check);
    assert.ok(target, 'links to the on-page check');
    assert.ok(html.includes(`id="${target[1]}"`), `#${target[1]} exists on the page`);
    assert.match(check, /<code>attention-by-hand<\/code>/);
    assert.match(check, /<code>attention-by-hand --json<\/code>/);
    assert.match(check, /<code>scripts\/test<\/code>/);
  });

  it('names the cost it leaves out and leads on to part two', () => {
    const leaves = sections.at(-2);
    assert.match(leaves, /cost/);
    assert.match(leaves, /<a href="\.\/sequel\.html">Part two<\/a>/);
  });

  it('links Vaswani et al. (2017)', () => {
    const reading = sections.at(-1);
    assert.match(reading, /Vaswani et al\. \(2017\)/);
    assert.match(reading, /<a href="https:\/\/arxiv\.org\/abs\/1706\.03762"><cite>Attention Is All You Need<\/cite><\/a>/);
  });
});
