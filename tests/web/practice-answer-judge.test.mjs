// Judging an answer (web/practice/answer-judge.js) against the core's value at the printed
// precision: right, right but rounded differently, or off. The expected verdicts come from
// float64 arithmetic written here (the grid neighbours of the value), at every precision the
// pages print (DECIMALS, and whole bytes for the bill).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeAnswer } from '../../web/practice/answer-judge.js';
import { readAnswer } from '../../web/practice/answer-reader.js';
import { DECIMALS, formatFixed } from '../../web/views/format.js';
import { SplitMix64 } from '../support/seeded-random.mjs';

const PRINTED_PRECISIONS = [...new Set([0, ...Object.values(DECIMALS)])].sort();

function judge(text, value, decimals) {
  const answer = readAnswer(text);
  assert.equal(answer.ok, true, `${text} reads: ${answer.message}`);
  return judgeAnswer(answer, value, decimals);
}

// A number as a reader types it: plain JavaScript decimal text, never the page's formatter.
const typed = (x, decimals) => x.toFixed(decimals);

describe('judgeAnswer at every printed precision', () => {
  it('covers the precisions the tables print', () => {
    assert.deepEqual(PRINTED_PRECISIONS, [0, 2, 3, 4]);
  });

  for (const d of PRINTED_PRECISIONS) {
    it(`judges seeded float32 values printed with ${d} decimals against their grid neighbours`, () => {
      const random = new SplitMix64(1000 + d);
      const unit = 10 ** -d;
      for (let n = 0; n < 300; n += 1) {
        const magnitude = d === 0 ? 5000 : 5;
        const value = Math.fround((random.nextUniform() * 2 - 1) * magnitude);
        const scaled = value / unit;
        // Values within the rule's float32 slack (|v| · 2^-20) of a rounding boundary, or on the
        // grid, are the boundary test's.
        const zone = (Math.abs(value) * 2 ** -20) / unit + 1e-9;
        if (Math.abs(scaled - Math.round(scaled)) < zone || Math.abs(Math.abs(scaled % 1) - 0.5) < zone) continue;
        const nearest = Math.round(scaled) * unit;
        const other = (Math.round(scaled) + (nearest < value ? 1 : -1)) * unit;

        const right = judge(typed(nearest, d), value, d);
        assert.equal(right.verdict, 'right', `${typed(nearest, d)} for ${value}`);
        assert.equal(right.expected, formatFixed(value, d));
        assert.equal(judge(formatFixed(value, d), value, d).verdict, 'right', `the printed text of ${value}`);
        assert.equal(judge(typed(value, d + 3), value, d).verdict, 'right', `${value} to more decimals`);

        const rounded = judge(typed(other, d), value, d);
        assert.equal(rounded.verdict, 'rounded', `${typed(other, d)} for ${value}`);
        assert.equal(rounded.rounding, Math.abs(other) < Math.abs(value) ? 'truncated' : 'away-from-zero');

        for (const step of [2, -2, 7]) {
          const wrong = nearest + step * unit;
          const off = judge(typed(wrong, d), value, d);
          assert.equal(off.verdict, 'off', `${typed(wrong, d)} for ${value}`);
          assert.equal(off.direction, wrong > value ? 'high' : 'low');
          assert.ok(Math.abs(off.difference - (wrong - value)) < 1e-9 * (1 + Math.abs(value)));
          assert.ok(off.message.includes(`too ${off.direction} by ${Math.abs(wrong - value).toFixed(d)}`), off.message);
        }
        if (d >= 1) {
          const coarse = Math.round(value / (unit * 10)) * unit * 10;
          const verdict = judge(typed(coarse, d - 1), value, d);
          if (Math.abs(coarse - value) > unit / 2) {
            assert.equal(verdict.verdict, 'rounded', `${typed(coarse, d - 1)} for ${value}`);
            assert.equal(verdict.rounding, 'fewer-decimals');
            assert.ok(verdict.message.includes(`you gave ${d - 1} decimal`), verdict.message);
          } else {
            assert.equal(verdict.verdict, 'right', `${typed(coarse, d - 1)} for ${value}`);
          }
        }
      }
    });

    it(`counts both neighbours of a float32 value on an x.x5 boundary as right (${d} decimals)`, () => {
      const unit = 10 ** -d;
      for (const k of [0, 1, 12, 123, -7, -124, 999]) {
        const exact = (k + 0.5) * unit;  // what a reader working by hand gets
        const value = Math.fround(exact);
        const below = Math.floor(exact / unit + 1e-9) * unit;
        const above = below + unit;
        assert.equal(judge(typed(below, d), value, d).verdict, 'right', `${typed(below, d)} for ${exact}`);
        assert.equal(judge(typed(above, d), value, d).verdict, 'right', `${typed(above, d)} for ${exact}`);
        assert.equal(judge(typed(above + unit, d), value, d).verdict, 'off');
      }
    });
  }
});

