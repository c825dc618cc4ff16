// Unit tests of the page's display formatting (web/format.js): plain Node, no DOM.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MINUS, NEG_INFINITY, formatCompact, formatEstimate, formatFixed, formatPercent, formatProduct,
  formatSignedTerms, formatVector, float32Rounds, shadeBands, shadeLevel, shortestFloat32, counted,
} from '../../web/views/format.js';
import { estimateText } from '../support/estimate-text.mjs';

describe('formatFixed', () => {
  it('writes exactly the requested number of decimals', () => {
    assert.equal(formatFixed(2.09000015, 3), '2.090');
    assert.equal(formatFixed(0.279891491, 4), '0.2799');
    assert.equal(formatFixed(3.94856977, 4), '3.9486');
    assert.equal(formatFixed(1, 4), '1.0000');
    assert.equal(formatFixed(2, 0), '2');
  });

  it('writes negatives with the minus sign U+2212, never a hyphen', () => {
    assert.equal(MINUS, '\u2212');
    assert.equal(formatFixed(-0.8, 3), '\u22120.800');
    assert.equal(formatFixed(-0.327989161, 4), '\u22120.3280');
    assert.ok(!formatFixed(-12.5, 2).includes('-'));
  });

  it('writes a value that rounds to zero without a sign', () => {
    assert.equal(formatFixed(-0.00004, 4), '0.0000');
    assert.equal(formatFixed(-0, 3), '0.000');
    assert.equal(formatFixed(-0.4, 0), '0');
    assert.equal(formatFixed(-0.00005, 4), '\u22120.0001');
  });

  it('writes the masked score as −∞ and keeps infinities and NaN visible', () => {
    assert.equal(NEG_INFINITY, '\u2212\u221e');
    assert.equal(formatFixed(-Infinity, 3), '\u2212\u221e');
    assert.equal(formatFixed(Infinity, 3), '\u221e');
    assert.equal(formatFixed(Number.NaN, 3), 'NaN');
  });

  it('rejects a decimals count that is not a small whole number', () => {
    assert.throws(() => formatFixed(1, -1), RangeError);
    assert.throws(() => formatFixed(1, 1.5), RangeError);
    assert.throws(() => formatFixed(1, 21), RangeError);
  });

  it('lines up: every value at the same precision has the same digits after the point', () => {
    const column = [0.1, 1.045, -0.08, 12.3456].map((x) => formatFixed(x, 3));
    for (const text of column) assert.match(text, /^\u2212?\d+\.\d{3}$/);
  });
});

describe('formatEstimate', () => {
  const pm = '\u202f\u00b1\u202f';
  it('keeps the digits a standard error leaves meaningful: two for leading digits up to 354, one above', () => {
    assert.equal(formatEstimate(5.6234, 0.0731), `5.62${pm}0.07`);
    assert.equal(formatEstimate(11.3137, 0.0146), `11.314${pm}0.015`);
    assert.equal(formatEstimate(0.934, 0.0035), `0.9340${pm}0.0035`);
    assert.equal(formatEstimate(1.2345, 0.0355), `1.23${pm}0.04`);
    assert.equal(formatEstimate(5.66, 0.0996), `5.66${pm}0.10`);
    assert.equal(formatEstimate(123.4, 12.3), `123${pm}12`);
    assert.equal(formatEstimate(-0.0612, 0.00493), `${MINUS}0.061${pm}0.005`);
  });
  it('stops at maxDecimals, and says so when the error is smaller than the last digit kept', () => {
    assert.equal(formatEstimate(0.99902, 0.00002), `0.9990${pm}<0.0001`);
    assert.equal(formatEstimate(0.99902, 0.0002, { maxDecimals: 3 }), `0.999${pm}<0.001`);
  });
  it('writes the figure alone when there is no standard error (one sample: NaN)', () => {
    assert.equal(formatEstimate(0.5, NaN), '0.500');
    assert.equal(formatEstimate(2.0794, 0), '2.079');
    assert.equal(formatEstimate(2.0794, NaN, { decimalsWithoutError: 1 }), '2.1');
  });
  it('agrees with the rule written out again by other means, over errors of every size', () => {
    for (let k = 0; k < 2000; k += 1) {
      const error = 10 ** (-5 + 7 * ((k * 0.618034) % 1));
      const value = (k % 7 - 3) * 1.37 + error * 3;
      assert.equal(formatEstimate(value, error), estimateText(value, error), `${value} ± ${error}`);
    }
  });
});

