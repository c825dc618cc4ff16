// The web package around the embeddable elements, checked against what it describes: the
// generated package.json (version = CMake's project version, types first in exports), the
// CHANGELOG's form, the hand-written declarations (every API method, element and attribute),
// the authors' pages (every element, attribute, hash key, custom property and part, each said on
// one of the pages and not on two), and the
// size benchmark's view of the module graph.
//
// Run after the wasm build: the package is build/site/web/ (ATTN_SITE_DIR may name another
// assembled site folder); the element classes come from the source tree.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleGraph } from '../../scripts/bench-size.mjs';
import { ELEMENT_NAMES } from '../../web/elements/element-config.js';
import { AttentionPiece } from '../../web/elements/element-pieces.js';
import { HASH_ATTRIBUTE_KEYS, HIDEABLE } from '../../web/state/embed-hash.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const siteDir = resolve(process.env.ATTN_SITE_DIR ?? join(repoRoot, 'build', 'site'));
const packageDir = join(siteDir, 'web');
const read = (...parts) => readFile(join(...parts), 'utf8');
const AUTHOR_PAGES = ['authors.html', 'authors-sequel.html', 'authors-iframe.html'];

let elements;   // tag name -> class, from the built module
let declarations;
let authors;   // page name -> its HTML: the walkthrough's elements, parts two and three's, the iframe embed

before(async () => {
  assert.ok(existsSync(join(packageDir, 'package.json')), 'build/site/web/package.json: build the site first (scripts/build)');
  const module = {
    ...await import('../../web/elements/elements.js'),
    // Defined when one is on the page, from modules of their own (define-on-sight.js).
    ...await import('../../web/elements/heads-element.js'),
    ...await import('../../web/elements/head-dim-study-element.js'),
  };
  elements = {
    [ELEMENT_NAMES.explainer]: module.AttentionExplainerElement,
    [ELEMENT_NAMES.model]: module.AttentionModelElement,
    [ELEMENT_NAMES.step]: module.AttentionStepElement,
    [ELEMENT_NAMES.maskGrid]: module.AttentionMaskGridElement,
    [ELEMENT_NAMES.arrows]: module.AttentionArrowsElement,
    [ELEMENT_NAMES.working]: module.AttentionWorkingElement,
    [ELEMENT_NAMES.heads]: module.AttentionHeadsElement,
    [ELEMENT_NAMES.nextWord]: module.AttentionNextWordElement,
    [ELEMENT_NAMES.headDimStudy]: module.AttentionHeadDimStudyElement,
  };
  // The main entry's declarations: the API, and the elements in a file of their own it re-exports.
  const main = await read(packageDir, 'attention-explainer.d.ts');
  assert.match(main, /^export \* from '\.\/attention-explainer-elements\.js';$/m, 'the main declarations re-export the elements');
  declarations = `${main}\n${await read(packageDir, 'attention-explainer-elements.d.ts')}`;
  authors = Object.fromEntries(await Promise.all(AUTHOR_PAGES.map(async (name) => [name, await read(siteDir, name)])));
});

