// How the sequel's pieces write the core's figures: byte counts and parameter counts as exact
// whole numbers with their digits grouped, with the binary unit a reader thinks in beside them,
// and error figures to a few significant digits. Like format.js, nothing here computes a
// result: each function only decides how an already computed number is written (a unit is a
// change of scale, as a percentage is).

import { MINUS, formatFixed } from './format.js';

/** A narrow no-break space between digit groups and before a unit: nothing wraps inside a figure. */
export const GROUP_SPACE = '\u202f';

/**
 * A whole number with its digits in groups of three: "1 073 741 824". Non-integers keep up to
 * `maxDecimals` decimals (a weight dtype of 0.5 bytes).
 * @param {number} value
 * @param {number} [maxDecimals=2]
 * @returns {string}
 */
export function formatCount(value, maxDecimals = 2) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return formatFixed(value, 0);
  const negative = value < 0;
  const [whole, fraction] = Math.abs(value).toFixed(Number.isInteger(value) ? 0 : maxDecimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/gu, GROUP_SPACE);
  const trimmed = fraction?.replace(/0+$/u, '');
  return `${negative ? MINUS : ''}${grouped}${trimmed ? `.${trimmed}` : ''}`;
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/**
 * A byte count in the largest binary unit that keeps it at 1 or more, to three significant
 * digits: "1.00 GiB", "64 bytes". The exact count is written by formatCount; this is the
 * reader's scale beside it.
 * @param {number} bytes
 * @returns {string}
 */
export function formatBinaryUnit(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return '';
  let unit = 0;
  let scaled = bytes;
  while (scaled >= 1024 && unit < UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${formatCount(bytes)}${GROUP_SPACE}${bytes === 1 ? 'byte' : 'bytes'}`;
  const digits = scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;
  return `${scaled.toFixed(digits)}${GROUP_SPACE}${UNITS[unit]}`;
}

const COUNT_SCALES = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']];

/**
 * A count short enough for a plot's tick: "10M", "1K", "2.5K", "950", to at most three
 * significant digits. Only a label beside a place on an axis; the exact count is written by
 * formatCount (in the table behind the plot).
 * @param {number} value
 * @returns {string}
 */
export function formatCompactCount(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  const magnitude = Math.abs(value);
  const [scale, suffix] = COUNT_SCALES.find(([size]) => magnitude >= size) ?? [1, ''];
  // Rounding can carry a figure into the next scale (999 950 -> "1000K"): then written in it.
  const shown = Number((magnitude / scale).toPrecision(3));
  if (shown >= 1000 && scale < 1e12) return formatCompactCount(Math.sign(value) * 1000 * scale);
  return `${value < 0 ? MINUS : ''}${scale === 1 ? formatCount(shown) : shown}${suffix}`;
}

const SUPERSCRIPT = { '-': '\u207b', 0: '\u2070', 1: '\u00b9', 2: '\u00b2', 3: '\u00b3', 4: '\u2074', 5: '\u2075', 6: '\u2076', 7: '\u2077', 8: '\u2078', 9: '\u2079' };

/**
 * A small or large figure to `digits` significant digits: "0.000510", "0.0433", and, below
 * 0.0001, "5.96 × 10⁻⁸". Zero is "0".
 * @param {number} value
 * @param {number} [digits=3]
 * @returns {string}
 */
export function formatSignificant(value, digits = 3) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return formatFixed(value, 0);
  if (value === 0) return '0';
  const sign = value < 0 ? MINUS : '';
  const magnitude = Math.abs(value);
  const plain = magnitude.toPrecision(digits);
  if (magnitude >= 1e-4 && !plain.includes('e')) return `${sign}${plain}`;
  const [mantissa, exponent] = magnitude.toExponential(digits - 1).split('e');
  const power = String(Number(exponent)).split('').map((ch) => SUPERSCRIPT[ch]).join('');
  return `${sign}${mantissa} \u00d7 10${power}`;
}
