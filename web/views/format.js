// Display formatting for the walkthrough: how a number the core computed is written on the
// page. Nothing here computes attention; every function turns an already computed value into
// text (or, for shading, into a display level), so the tables read like the article's.

/** The real minus sign, U+2212: a hyphen is too short to line up in tabular figures. */
export const MINUS = '\u2212';
/** Negative infinity as the page writes it: what a masked score is. */
export const NEG_INFINITY = `${MINUS}\u221e`;
/** A narrow no-break space between a number and its % sign, so the two never wrap apart. */
const PERCENT_SPACE = '\u202f';

/** Decimals as the article prints them, for the walkthrough's page and its elements alike. */
export const DECIMALS = Object.freeze({
  matrix: 3,        // Q, K, V, scores, scaled, masked
  factor: 3,        // the factors of a worked dot product
  product: 2,       // its products
  workedScore: 2,   // and its sum
  softmax: 4,       // exponentials, totals, weights, weighted values, out
  vector: 3,        // vectors quoted in a sentence
  split: 3,         // the shares quoted for the longer sentence
});

function checkDecimals(decimals) {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
    throw new RangeError(`decimals must be an integer from 0 to 20, got ${decimals}`);
  }
}

/**
 * `value` with exactly `decimals` decimals, a U+2212 minus for negatives and "−∞" / "∞" for
 * infinities. A value that rounds to zero is written without a sign ("0.000", never
 * "−0.000"): a reader would take the sign for information.
 * @param {number} value
 * @param {number} decimals
 * @returns {string}
 */
export function formatFixed(value, decimals) {
  checkDecimals(decimals);
  if (typeof value !== 'number' || Number.isNaN(value)) return 'NaN';
  if (value === -Infinity) return NEG_INFINITY;
  if (value === Infinity) return '\u221e';
  // The core computes in float32: past the digits a float holds, zeros would be false precision.
  const text = float32Rounds(value, decimals) ? plainText(Math.abs(shortestFloat32(Math.fround(value))))
    : Math.abs(value).toFixed(decimals);
  const roundsToZero = /^[0.]*$/.test(text);
  return value < 0 && !roundsToZero ? `${MINUS}${text}` : text;
}

/**
 * formatFixed with its decimals bound: a table column's format. Its `sameTextFor` names what
 * the text depends on besides the value ("fixed 3"), so that a table patched in place
 * (live-table.js) need not write out again a number it wrote before with the same format.
 */
export const fixed = (decimals) => Object.assign((value) => formatFixed(value, decimals), { sameTextFor: `fixed ${decimals}` });

/**
 * The shortest decimal that is the same 32-bit float as `value` (0.3 for 0.300000012): what a
 * float32 holds, written with no digit it does not hold. Non-finite values are returned as they are.
 * @param {number} value
 * @returns {number}
 */
export function shortestFloat32(value) {
  if (!Number.isFinite(value)) return value;
  const single = Math.fround(value);
  for (let digits = 1; digits < 17; digits += 1) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return value;
}

/**
 * Whether `decimals` decimals would claim more than a float32 holds at `value`: its neighbouring
 * floats are further apart than one unit of the last decimal (from 2^24 = 16777216 on, even
 * whole numbers are rounded).
 * @param {number} value
 * @param {number} decimals
 */
export function float32Rounds(value, decimals) {
  if (!Number.isFinite(value) || value === 0) return false;
  const magnitude = Math.abs(Math.fround(value));
  const exponent = Math.floor(Math.log2(magnitude));
  // The spacing of float32s in [2^e, 2^(e+1)) is 2^(e-23).
  return 2 ** (exponent - 23) > 10 ** -decimals;
}

// A positive number in positional notation ("197530860", never "1.9753086e+8").
function plainText(magnitude) {
  return magnitude < 1e21 ? magnitude.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
    : magnitude.toExponential();
}

/**
 * A number written as briefly as it reads: at most `maxDecimals` decimals, trailing zeros
 * dropped ("2", "2.236"). For quantities such as √d_k that are named rather than tabulated.
 * @param {number} value
 * @param {number} [maxDecimals=3]
 * @returns {string}
 */
export function formatCompact(value, maxDecimals = 3) {
  const fixed = formatFixed(value, maxDecimals);
  if (!fixed.includes('.')) return fixed;
  return fixed.replace(/\.?0+$/, '');
}

/** Between a figure and its standard error: narrow no-break spaces, so the two never wrap apart. */
const PLUS_MINUS = '\u202f\u00b1\u202f';