describe('package.json of the web package', () => {
  it('takes its version from the CMake project and exports the types first', async () => {
    const pkg = JSON.parse(await read(packageDir, 'package.json'));
    const cmake = await read(repoRoot, 'CMakeLists.txt');
    const version = /project\(\s*attention_by_hand\s+VERSION\s+([0-9.]+)/.exec(cmake)?.[1];
    assert.ok(version, 'CMakeLists.txt declares a project version');
    assert.equal(pkg.version, version);
    assert.equal(pkg.name, 'attention-by-hand');
    assert.equal(pkg.type, 'module');
    const main = pkg.exports['.'];
    assert.deepEqual(Object.keys(main)[0], 'types', 'types come first, or TypeScript may not see them');
    assert.equal(main.types, './attention-explainer.d.ts');
    assert.equal(main.default, './attention-explainer.js');
    for (const file of [main.types, main.default, pkg.types]) assert.ok(existsSync(join(packageDir, file)), file);
    const sequel = pkg.exports['./sequel-elements'];
    assert.deepEqual(Object.keys(sequel), ['types', 'default']);
    for (const file of Object.values(sequel)) assert.ok(existsSync(join(packageDir, file)), file);
    const training = pkg.exports['./training-elements'];
    assert.deepEqual(Object.keys(training), ['types', 'default']);
    for (const file of Object.values(training)) assert.ok(existsSync(join(packageDir, file)), file);
  });
});

describe('attention-sequel-elements.d.ts', () => {
  it('maps every sequel element and declares every export of the module', async () => {
    const sequelDeclarations = await read(packageDir, 'attention-sequel-elements.d.ts');
    const module = await import(pathToFileURL(join(packageDir, 'attention-sequel-elements.js')).href);
    const { SEQUEL_ELEMENTS } = await import('../../web/elements/sequel/sequel-elements.js');
    const tagMap = /interface HTMLElementTagNameMap \{([\s\S]*?)\}/.exec(sequelDeclarations)?.[1] ?? '';
    for (const [name, cls] of Object.entries(SEQUEL_ELEMENTS)) {
      assert.match(tagMap, new RegExp(`'${name}': ${cls.name};`), name);
      assert.match(sequelDeclarations, new RegExp(`export interface ${cls.name} extends SequelElement`), cls.name);
    }
    for (const name of Object.keys(module)) {
      assert.match(sequelDeclarations, new RegExp(`export (declare const|function|\\{) ?${name}\\b|export \\{ ${name} \\}`), `export ${name}`);
    }
    assert.match(sequelDeclarations, /readonly result: SequelResult \| null;/);
    assert.match(sequelDeclarations, /readonly problem: string \| null;/);
  });
});

describe('CHANGELOG.md', () => {
  it('follows Keep a Changelog and has a dated section for the package version', async () => {
    const changelog = await read(repoRoot, 'CHANGELOG.md');
    const pkg = JSON.parse(await read(packageDir, 'package.json'));
    assert.match(changelog, /^# Changelog\n/);
    assert.match(changelog, /\[Keep a Changelog\]\(https:\/\/keepachangelog\.com\/en\/1\.1\.0\/\)/);
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.equal(headings[0], '[Unreleased]');
    for (const heading of headings.slice(1)) assert.match(heading, /^\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/, heading);
    assert.ok(headings.some((heading) => heading.startsWith(`[${pkg.version}] - `)), `a section for ${pkg.version}`);
    for (const kind of changelog.matchAll(/^### (.+)$/gm)) {
      assert.ok(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(kind[1]), kind[1]);
    }
  });
});

describe('attention-explainer.d.ts', () => {
  it('declares every method of the API the module returns', async () => {
    const { createAttention } = await import(pathToFileURL(join(packageDir, 'attention-explainer.js')).href);
    const api = await createAttention();
    const body = /export interface AttentionApi \{([\s\S]*?)\n\}/.exec(declarations)?.[1] ?? '';
    for (const name of Object.keys(api)) assert.match(body, new RegExp(`\\n  ${name}\\(`), `AttentionApi.${name}`);
    assert.match(declarations, /export function createAttention\(/);
  });

  it('maps every element\u2019s tag name and declares a property for each of its attributes', () => {
    const tagMap = /interface HTMLElementTagNameMap \{([\s\S]*?)\}/.exec(declarations)?.[1] ?? '';
    for (const [name, cls] of Object.entries(elements)) {
      assert.match(tagMap, new RegExp(`'${name}': \\w+Element;`), name);
      for (const attribute of cls.observedAttributes) {
        if (attribute === 'id') continue;
        // A hyphenated attribute's property is camel-cased, as the DOM's are (d-model: dModel).
        const property = attribute.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
        assert.match(declarations, new RegExp(`\\n  (readonly )?${property}: `), `${name}: property ${property}`);
      }
    }
    assert.match(declarations, /'attention-change': AttentionChangeEvent;/);
    assert.match(declarations, /readonly trace: AttentionTrace \| null;/);
  });
});

// The section of that id on whichever authors' page holds it; exactly one of them does.
function section(id) {
  const found = AUTHOR_PAGES.flatMap((name) => {
    const match = new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`).exec(authors[name]);
    return match ? [match[1]] : [];
  });
  assert.equal(found.length, 1, `one authors' page has a section #${id}`);
  return found[0];
}

describe('attention-training-elements.d.ts', () => {
  it('maps every training element and declares every export of the module', async () => {
    const trainingDeclarations = await read(packageDir, 'attention-training-elements.d.ts');
    const module = await import(pathToFileURL(join(packageDir, 'attention-training-elements.js')).href);
    const { TRAINING_ELEMENTS } = await import('../../web/elements/training/training-elements.js');
    const tagMap = /interface HTMLElementTagNameMap \{([\s\S]*?)\}/.exec(trainingDeclarations)?.[1] ?? '';
    for (const [name, cls] of Object.entries(TRAINING_ELEMENTS)) {
      assert.match(tagMap, new RegExp(`'${name}': ${cls.name};`), name);
      assert.match(trainingDeclarations, new RegExp(`export interface ${cls.name} extends (HTMLElement|TrainingPiece)`), cls.name);
    }
    for (const name of Object.keys(module)) {
      assert.match(trainingDeclarations, new RegExp(`export (declare const|function|\\{) ?${name}\\b|export \\{ ${name} \\}`), `export ${name}`);
    }
  });
});

describe('attention-practice-elements.d.ts', () => {
  it('maps every practice element and declares every export of the module', async () => {
    const practiceDeclarations = await read(packageDir, 'attention-practice-elements.d.ts');
    const module = await import(pathToFileURL(join(packageDir, 'attention-practice-elements.js')).href);
    const { PRACTICE_ELEMENTS } = await import('../../web/elements/practice/practice-elements.js');
    const tagMap = /interface HTMLElementTagNameMap \{([\s\S]*?)\}/.exec(practiceDeclarations)?.[1] ?? '';
    for (const [name, cls] of Object.entries(PRACTICE_ELEMENTS)) {
      assert.match(tagMap, new RegExp(`'${name}': ${cls.name};`), name);
      assert.match(practiceDeclarations, new RegExp(`export interface ${cls.name} extends HTMLElement`), cls.name);
    }
    for (const name of Object.keys(module)) {
      assert.match(practiceDeclarations, new RegExp(`export (declare const|function|\\{) ?${name}\\b|export \\{ ${name} \\}`), `export ${name}`);
    }
    const pkg = JSON.parse(await read(packageDir, 'package.json'));
    assert.deepEqual(pkg.exports['./practice-elements'], { types: './attention-practice-elements.d.ts', default: './attention-practice-elements.js' });
    assert.ok(pkg.files.includes('practice/*.js'), 'the package carries web/practice/, which the element imports');
  });
});

describe('authors.html', () => {
  it('documents every element and each of its attributes, with a snippet', () => {
    const shared = section('pieces');   // the attributes every piece takes, said once
    for (const [name, cls] of Object.entries(elements)) {
      const text = section(name);
      assert.match(text, new RegExp(`&lt;${name}[ &]`), `${name}: a snippet using it`);
      const piece = cls.prototype instanceof AttentionPiece;
      for (const attribute of cls.observedAttributes) {
        const documented = `<dt><code>${attribute}</code></dt>`;
        assert.ok(text.includes(documented) || (piece && shared.includes(documented)), `${name}: attribute ${attribute} is documented`);
      }
    }
  });

  it('documents every sequel element and each of its attributes, with a snippet', async () => {
    const { SEQUEL_ELEMENTS } = await import('../../web/elements/sequel/sequel-elements.js');
    const shared = section('sequel');   // the toy layer's attributes, said once for the elements that share them
    assert.match(shared, /attention-sequel-elements\.js/);
    for (const [name, cls] of Object.entries(SEQUEL_ELEMENTS)) {
      const text = section(name);
      assert.match(text, new RegExp(`&lt;${name}[ &]`), `${name}: a snippet using it`);
      for (const attribute of cls.observedAttributes) {
        const documented = `<dt><code>${attribute}</code></dt>`;
        assert.ok(text.includes(documented) || shared.includes(documented), `${name}: attribute ${attribute} is documented`);
      }
    }
  });

  it('documents every training element and each of its attributes, with a snippet', async () => {
    const { TRAINING_ELEMENTS } = await import('../../web/elements/training/training-elements.js');
    assert.match(section('training'), /attention-training-elements\.js/);
    for (const [name, cls] of Object.entries(TRAINING_ELEMENTS)) {
      const text = section(name);
      assert.match(text, new RegExp(`&lt;${name}[ &]`), `${name}: a snippet using it`);
      for (const attribute of cls.observedAttributes) {
        assert.ok(text.includes(`<dt><code>${attribute}</code></dt>`), `${name}: attribute ${attribute} is documented`);
      }
    }
  });

  it('documents every practice element and each of its attributes, with a snippet', async () => {
    const { PRACTICE_ELEMENTS } = await import('../../web/elements/practice/practice-elements.js');
    assert.match(section('practice'), /attention-practice-elements\.js/);
    for (const [name, cls] of Object.entries(PRACTICE_ELEMENTS)) {
      const text = section(name);
      assert.match(text, new RegExp(`&lt;${name}[ &]`), `${name}: a snippet using it`);
      for (const attribute of cls.observedAttributes) {
        assert.ok(text.includes(`<dt><code>${attribute}</code></dt>`), `${name}: attribute ${attribute} is documented`);
      }
    }
  });

  it('documents the event, the properties, every hash key, the height message and the CSP line', () => {
    const events = section('properties-events');
    assert.match(events, /attention-change/);
    assert.match(events, /detail\.trace/);
    const iframe = section('iframe');
    for (const key of [...HASH_ATTRIBUTE_KEYS, 'editable', 'hide', ...HIDEABLE]) assert.match(iframe, new RegExp(`<code>${key}`), key);
    assert.match(iframe, /sandbox="allow-scripts"/);
    assert.match(iframe, /type: 'attention-by-hand:height', height/);
    assert.match(iframe, /Access-Control-Allow-Origin: \*/);
    assert.ok(section('csp').includes("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'"));
  });

  it('documents every custom property and part the elements use', async () => {
    const theming = section('theming');
    const elementFiles = (await readdir(join(repoRoot, 'web', 'elements')))
      .filter((name) => name.startsWith('element') && name.endsWith('.js')).map((name) => join('elements', name));
    const sources = await Promise.all([...elementFiles, 'views/step-views.js', 'views/arrows.js']
      .map((name) => read(repoRoot, 'web', name)));
    const all = sources.join('\n');
    const properties = new Set([...all.matchAll(/var\((--attention-[a-z0-9-]+)/g)].map((m) => m[1]));
    const parts = new Set([...all.matchAll(/(?:setAttribute\('part', '|part: ')([a-z-]+)'/g)].map((m) => m[1]));
    assert.ok(properties.size >= 10 && parts.size >= 8, `${properties.size} properties, ${parts.size} parts`);
    for (const property of properties) assert.ok(theming.includes(`<code>${property}</code>`), property);
    for (const part of parts) assert.ok(theming.includes(`<dt><code>${part}</code></dt>`), `part ${part}`);
  });
});

describe('scripts/bench-size', () => {
  it('counts the bundle, the core build the elements load and its .wasm, and nothing else', async () => {
    const { files, dynamic } = await moduleGraph(packageDir);
    // The bundle, and the chunk of the code it shares with pencil mode, which it loads on first use.
    const chunk = /^attention-explainer-chunk-[A-Z0-9]+\.js$/u;
    assert.deepEqual(files.map((name) => (chunk.test(name) ? 'the shared chunk' : name)), ['attention-explainer.js',
      'the shared chunk', 'api/core-loader.js', 'generated/attention-core-embed.js', 'generated/attention-core-embed.wasm']);
    assert.ok(dynamic.some((name) => /^attention-explainer-loaded-on-first-use-[A-Z0-9]+\.js$/u.test(name)),
      'pencil mode, the layer of heads and the head_dim study are loaded on first use');
    for (const name of files) assert.ok(existsSync(join(packageDir, name)), `${name} exists`);
    // The full and scalar builds are loaded only by a page that asks for them.
    assert.ok(dynamic.includes('generated/attention-core.js') && dynamic.includes('generated/attention-core-scalar.js'));
    assert.ok(dynamic.every((name) => !files.includes(name)));
  });
});
