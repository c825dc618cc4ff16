// Rounds with fresh numbers (web/practice/rounds.js): the inputs are the core's seeded grid
// values (held against the generator's definition written again in tests/support, so every
// browser draws the same), easy to work by hand, and a whole round typed as the tables print it
// (or as float64 works it) is judged right.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { judgeAnswer } from '../../web/practice/answer-judge.js';
import { readAnswer } from '../../web/practice/answer-reader.js';
import { cellValue, practiceKind } from '../../web/practice/practice-cells.js';
import {
  DEFAULT_LEVEL, LEVELS, LEVEL_NAMES, ROUNDS, ROUND_NAMES, roundBlanks, roundExercise, roundInputs, roundRequest,
} from '../../web/practice/rounds.js';
import { formatFixed } from '../../web/views/format.js';
import { headF64 } from '../support/attention-f64.mjs';
import { gridValues } from '../support/seeded-random.mjs';
import { createSiteAttention } from '../support/site-module.mjs';

const SEEDS = [0, 1, 7, 2024, 4294967295];

let attention;
before(async () => {
  attention = await createSiteAttention();
});

function float64Cells(input) {
  const f64 = headF64(input);
  const exponentials = f64.masked.map((row) => row.map(Math.exp));
  return {
    ...f64,
    exponentials,
    row_totals: exponentials.map((row) => row.reduce((a, b) => a + b, 0)),
    weighted_values: f64.weights.map((w) => w.map((wj, j) => input.v[j].map((x) => wj * x))),
  };
}

describe('a round\u2019s numbers', () => {
  for (const level of LEVEL_NAMES) {
    it(`are the seeded generator\u2019s grid values, easy to work by hand (${level})`, () => {
      const { tokens, headDim, decimals, min, max } = LEVELS[level];
      for (const seed of SEEDS) {
        const input = roundInputs(attention, { seed, level });
        const expected = gridValues(seed, tokens, 3 * headDim, { min, max, decimals });
        assert.deepEqual([input.q, input.k, input.v], [0, 1, 2].map((n) => expected.map((row) => row.slice(n * headDim, (n + 1) * headDim))));
        assert.equal(input.tokens.length, tokens);
        for (const value of [input.q, input.k, input.v].flat(2)) {
          assert.ok(value >= min && value <= max, `${value} in [${min}, ${max}]`);
          assert.ok(Math.abs(value * 10 ** decimals - Math.round(value * 10 ** decimals)) < 1e-9, `${value} has at most ${decimals} decimals`);
        }
        assert.deepEqual(roundInputs(attention, { seed, level }), input, 'the same seed gives the same numbers');
      }
      const a = roundInputs(attention, { seed: 1, level });
      const b = roundInputs(attention, { seed: 2, level });
      assert.notDeepEqual([a.q, a.k, a.v], [b.q, b.k, b.v], 'two seeds differ');
    });
  }

  it('default to the easy level, one decimal, and the article\u2019s mask and scale', () => {
    assert.equal(DEFAULT_LEVEL, 'easy');
    assert.equal(LEVELS.easy.decimals, 1);
    assert.ok(LEVELS.hard.decimals > LEVELS.easy.decimals);
    assert.deepEqual(roundRequest({ seed: 5 }), { rows: 3, cols: 12, seed: 5, min: -1, max: 1, decimals: 1 });
    const input = roundInputs(attention, { seed: 5 });
    assert.equal(input.mask, 'causal');
    assert.equal(input.scale, 'sqrt_d');
  });

  it('refuse a bad seed, level or round by name', () => {
    assert.throws(() => roundInputs(attention, { seed: -1 }), /^RangeError: seed:/u);
    assert.throws(() => roundInputs(attention, { seed: 1.5 }), /seed:/u);
    assert.throws(() => roundInputs(attention, { seed: 2 ** 32 }), /seed:/u);
    assert.throws(() => roundInputs(attention, { seed: 1, level: 'medium' }), /level: must be one of easy, hard/u);
    assert.throws(() => roundExercise(attention, { round: 'step9', seed: 1 }), /round: must be one of step1/u);
  });
});

describe('a round\u2019s blanks', () => {
  it('walk row by row, the round\u2019s kinds in the order of the steps, leaving out what the mask zeroes', () => {
    const { trace, blanks } = roundExercise(attention, { round: 'softmax', seed: 3 });
    const order = ROUNDS.find((round) => round.name === 'softmax').kinds;
    for (let n = 1; n < blanks.length; n += 1) {
      const [a, b] = [blanks[n - 1], blanks[n]];
      assert.ok(a.index[0] < b.index[0] || (a.index[0] === b.index[0] && order.indexOf(a.kind) <= order.indexOf(b.kind)),
        `${a.kind}:${a.index} before ${b.kind}:${b.index}`);
    }
    const T = trace.token_count;
    const visible = (T * (T + 1)) / 2;
    assert.equal(blanks.filter((c) => c.kind === 'exponentials').length, visible);
    assert.equal(blanks.filter((c) => c.kind === 'weights').length, visible);
    assert.equal(blanks.filter((c) => c.kind === 'totals').length, T);
    assert.deepEqual(blanks.slice(0, 3).map((c) => c.kind), ['exponentials', 'totals', 'weights']);
    const masked = roundBlanks('step3', trace);
    assert.equal(masked.length, T * T, 'the mask round asks for the hidden cells too (their −∞ is the point)');
  });

  for (const round of ROUND_NAMES) {
    it(`are all judged right when typed as the tables print them, or as float64 works them (${round})`, () => {
      for (const level of LEVEL_NAMES) {
        for (const seed of SEEDS) {
          const { input, trace, blanks } = roundExercise(attention, { round, seed, level });
          assert.ok(blanks.length > 0);
          const f64 = float64Cells(input);
          for (const cell of blanks) {
            const { decimals, key } = practiceKind(cell.kind);
            const value = cellValue(cell, { trace });
            const printed = readAnswer(formatFixed(value, decimals));
            assert.equal(judgeAnswer(printed, value, decimals).verdict, 'right', `${cell.kind}:${cell.index} printed`);
            const exact = cell.index.reduce((table, i) => table[i], f64[key]);
            const byHand = readAnswer(exact === -Infinity ? '-inf' : exact.toFixed(decimals));
            const verdict = judgeAnswer(byHand, value, decimals);
            assert.equal(verdict.verdict, 'right', `${cell.kind}:${cell.index} worked in float64 as ${exact}: ${verdict.message}`);
          }
        }
      }
    });
  }
});