describe('judgeAnswer words the verdicts', () => {
  it('a negative value truncated, rounded away, and off', () => {
    const value = Math.fround(-0.5957);
    assert.equal(judge('\u22120.596', value, 3).verdict, 'right');
    const truncated = judge('\u22120.595', value, 3);
    assert.equal(truncated.verdict, 'rounded');
    assert.equal(truncated.rounding, 'truncated');
    assert.ok(truncated.message.includes('truncated') && truncated.message.includes('\u22120.596'), truncated.message);
    const off = judge('-0.598', value, 3);
    assert.equal(off.verdict, 'off');
    assert.equal(off.direction, 'low');
  });

  it('fewer decimals than printed: right when it agrees at the printed precision, else says how many are printed', () => {
    assert.equal(judge('3', Math.fround(3), 4).verdict, 'right');
    assert.equal(judge('0.5', Math.fround(0.5), 4).verdict, 'right');
    const fewer = judge('0.61', Math.fround(0.6123), 4);
    assert.equal(fewer.verdict, 'rounded');
    assert.equal(fewer.rounding, 'fewer-decimals');
    assert.ok(fewer.message.includes('2 decimals') && fewer.message.includes('prints 4') && fewer.message.includes('0.6123'), fewer.message);
    assert.equal(judge('0.6', Math.fround(0.6123), 4).rounding, 'fewer-decimals');
    // Fewer decimals and rounded the wrong way: two departures, no longer a rounding.
    assert.equal(judge('0.62', Math.fround(0.6123), 4).verdict, 'off');
    assert.equal(judge('0.7', Math.fround(0.6123), 4).verdict, 'off');
    assert.equal(judge('0.6124', Math.fround(0.61232), 4).rounding, 'away-from-zero');
    assert.equal(judge('0.6123', Math.fround(0.61238), 4).rounding, 'truncated');
    // A value on the printed grid has no other neighbour: a whole unit from it is off.
    assert.equal(judge('0.6124', Math.fround(0.6123), 4).verdict, 'off');
    assert.equal(judge('0.6122', Math.fround(0.6123), 4).verdict, 'off');
  });

  it('more decimals than printed are right when they agree at the printed precision', () => {
    assert.equal(judge('0.59536', Math.fround(0.5953), 3).verdict, 'right');
    assert.equal(judge('0.5959', Math.fround(0.5953), 3).verdict, 'off');
  });

  it('exact forms (fractions, exponent form) are judged by their value', () => {
    assert.equal(judge('1/2', Math.fround(0.5), 4).verdict, 'right');
    assert.equal(judge('1/3', Math.fround(1 / 3), 4).verdict, 'right');
    assert.equal(judge('1/3', Math.fround(0.33336), 4).verdict, 'right');
    // An exact form is never "rounded": 1/3 is 0.33333…, a whole printed unit from 0.3334.
    assert.equal(judge('1/3', Math.fround(0.3334), 4).verdict, 'off');
    assert.equal(judge('5e-4', Math.fround(0.0005), 4).verdict, 'right');
  });

  it('values the table prints in exponent form or past what a float32 holds', () => {
    for (const value of [Math.fround(3e21), Math.fround(-1.2345e22), Math.fround(123456789), Math.fround(16777217.4)]) {
      for (const d of PRINTED_PRECISIONS) {
        const printed = formatFixed(value, d);
        assert.equal(judge(printed, value, d).verdict, 'right', `${printed} for ${value}`);
        assert.equal(judge(String(value * 1.001), value, d).verdict, 'off', `a tenth of a percent off ${value}`);
      }
    }
    assert.match(formatFixed(Math.fround(3e21), 3), /e\+21$/u, 'the case is one the table writes in exponent form');
  });

  it('an exact figure (the bill\u2019s whole bytes) gets no float32 slack, however large', () => {
    const bytes = 85899345920;
    assert.equal(judge('85899345920', bytes, 0).verdict, 'right');
    assert.equal(judgeAnswer(readAnswer('85899345921'), bytes, 0, { exact: true }).verdict, 'off');
    assert.equal(judgeAnswer(readAnswer('85899345920.4'), bytes, 0, { exact: true }).verdict, 'right');
    // Without `exact` the slack (|v| · 2^-20, about 8 float32 spacings) would let that pass.
    assert.equal(judge('85899345921', bytes, 0).verdict, 'right');
  });

  it('a masked score: only −∞ is right; 0 is off with the FAQ\u2019s point', () => {
    assert.equal(judge('\u2212\u221e', -Infinity, 3).verdict, 'right');
    assert.equal(judge('-inf', -Infinity, 3).verdict, 'right');
    const zero = judge('0', -Infinity, 3);
    assert.equal(zero.verdict, 'off');
    assert.equal(zero.note, 'mask-is-minus-infinity');
    assert.ok(zero.message.includes('e^x is 0') && zero.message.includes('e^0 = 1'), zero.message);
    const number = judge('-5', -Infinity, 3);
    assert.equal(number.verdict, 'off');
    assert.equal(number.note, 'cell-is-masked');
    assert.equal(judge('\u221e', -Infinity, 3).verdict, 'off');
    const finite = judge('\u2212\u221e', Math.fround(0.25), 3);
    assert.equal(finite.verdict, 'off');
    assert.equal(finite.note, 'value-is-finite');
    assert.equal(finite.direction, 'low');
  });

  it('every verdict has one sentence and the printed value', () => {
    for (const text of ['0.25', '0.2', '9']) {
      const verdict = judge(text, Math.fround(0.25), 4);
      assert.equal(verdict.expected, '0.2500');
      assert.ok(verdict.message.length > 0 && !verdict.message.includes('\n'));
    }
  });

  it('refuses to judge without a number or a valid precision', () => {
    assert.throws(() => judgeAnswer({ value: 1, decimals: 0 }, Number.NaN, 3), RangeError);
    assert.throws(() => judgeAnswer({ value: 1, decimals: 0 }, 1, 2.5), RangeError);
    assert.throws(() => judgeAnswer(readAnswer('abc'), 1, 3), RangeError);
  });
});