/**
 * A figure averaged over random samples, with its standard error, written to the digits that
 * error leaves meaningful, by the Particle Data Group's rule: the error's three leading digits
 * from 100 to 354 keep two significant digits, from 355 to 949 one, from 950 up round to 1000
 * and keep two; the figure is rounded to the same decimal place, and at most `maxDecimals`.
 * (5.6234, 0.0731) -> "5.62 ± 0.07"; (11.3137, 0.0146) -> "11.314 ± 0.015"; (5.66, 0.0996) ->
 * "5.66 ± 0.10"; an error below the last decimal kept -> "0.9990 ± <0.0001". Without a standard
 * error (NaN, as over one sample, or 0) the figure alone, to `decimalsWithoutError` decimals.
 * @param {number} value
 * @param {number} standardError
 * @param {{maxDecimals?: number, decimalsWithoutError?: number}} [options]
 * @returns {string}
 */
export function formatEstimate(value, standardError, { maxDecimals = 4, decimalsWithoutError = 3 } = {}) {
  checkDecimals(maxDecimals);
  if (!Number.isFinite(value) || !Number.isFinite(standardError) || !(standardError > 0)) {
    return formatFixed(value, decimalsWithoutError);
  }
  const magnitude = Math.floor(Math.log10(standardError));
  const leadingThree = Math.round(standardError / 10 ** (magnitude - 2));
  const decimals = Math.min(maxDecimals, Math.max(0, (leadingThree <= 354 ? 1 : 0) - magnitude));
  const error = formatFixed(standardError, decimals);
  const unit = formatFixed(10 ** -decimals, decimals);
  return `${formatFixed(value, decimals)}${PLUS_MINUS}${/^[0.]*$/.test(error) ? `<${unit}` : error}`;
}

/**
 * A count and its noun, as captions and notes write them: "1 token", "2 tokens", "1 head".
 * `text` writes the number (String by default; the sequel passes its grouped formatCount).
 * @param {number} count
 * @param {string} one
 * @param {string} many
 * @param {(count: number) => string} [text]
 */
export function counted(count, one, many, text = String) {
  return `${text(count)} ${count === 1 ? one : many}`;
}

/**
 * A share (0.7201) written as a percentage ("72 %"), with a narrow no-break space.
 * @param {number} fraction
 * @param {number} [decimals=0]
 * @returns {string}
 */
export function formatPercent(fraction, decimals = 0) {
  return `${formatFixed(fraction * 100, decimals)}${PERCENT_SPACE}%`;
}

/**
 * A vector as a bracketed list: "[0.724, −0.328, −0.116, −0.124]".
 * @param {number[]} values
 * @param {number} decimals
 * @returns {string}
 */
export function formatVector(values, decimals) {
  return `[${Array.from(values, (value) => formatFixed(value, decimals)).join(', ')}]`;
}

/**
 * One product of a dot product as the working writes it: "(−0.800 × −0.700)".
 * @param {number} left
 * @param {number} right
 * @param {number} decimals
 * @returns {string}
 */
export function formatProduct(left, right, decimals) {
  return `(${formatFixed(left, decimals)} \u00d7 ${formatFixed(right, decimals)})`;
}

/**
 * Terms of a sum the way one writes them by hand: the first with its own sign, every later
 * one joined by " + " or " − " and written without a sign ("1.76 + 0.56 − 0.08 − 0.15").
 * Only signs move; no term is changed and nothing is added up here.
 * @param {number[]} terms
 * @param {number} decimals
 * @returns {string}
 */
export function formatSignedTerms(terms, decimals) {
  return Array.from(terms, (term, index) => {
    const text = formatFixed(term, decimals);
    if (index === 0) return text;
    return text.startsWith(MINUS) ? `${MINUS} ${text.slice(MINUS.length)}` : `+ ${text}`;
  }).join(' ');
}

/**
 * Which band of the shading ramp a weight falls in, for a legend of `levels` equal bands over
 * [0, 1]: 0 for the lightest band, levels − 1 for the darkest. A weight of exactly 1 belongs
 * to the darkest band; anything outside [0, 1] is clamped.
 * @param {number} weight
 * @param {number} levels
 * @returns {number}
 */
export function shadeLevel(weight, levels) {
  if (!Number.isInteger(levels) || levels < 1) {
    throw new RangeError(`levels must be a positive integer, got ${levels}`);
  }
  if (!(weight > 0)) return 0;
  return Math.min(levels - 1, Math.floor(weight * levels));
}

/**
 * The bands of a shading legend with `levels` equal bands: [{level, from, to}], written with
 * `decimals` decimals ("0.00", "0.20").
 * @param {number} levels
 * @param {number} [decimals=1]
 * @returns {{level: number, from: string, to: string}[]}
 */
export function shadeBands(levels, decimals = 1) {
  if (!Number.isInteger(levels) || levels < 1) {
    throw new RangeError(`levels must be a positive integer, got ${levels}`);
  }
  return Array.from({ length: levels }, (_, level) => ({
    level,
    from: formatFixed(level / levels, decimals),
    to: formatFixed((level + 1) / levels, decimals),
  }));
}
