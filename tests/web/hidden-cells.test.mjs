// Which cells the page and the elements show as hidden by the mask: what the trace's `hidden`
// says, never a rule of their own (such as "later tokens"). The first tests hand the page's
// helpers traces whose hidden cells are not the causal ones, so a helper that re-derives them
// from the mask's name or from j > i fails; the last runs the core.
//
// Run after the wasm build: node --test tests/web/hidden-cells.test.mjs
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasZeroedCells, isZeroedByMask, maskedCaption } from '../../web/views/step-tables.js';
import { hiddenScore, maskSummary } from '../../web/views/step-views.js';
import { createSiteAttention } from '../support/site-module.mjs';

// A 3 × 3 trace that hid exactly `cells` ([i, j] pairs) by writing `fill` there; the others
// hold 0.5, except an ordinary 0 at (2, 0), which must not be taken for a hidden one.
function traceHiding(cells, fill, mask) {
  const hidden = [0, 1, 2].map((i) => [0, 1, 2].map((j) => cells.some(([a, b]) => a === i && b === j)));
  const masked = hidden.map((row) => row.map((hid) => (hid ? fill : 0.5)));
  masked[2][0] = hidden[2][0] ? fill : 0;
  return { mask, tokens: ['a', 'b', 'c'], hidden, masked };
}

describe('the page reads which cells the mask hid from trace.hidden', () => {
  it('a cell hidden with 0 is zeroed whatever its position, and only hidden cells are', () => {
    // An earlier token's cell hidden: no causal rule gives that.
    const trace = traceHiding([[1, 0], [0, 2]], 0, 'causal_zero');
    for (let i = 0; i < 3; i += 1) {
      for (let j = 0; j < 3; j += 1) {
        const expected = (i === 1 && j === 0) || (i === 0 && j === 2);
        assert.equal(isZeroedByMask(trace, i, j), expected, `(${i}, ${j})`);
      }
    }
    assert.equal(hasZeroedCells(trace), true);
  });

  it('a later token not hidden is not zeroed, even under the name causal_zero', () => {
    const trace = traceHiding([], 0, 'causal_zero');
    assert.equal(isZeroedByMask(trace, 0, 1), false);
    assert.equal(hasZeroedCells(trace), false);
    assert.match(maskedCaption(trace, 'Step 3: '), /^Step 3: nothing hidden/u);
  });

  it('cells hidden with −∞ are not zeroed ones; the caption names what the mask wrote', () => {
    const minus = traceHiding([[0, 1]], -Infinity, 'some_mask');
    assert.equal(isZeroedByMask(minus, 0, 1), false);
    assert.equal(hiddenScore(minus), -Infinity);
    assert.equal(maskSummary(minus), '\u2212\u221e where a token may not look');
    const zero = traceHiding([[0, 1]], 0, 'some_mask');
    assert.equal(hiddenScore(zero), 0);
    assert.equal(maskSummary(zero), '0 (not \u2212\u221e) where a token may not look');
  });
});

describe('on the core\u2019s traces', () => {
  it('zeroed cells are exactly the later tokens under causal_zero, and none under causal or none', async () => {
    const attention = await createSiteAttention();
    const input = {
      tokens: ['the', 'cat', 'sat'],
      q: [[0.3, -0.2], [1.1, -0.8], [0.5, 0.4]],
      k: [[-0.4, -0.3], [1.6, -0.7], [0.2, 0.9]],
      v: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]],
    };
    for (const mask of ['causal', 'none', 'causal_zero']) {
      const trace = attention.run({ ...input, mask });
      for (let i = 0; i < 3; i += 1) {
        for (let j = 0; j < 3; j += 1) {
          // The causal rule, stated here independently of the page: later tokens are hidden.
          assert.equal(isZeroedByMask(trace, i, j), mask === 'causal_zero' && j > i, `${mask} (${i}, ${j})`);
        }
      }
    }
  });
});