describe('formatCompact', () => {
  it('drops trailing zeros and the point when nothing follows it', () => {
    assert.equal(formatCompact(2), '2');
    assert.equal(formatCompact(2.0000001), '2');
    assert.equal(formatCompact(Math.sqrt(5)), '2.236');
    assert.equal(formatCompact(2.5), '2.5');
    assert.equal(formatCompact(-1.25, 1), '\u22121.3');
    assert.equal(formatCompact(10, 3), '10');
  });
});

describe('counted', () => {
  it('puts the noun in the singular for exactly one, in the plural otherwise', () => {
    assert.equal(counted(1, 'token', 'tokens'), '1 token');
    assert.equal(counted(0, 'token', 'tokens'), '0 tokens');
    assert.equal(counted(2, 'query head', 'query heads'), '2 query heads');
    assert.equal(counted(1, 'entry', 'entries'), '1 entry');
    assert.equal(counted(1024, 'token', 'tokens', (n) => n.toLocaleString('en')), '1,024 tokens');
  });
});

describe('formatPercent', () => {
  it('writes a share as a whole percentage with a narrow no-break space', () => {
    assert.equal(formatPercent(0.720108569), '72\u202f%');
    assert.equal(formatPercent(0.279891491), '28\u202f%');
    assert.equal(formatPercent(0.550059795), '55\u202f%');
    assert.equal(formatPercent(1), '100\u202f%');
  });

  it('can keep decimals', () => {
    assert.equal(formatPercent(0.279891491, 1), '28.0\u202f%');
    assert.equal(formatPercent(0.784147143, 2), '78.41\u202f%');
  });
});

describe('formatVector', () => {
  it('writes a bracketed, comma-separated list', () => {
    assert.equal(
      formatVector([0.724184573, -0.327989161, -0.116032571, -0.124184519], 3),
      '[0.724, \u22120.328, \u22120.116, \u22120.124]',
    );
    assert.equal(formatVector(new Float32Array([1.2, -0.3]), 3), '[1.200, \u22120.300]');
    assert.equal(formatVector([], 3), '[]');
  });
});

describe('formatProduct', () => {
  it('writes one product of a dot product in parentheses', () => {
    assert.equal(formatProduct(1.1, 1.6, 3), '(1.100 \u00d7 1.600)');
    assert.equal(formatProduct(-0.8, -0.7, 3), '(\u22120.800 \u00d7 \u22120.700)');
  });
});

describe('formatSignedTerms', () => {
  it('joins terms the way they are written by hand', () => {
    assert.equal(
      formatSignedTerms([1.76000011, 0.560000002, -0.0800000057, -0.150000006], 2),
      '1.76 + 0.56 \u2212 0.08 \u2212 0.15',
    );
    assert.equal(
      formatSignedTerms([-0.440000027, 0.24000001, 0.0400000028, 0.360000014], 2),
      '\u22120.44 + 0.24 + 0.04 + 0.36',
    );
  });

  it('handles a single term, no terms, and terms that round to zero', () => {
    assert.equal(formatSignedTerms([-2.5], 1), '\u22122.5');
    assert.equal(formatSignedTerms([], 2), '');
    assert.equal(formatSignedTerms([1, -0.001], 2), '1.00 + 0.00');
  });
});

describe('shadeLevel', () => {
  it('puts a weight in one of equal bands over [0, 1]', () => {
    assert.equal(shadeLevel(0, 5), 0);
    assert.equal(shadeLevel(0.19, 5), 0);
    assert.equal(shadeLevel(0.2, 5), 1);
    assert.equal(shadeLevel(0.532890201, 5), 2);
    assert.equal(shadeLevel(0.784147143, 5), 3);
    assert.equal(shadeLevel(0.99, 5), 4);
  });

  it('puts a weight of exactly 1 in the darkest band and clamps the rest', () => {
    assert.equal(shadeLevel(1, 5), 4);
    assert.equal(shadeLevel(1.5, 5), 4);
    assert.equal(shadeLevel(-0.1, 5), 0);
    assert.equal(shadeLevel(Number.NaN, 5), 0);
  });

  it('rejects a band count that is not a positive integer', () => {
    assert.throws(() => shadeLevel(0.5, 0), RangeError);
    assert.throws(() => shadeLevel(0.5, 2.5), RangeError);
  });
});

