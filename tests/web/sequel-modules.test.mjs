// The sequel's pure modules in plain Node: how the elements read their attributes and word the
// core's refusals (web/sequel-config.js), how figures are written (web/sequel-format.js), and the
// page's hash (site/sequel-state.js, imported from the source tree): what it keeps, what it ignores with a warning, and that formatting a
// state and reading it back round-trips.

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ConfigError } from '../../web/elements/element-config.js';
import {
  REQUEST_ATTRIBUTES, parseParts, parseWholeList, requestFrom, rewordCoreError, variantRequest,
} from '../../web/elements/sequel/sequel-config.js';
import { formatBinaryUnit, formatCompactCount, formatCount, formatSignificant } from '../../web/views/sequel-format.js';

let state;

before(async () => {
  state = await import('../../site/sequel-state.js');
});

describe('reading the sequel elements\u2019 attributes', () => {
  it('turns set attributes into the core\u2019s request members, and only those', () => {
    const attributes = { tokens: 'a b c', seed: '7', 'block-rows': '3', mask: 'none' };
    const request = requestFrom(REQUEST_ATTRIBUTES.flash, (name) => attributes[name] ?? null);
    assert.deepEqual(request, { tokens: ['a', 'b', 'c'], seed: 7, block_rows: 3, mask: 'none' });
    assert.deepEqual(parseWholeList('bits', '8, 4 2'), [8, 4, 2]);
    assert.throws(() => requestFrom(REQUEST_ATTRIBUTES.flash, (name) => (name === 'block-rows' ? 'two' : null)),
      (error) => error instanceof ConfigError && error.message === 'block-rows attribute: "two" is not a whole number');
    assert.throws(() => parseParts('show', 'cache,nothing', ['cache']), /unknown part "nothing"/);
  });

  it('fixes the K/V heads of MHA and MQA, and keeps n-kv-heads and d-latent to their variants', () => {
    assert.deepEqual(variantRequest('mha', { n_heads: 8 }), { method: 'groupedAttention', request: { n_heads: 8, n_kv_heads: 8 } });
    assert.deepEqual(variantRequest('mha', {}).request, { n_kv_heads: 4 });
    assert.deepEqual(variantRequest('mqa', { seed: 2 }).request, { seed: 2, n_kv_heads: 1 });
    assert.deepEqual(variantRequest('gqa', {}).request, {}, 'the core picks GQA\u2019s default grouping');
    assert.deepEqual(variantRequest('mla', { d_latent: 4 }), { method: 'latentAttention', request: { d_latent: 4 } });
    assert.throws(() => variantRequest('mqa', { n_kv_heads: 2 }), /^ConfigError: n-kv-heads attribute: applies to variant="gqa" only/);
    assert.throws(() => variantRequest('gqa', { d_latent: 2 }), /d-latent attribute: applies to variant="mla" only/);
  });

  it('words the core\u2019s refusals in terms of the attribute an author set', () => {
    const set = new Set(['block-rows', 'x']);
    const reword = (message) => rewordCoreError(message, REQUEST_ATTRIBUTES.flash, (name) => set.has(name));
    assert.equal(reword('block_rows: must be a whole number from 1 to 4, got 5'), 'block-rows attribute: must be a whole number from 1 to 4, got 5');
    assert.equal(reword('x[1][2]: must be a finite number'), 'x attribute, row 2, column 3: must be a finite number');
    assert.equal(reword('block_cols: must be a whole number'), 'block_cols: must be a whole number', 'not set: the core\u2019s words');
    // The core's names of the element's other figures become their attributes' names too.
    assert.equal(reword('x[0]: has 12 values; expected 7 (d_model)'), 'x attribute, item 1: has 12 values; expected 7 (d-model)');
    assert.equal(reword('block_rows: must not exceed head_dim or block_cols'), 'block-rows attribute: must not exceed head_dim or block-cols',
      'a name no attribute of the element has stays the core\u2019s');
    assert.equal(reword('something else entirely'), 'something else entirely');
  });
});

