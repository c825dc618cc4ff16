// Judging a reader's answer in pencil mode against the core's value of the cell, at the
// precision the table prints it. The core's value decides; this module only compares two
// numbers already there (the typed one and the computed one) and words the verdict.
//
// The rule (docs/practice.md states it for readers), with v the core's value, d the decimals
// the table prints, a the typed answer, n the decimals typed (null for a fraction or exponent
// form, which state a value exactly) and slack = |v| · 2^-20:
//
//   right    |a − v| ≤ ½ · 10^-d + slack: a agrees with v at the printed precision or better
//            ("3" for 3.0000 is right; so is a more precise "0.59536" for 0.595).
//   rounded  not right, and either n < d and |a − v| ≤ ½ · 10^-n + slack (v rounded to the
//            nearest with fewer decimals than the table prints: the verdict says how many it
//            prints), or n = d and |a − v| < 10^-d − slack (the other grid neighbour of v: the
//            digits cut off, "truncated", or v rounded away from zero; a value on the grid has no
//            other neighbour, so a whole unit from it is off).
//   off      anything else; the verdict gives a − v at the printed precision, too high or too low.
//
// The slack lets an answer worked exactly by hand count as right when the core's float32 value
// lies a few units in the last place on the other side of a rounding boundary (x.xx5): the table
// prints the float's rounding, and the hand-worked rounding of the exact value is as right. It
// is about eight float32 spacings of v. It passes half a printed unit only where |v| > 2^19 ·
// 10^-d (524 at 3 decimals, 52 at 4), where the core's float32 arithmetic is itself uncertain by
// about that much. A figure the core computes exactly (the bill's whole bytes, in doubles exact
// to 2^53) is judged with no slack: pass { exact: true }.
//
// A masked score is −∞ exactly: only −∞ is right. 0 there is off with the FAQ's point (the mask
// writes −∞, not 0, so that e^x is 0 and the hidden word gets no weight).

import { counted, formatFixed } from '../views/format.js';

const SLACK = 2 ** -20;

/**
 * @typedef {object} Verdict
 * @property {'right'|'rounded'|'off'} verdict
 * @property {string} expected          the core's value as the table prints it
 * @property {number} difference        a − v (±Infinity when one of them is infinite)
 * @property {'high'|'low'|null} direction   for "off": too high or too low
 * @property {'fewer-decimals'|'truncated'|'away-from-zero'|null} rounding   for "rounded"
 * @property {'mask-is-minus-infinity'|'cell-is-masked'|'value-is-finite'|null} note
 * @property {string} message           one sentence for the reader (and a screen reader)
 */

function verdictOf(fields) {
  return { difference: 0, direction: null, rounding: null, note: null, ...fields };
}

/**
 * @param {{value: number, decimals: number | null}} answer  readAnswer's accepted result
 * @param {number} value     the core's value of the cell
 * @param {number} decimals  the decimals the table prints it with (DECIMALS in format.js)
 * @param {{exact?: boolean}} [options]  exact: the value is exact, not a float32 result (no slack)
 * @returns {Verdict}
 */
export function judgeAnswer(answer, value, decimals, { exact = false } = {}) {
  if (typeof value !== 'number' || Number.isNaN(value)) throw new RangeError(`the cell's value must be a number, got ${value}`);
  const expected = formatFixed(value, decimals);  // also checks decimals
  const typed = answer?.value;
  if (typeof typed !== 'number' || Number.isNaN(typed)) {
    throw new RangeError('judgeAnswer takes an answer readAnswer accepted ({ value, decimals })');
  }
  const typedDecimals = answer.decimals ?? null;
  if (!Number.isFinite(value) || !Number.isFinite(typed)) return judgeInfinite(typed, value, expected);

  const difference = typed - value;
  const distance = Math.abs(difference);
  const slack = exact ? 0 : Math.abs(value) * SLACK;
  if (distance <= 0.5 * 10 ** -decimals + slack) {
    return verdictOf({ verdict: 'right', expected, difference, message: `Right: ${expected}.` });
  }
  const fewer = typedDecimals !== null && typedDecimals < decimals && distance <= 0.5 * 10 ** -typedDecimals + slack;
  const neighbour = typedDecimals === decimals && distance < 10 ** -decimals - slack;
  if (fewer || neighbour) {
    const rounding = fewer ? 'fewer-decimals' : Math.abs(typed) < Math.abs(value) ? 'truncated' : 'away-from-zero';
    const how = {
      'fewer-decimals': `you gave ${counted(typedDecimals, 'decimal', 'decimals')} and the table prints ${decimals}`,
      truncated: 'the digits were cut off (truncated) where the table rounds to the nearest',
      'away-from-zero': 'it was rounded away from zero where the table rounds to the nearest',
    }[rounding];
    return verdictOf({
      verdict: 'rounded', expected, difference, rounding,
      message: `Right, but rounded differently: ${how}; the table has ${expected}.`,
    });
  }
  const direction = difference > 0 ? 'high' : 'low';
  return verdictOf({
    verdict: 'off', expected, difference, direction,
    message: `Off: too ${direction} by ${formatFixed(distance, decimals)}.`,
  });
}

function judgeInfinite(typed, value, expected) {
  const difference = typed - value;
  if (typed === value) return verdictOf({ verdict: 'right', expected, message: `Right: ${expected}.` });
  if (value === -Infinity) {
    const direction = 'high';
    if (typed === 0) {
      return verdictOf({
        verdict: 'off', expected, difference, direction, note: 'mask-is-minus-infinity',
        message: `Off: the mask writes ${expected}, not 0, so that e^x is 0 and the hidden word gets no weight; `
          + 'a 0 would give e^0 = 1 and leak weight onto it.',
      });
    }
    return verdictOf({
      verdict: 'off', expected, difference, direction, note: 'cell-is-masked',
      message: `Off: this cell is masked, so its score is ${expected}.`,
    });
  }
  if (!Number.isFinite(value)) {
    return verdictOf({
      verdict: 'off', expected, difference, direction: difference > 0 ? 'high' : 'low', note: null,
      message: `Off: the value is ${expected}.`,
    });
  }
  return verdictOf({
    verdict: 'off', expected, difference, direction: typed > value ? 'high' : 'low', note: 'value-is-finite',
    message: `Off: this cell holds a number, not ${typed > 0 ? '\u221e' : '\u2212\u221e'}; nothing hides it.`,
  });
}
