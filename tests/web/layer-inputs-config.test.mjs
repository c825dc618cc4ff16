// <attention-layer-inputs>'s pure part in plain Node (web/elements/sequel/layer-inputs-config.js):
// the ids `for` lists, the attributes each kind of element it names is given, the x attribute it
// writes, and the words of a refused cell or field.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FED_ELEMENTS, cellRefusal, feedFor, fieldRefusal, formatVectors, parseForIds, parseSeedText,
} from '../../web/elements/sequel/layer-inputs-config.js';
import { notANumber } from '../../web/elements/cell-editing.js';
import { parseMatrix } from '../../web/elements/element-config.js';

describe('what <attention-layer-inputs> hands on', () => {
  it('reads the ids of for, separated by spaces or commas, each once', () => {
    assert.deepEqual(parseForIds(' gqa  tiles,bill gqa '), ['gqa', 'tiles', 'bill']);
    assert.deepEqual(parseForIds(null), []);
    assert.deepEqual(parseForIds(''), []);
  });

  it('gives the layer\u2019s elements its values and shape as they are, the bill its tokens and the traffic their count', () => {
    const layer = { tokens: ['the', 'cat', 'sat', 'on'] };
    assert.deepEqual(feedFor('attention-variant', { tokens: null, seed: 7, x: null }, layer),
      { tokens: null, seed: '7', x: null, 'd-model': null, 'n-heads': null });
    assert.deepEqual(feedFor('attention-flash-tiles', { tokens: ['a b', 'c'], seed: null, x: [[0.5, -1]], d_model: 2, n_heads: 1 }, layer),
      { tokens: '["a b","c"]', seed: null, x: '[[0.5,-1]]', 'd-model': '2', 'n-heads': '1' });
    assert.deepEqual(feedFor('attention-quantised-cache', { tokens: null, seed: 0, x: null, d_model: 12, n_heads: null }, layer),
      { tokens: null, seed: '0', x: null, 'd-model': '12', 'n-heads': null });
    assert.deepEqual(feedFor('attention-kv-bill', { tokens: null, seed: null, x: null }, layer), { 'toy-tokens': 'the cat sat on' });
    assert.deepEqual(feedFor('attention-flash-traffic', { tokens: null, seed: null, x: null }, layer), { 'token-count': '4' });
    assert.equal(feedFor('attention-kv-curve', { tokens: null, seed: null, x: null }, layer), null);
    assert.equal(feedFor('p', { tokens: null, seed: null, x: null }, layer), null);
    assert.deepEqual(FED_ELEMENTS, ['attention-variant', 'attention-flash-tiles', 'attention-quantised-cache', 'attention-kv-bill', 'attention-flash-traffic']);
  });

  it('writes x with each number in its shortest float32 form, which reads back as the same float32', () => {
    const x = [[Math.fround(0.9), Math.fround(-0.2)], [1, Math.fround(1 / 3)]];
    const text = formatVectors(x);
    assert.equal(text, '[[0.9,-0.2],[1,0.33333334]]');
    assert.deepEqual(parseMatrix('x', text).map((row) => row.map(Math.fround)), x);
  });
});

describe('what <attention-layer-inputs> says', () => {
  it('names a refused cell, why, and the value it is back to, in the cells\u2019 shared wording', () => {
    assert.equal(cellRefusal({ col: 2, token: 'cat', kept: 0.25, why: notANumber('abc') }),
      'x2 of \u201ccat\u201d: \u201cabc\u201d is not a number, so it was not used. The cell is back to 0.25.');
    assert.equal(notANumber('1e999'), '\u201c1e999\u201d is not a finite number');
    assert.equal(notANumber('  '), 'An empty cell is not a number');
    assert.equal(notANumber('x'.repeat(40)), `\u201c${'x'.repeat(24)}\u2026\u201d is not a number`);
    assert.equal(cellRefusal({ col: 0, token: 'the', kept: -1, why: 'x[0][0]: is 1e20, outside the allowed range of \u00b11e6', core: true }),
      'x0 of \u201cthe\u201d: the core refused it (x[0][0]: is 1e20, outside the allowed range of \u00b11e6), so it was not used. '
      + 'The cell is back to \u22121.');
  });

  it('names a refused field and what the sections keep', () => {
    assert.equal(fieldRefusal('Seed', '\u201c1.5\u201d is not a whole number', 'seed 1'),
      'Seed: \u201c1.5\u201d is not a whole number, so it was not used. The sections keep seed 1 and nothing else changed.');
    assert.deepEqual(['7', ' 12 ', '1.5', '-1', '', '12345678901234567'].map(parseSeedText), [7, 12, null, null, null, null]);
  });
});