describe('writing the sequel\u2019s figures', () => {
  it('groups digits with narrow spaces and never rounds a count', () => {
    assert.equal(formatCount(85899345920), '85\u202f899\u202f345\u202f920');
    assert.equal(formatCount(64), '64');
    assert.equal(formatCount(0.5), '0.5');
    assert.equal(formatCount(-1234), '\u22121\u202f234');
  });

  it('gives byte counts their binary unit and small errors a power of ten', () => {
    assert.equal(formatBinaryUnit(1073741824), '1.00\u202fGiB');
    assert.equal(formatBinaryUnit(131072), '128\u202fKiB');
    assert.equal(formatBinaryUnit(16060522496), '15.0\u202fGiB');
    assert.equal(formatBinaryUnit(64), '64\u202fbytes');
    assert.equal(formatSignificant(0.0433), '0.0433');
    assert.equal(formatSignificant(0.000510424376), '0.000510');
    assert.equal(formatSignificant(5.96046448e-8), '5.96 \u00d7 10\u207b\u2078');
    assert.equal(formatSignificant(0), '0');
    assert.equal(formatSignificant(12345), '1.23 \u00d7 10\u2074');
  });

  it('writes a tick\u2019s count short: K, M, B, T to three significant digits', () => {
    assert.deepEqual([10, 100, 1e3, 1e4, 1e5, 1e6, 1e7].map(formatCompactCount), ['10', '100', '1K', '10K', '100K', '1M', '10M']);
    assert.equal(formatCompactCount(2500), '2.5K');
    assert.equal(formatCompactCount(1048576), '1.05M');
    assert.equal(formatCompactCount(999950), '1M', 'a rounding that reaches 1000K is written 1M');
    assert.equal(formatCompactCount(8.03e9), '8.03B');
    assert.equal(formatCompactCount(-2000), '\u22122K');
    assert.equal(formatCompactCount(0.5), '0.5');
    assert.equal(formatCompactCount(Number.NaN), '');
  });
});

describe('the sequel page\u2019s hash', () => {
  it('reads shared values and section attributes; an empty value removes an attribute', () => {
    const parsed = state.parseSequelHash('#tokens=a%20b&seed=3&x=[[1,2],[3,4]]&flash.block-rows=3&bill.preset=&quant.bits=4,2');
    assert.deepEqual(parsed.shared, { tokens: ['a', 'b'], seed: 3, x: [[1, 2], [3, 4]] });
    assert.deepEqual(parsed.sections, { flash: { 'block-rows': '3' }, bill: { preset: null }, quant: { bits: '4,2' } });
    assert.deepEqual(parsed.warnings, []);
  });

  it('ignores what it cannot use, naming it, and never throws', () => {
    const parsed = state.parseSequelHash('#seed=-1&tokens=&x=[[1,&mystery=2&flash.colour=red&%E0%A4%A=1&gqa.n-kv-heads=1');
    assert.deepEqual(parsed.shared, {});
    assert.deepEqual(parsed.sections, { gqa: { 'n-kv-heads': '1' } });
    const text = parsed.warnings.join('\n');
    assert.equal(parsed.warnings.length, 6, text);
    for (const part of ['seed', 'tokens: names no token', 'x:', '"mystery"', '"flash.colour"', 'percent-encoding']) assert.ok(text.includes(part), part);
  });

  it('keeps the first of a setting given twice, and names the repeat', () => {
    const parsed = state.parseSequelHash('#seed=3&gqa.n-kv-heads=2&seed=4&gqa.n-kv-heads=1');
    assert.deepEqual(parsed.shared, { seed: 3 });
    assert.deepEqual(parsed.sections, { gqa: { 'n-kv-heads': '2' } });
    assert.deepEqual(parsed.warnings, ['"seed": given twice; the first is kept', '"gqa.n-kv-heads": given twice; the first is kept']);
  });

  it('writes only what differs from the page\u2019s start, and reads it back', () => {
    const defaults = { shared: { tokens: ['the', 'cat'], seed: 1 }, sections: { bill: { preset: 'llama-3-8b' } } };
    assert.equal(state.formatSequelHash({ shared: { tokens: ['the', 'cat'], seed: 1 }, sections: { bill: { preset: 'llama-3-8b' } } }, defaults), '');
    const changed = {
      shared: { tokens: ['New York', 'is'], seed: 9, x: [[-0.200000003, 1], [0.5, 2.5]] },
      sections: { flash: { 'block-rows': '3', mask: 'none' }, bill: { preset: null, batch: '16' }, quant: { bits: '4,2' } },
    };
    const hash = state.formatSequelHash(changed, defaults);
    assert.ok(hash.includes('x=[[-0.2,1],[0.5,2.5]]'), `${hash}: float32 values written as briefly as they read`);
    assert.ok(hash.includes('bill.preset=&'), 'a removed attribute is written empty');
    const back = state.parseSequelHash(hash);
    assert.deepEqual(back.warnings, []);
    assert.deepEqual(back.shared, { tokens: ['New York', 'is'], seed: 9, x: [[-0.2, 1], [0.5, 2.5]] });
    assert.deepEqual(back.sections, { flash: { 'block-rows': '3', mask: 'none' }, quant: { bits: '4,2' }, bill: { preset: null, batch: '16' } });
  });

  it('keeps the curve\u2019s models, commas and all, and "none"', () => {
    const defaults = { sections: { curve: { models: 'llama-3-8b,gemma-3-27b' } } };
    for (const models of ['falcon-7b,deepseek-v3,kimi-k2', 'none']) {
      const hash = state.formatSequelHash({ sections: { curve: { models } } }, defaults);
      assert.equal(hash, `#curve.models=${models}`);
      assert.deepEqual(state.parseSequelHash(hash), { shared: {}, sections: { curve: { models } }, warnings: [] });
    }
    assert.equal(state.formatSequelHash({ sections: { curve: { models: 'llama-3-8b,gemma-3-27b' } } }, defaults), '');
  });
});