describe('shadeBands', () => {
  it('names the range of every band for the legend', () => {
    assert.deepEqual(shadeBands(5), [
      { level: 0, from: '0.0', to: '0.2' },
      { level: 1, from: '0.2', to: '0.4' },
      { level: 2, from: '0.4', to: '0.6' },
      { level: 3, from: '0.6', to: '0.8' },
      { level: 4, from: '0.8', to: '1.0' },
    ]);
    assert.deepEqual(shadeBands(2, 2).map((b) => `${b.from}–${b.to}`), ['0.00–0.50', '0.50–1.00']);
  });

  it('agrees with shadeLevel about where a weight belongs', () => {
    for (const weight of [0, 0.1, 0.25, 0.5, 0.61, 0.8, 1]) {
      const band = shadeBands(5, 2)[shadeLevel(weight, 5)];
      assert.ok(Number(band.from) <= weight && weight <= Number(band.to), `${weight} in ${band.from}–${band.to}`);
    }
  });

  it('rejects a band count that is not a positive integer', () => {
    assert.throws(() => shadeBands(0), RangeError);
  });
});

describe('numbers past what a float32 holds', () => {
  // q0 = 123456789 on the article's example: a score whose exact value is 197530862.73. A
  // float32 near 2e8 is a multiple of 16, so ".000" (or even the units) would be false digits.
  const exact = 197530862.73;
  const computed = Math.fround(exact);

  it('writes the shortest text that reads back as the same float, with no false decimals', () => {
    for (const decimals of [0, 3, 4]) {
      const text = formatFixed(computed, decimals);
      assert.doesNotMatch(text, /\./u, `${decimals} decimals: ${text}`);
      assert.equal(Math.fround(Number(text)), computed, `${text} reads back as the float`);
      // Within half the float32 spacing (16 / 2) of the exact float64 value.
      assert.ok(Math.abs(Number(text) - exact) <= 8, `${text} against ${exact}`);
      assert.notEqual(text, computed.toFixed(decimals), 'not the float\u2019s full expansion');
    }
    assert.equal(formatFixed(-computed, 3).startsWith(MINUS), true);
  });

  it('says where float32 rounds, and keeps the decimals where it does not', () => {
    assert.equal(float32Rounds(computed, 3), true);
    assert.equal(float32Rounds(16777215, 0), false, 'below 2^24 every whole number is a float');
    assert.equal(float32Rounds(16777216, 0), true, 'from 2^24 on, floats are two apart');
    assert.equal(float32Rounds(16383.5, 3), false, 'spacing 2^-10 < 0.001');
    assert.equal(float32Rounds(16384, 3), true, 'spacing 2^-9 > 0.001');
    assert.equal(formatFixed(1234.5678, 3), '1234.568');
    assert.equal(formatFixed(Number.NEGATIVE_INFINITY, 3), NEG_INFINITY);
  });
});

// Moved here from page-state.test.mjs and sequel-modules.test.mjs with the one helper both
// pages now use (the sequel's returned the same digits as a string).
describe('shortestFloat32', () => {
  it('the shortest decimal of the same float32', () => {
    assert.equal(shortestFloat32(0.30000001192092896), 0.3);
    assert.equal(shortestFloat32(1e6), 1e6);
    assert.equal(shortestFloat32(1.100000023841858), 1.1);
    assert.equal(shortestFloat32(0.1), 0.1);
    assert.equal(Math.fround(shortestFloat32(-0.123456789)), Math.fround(-0.123456789));
    assert.equal(shortestFloat32(0.100000001), 0.1);
    assert.equal(Math.fround(shortestFloat32(Math.fround(1 / 3))), Math.fround(1 / 3));
  });

  it('leaves non-finite values as they are', () => {
    assert.equal(shortestFloat32(-Infinity), -Infinity);
    assert.ok(Number.isNaN(shortestFloat32(NaN)));
  });
});
