// The README and the docs/ pages, checked as a reader meets them: every relative link leads to
// a file of the repository (and, with a #fragment, to a heading of that Markdown file or an id of
// that HTML page), the README stays short enough to read in two minutes, and its Quick start
// names exactly the two commands a newcomer needs.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const README_MAX_LINES = 120;
const QUICK_START_COMMANDS = ['scripts/serve', 'scripts/test'];

const markdownFiles = [
  join(repoRoot, 'README.md'),
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(repoRoot, 'docs', name)),
];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function proseOf(markdown) {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every [text](target) and ![alt](target) target, without an optional "title". */
export function linkTargets(markdown) {
  return [...proseOf(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file) {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.md')) {
    const slugs = new Set();
    const seen = new Map();
    for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      slugs.add(count === 0 ? slug : `${slug}-${count}`);
      seen.set(slug, count + 1);
    }
    return slugs;
  }
  if (file.endsWith('.html')) return new Set([...text.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
  return null;   // no anchors to check in other files
}

/** What is wrong with one link of `fromFile`, or null when it resolves. */
export function brokenLink(fromFile, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;   // https:, mailto:: not ours to check
  const [pathPart, fragment] = target.split('#', 2);
  const file = pathPart === '' ? fromFile : join(dirname(fromFile), decodeURIComponent(pathPart));
  if (!file.startsWith(repoRoot)) return `${target}: leaves the repository`;
  if (!existsSync(file)) return `${target}: no such file (${relative(repoRoot, file)})`;
  if (fragment === undefined || statSync(file).isDirectory()) return null;
  const anchors = anchorsOf(file);
  if (anchors && !anchors.has(fragment)) return `${target}: ${relative(repoRoot, file)} has no #${fragment}`;
  return null;
}

describe('links in README.md and docs/*.md', () => {
  it('finds the docs pages and links in them', () => {
    assert.ok(markdownFiles.length > 1, 'docs/ holds Markdown pages');
    assert.ok(linkTargets(readFileSync(markdownFiles[0], 'utf8')).length > 0, 'README.md links somewhere');
  });

  for (const file of markdownFiles) {
    it(`every relative link of ${relative(repoRoot, file)} resolves`, () => {
      const problems = linkTargets(readFileSync(file, 'utf8'))
        .map((target) => brokenLink(file, target))
        .filter(Boolean);
      assert.deepEqual(problems, []);
    });
  }

  it('README.md links every docs page', () => {
    const linked = new Set(linkTargets(readFileSync(markdownFiles[0], 'utf8')).map((target) => target.split('#')[0]));
    for (const file of markdownFiles.slice(1)) {
      assert.ok(linked.has(relative(repoRoot, file)), `README.md links ${relative(repoRoot, file)}`);
    }
  });
});

describe('the link checker itself', () => {
  const readme = join(repoRoot, 'README.md');
  it('reports a missing file, a missing anchor and a path outside the repository', () => {
    assert.match(brokenLink(readme, 'docs/no-such-page.md'), /no such file/);
    assert.match(brokenLink(readme, 'CHANGELOG.md#no-such-heading'), /has no #no-such-heading/);
    assert.match(brokenLink(readme, '../outside.md'), /leaves the repository/);
    assert.equal(brokenLink(readme, 'CHANGELOG.md#unreleased'), null);
    assert.equal(brokenLink(readme, 'https://example.org/x.md'), null);
  });

  it('ignores link syntax inside code', () => {
    assert.deepEqual(linkTargets('[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n![g](h.png "t")'), ['b.md', 'h.png']);
  });

  it('makes GitHub\u2019s heading anchors', () => {
    assert.equal(headingSlug('The `tracer()`: typed arrays, no JSON'), 'the-tracer-typed-arrays-no-json');
    assert.equal(headingSlug('Limits of attend()'), 'limits-of-attend');
  });
});

describe('README.md', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

  it(`is at most ${README_MAX_LINES} lines`, () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; the limit is ${README_MAX_LINES}`);
  });

  it('names exactly the two Quick start commands', () => {
    const section = /^## Quick start\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
    assert.ok(section, 'README.md has a "## Quick start" section');
    const blocks = [...section.matchAll(/^```(?:sh|bash|console)?\n([\s\S]*?)^```/gm)];
    assert.equal(blocks.length, 1, 'one code block of commands');
    const commands = blocks[0][1]
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    assert.deepEqual(commands, QUICK_START_COMMANDS);
  });

  it('shows the screenshot', () => {
    assert.ok(linkTargets(readme).includes('docs/screenshot.png'));
  });
});