describe('the curve\u2019s models attribute', () => {
  it('reads the names, "none" for no model, and refuses every unknown name, naming each', async () => {
    const { parseModels } = await import('../../web/elements/sequel/kv-curve-element.js');
    const names = ['llama-3-8b', 'falcon-7b', 'deepseek-v3'];
    assert.deepEqual(parseModels('falcon-7b, llama-3-8b falcon-7b', names), ['falcon-7b', 'llama-3-8b']);
    assert.deepEqual(parseModels('none', names), []);
    assert.throws(() => parseModels('falcon-7b,gpt-9,mystery', names), (error) => error instanceof ConfigError
      && error.message === 'models attribute: "gpt-9", "mystery" are not models this page knows; the models are llama-3-8b, falcon-7b, deepseek-v3, or none');
    assert.throws(() => parseModels('falcon', names), /^ConfigError: models attribute: "falcon" is not a model this page knows/u);
  });

  it('draws the names it knows, or else the default models, beside the refusal of the rest', async () => {
    const { chooseModels } = await import('../../web/elements/sequel/kv-curve-element.js');
    const names = ['llama-3-8b', 'falcon-7b', 'gemma-3-27b'];
    assert.deepEqual(chooseModels(null, names), { models: ['llama-3-8b', 'gemma-3-27b'], refused: null });
    assert.deepEqual(chooseModels('falcon-7b', names), { models: ['falcon-7b'], refused: null });
    const some = chooseModels('gpt-9,falcon-7b,mystery', names);
    assert.deepEqual(some.models, ['falcon-7b']);
    assert.ok(some.refused instanceof ConfigError);
    assert.equal(some.refused.message, 'models attribute: "gpt-9", "mystery" are not models this page knows; the models are '
      + 'llama-3-8b, falcon-7b, gemma-3-27b, or none. Drawn meanwhile: the models it knows, falcon-7b');
    const none = chooseModels('gpt-9', names);
    assert.deepEqual(none.models, ['llama-3-8b', 'gemma-3-27b']);
    assert.match(none.refused.message, /^models attribute: "gpt-9" is not a model .*\. Drawn meanwhile: the default models, llama-3-8b, gemma-3-27b$/u);
    const chosenNone = chooseModels('none gpt-9', names);
    assert.deepEqual(chosenNone.models, [], '"none" is a name it knows');
    assert.match(chosenNone.refused.message, /Drawn meanwhile: no model$/u);
  });
});

describe('a refusal in the reader\u2019s words', () => {
  it('names the field by its label, and the core\u2019s other names by theirs', async () => {
    const { readerMessage, parseWindow } = await import('../../web/elements/sequel/sequel-config.js');
    const labels = { 'n-kv-heads': 'K/V heads', n_kv_heads: 'K/V heads', n_heads: 'query heads' };
    assert.equal(readerMessage('n-kv-heads attribute: must divide n_heads (30) into groups of equal size; 8 does not', labels),
      'K/V heads: must divide query heads (30) into groups of equal size; 8 does not.');
    assert.equal(readerMessage('n_kv_heads: must divide n_heads (30)', labels), 'K/V heads: must divide query heads (30).');
    // A figure named by its attribute, as rewordCoreError names it.
    assert.equal(readerMessage('n-kv-heads attribute: must divide n-heads (30)', { ...labels, 'n-heads': 'query heads' }),
      'K/V heads: must divide query heads (30).');
    // Without a label (an element without controls) the attribute's name stays, for the author.
    assert.equal(readerMessage('seed attribute: "x" is not a whole number', labels), 'seed attribute: "x" is not a whole number.');
    assert.equal(parseWindow('sliding-window', 'none'), null);
    assert.equal(parseWindow('sliding-window', '4096'), 4096);
    assert.throws(() => parseWindow('sliding-window', '4k'), /sliding-window attribute/u);
  });
});
