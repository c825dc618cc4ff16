// How the pages write a figure averaged over random samples with its standard error, written out
// again from the rule (web/views/format.js, formatEstimate; the Particle Data Group's), by other
// means, for the suites to compare the pages' text with: the error's three leading digits, read
// off its exponential notation, 100 to 354 keep two significant digits, 355 to 999 one (and 950
// to 999 then round up to a 1 with a zero); the figure is written to the same decimal place;
// at most 4 decimals; without an error, 3 decimals.

const MINUS = '\u2212';
const PLUS_MINUS = '\u202f\u00b1\u202f';

/** `value` to `decimals` decimals, a real minus sign, no sign on a zero. */
export function writtenFixed(value, decimals) {
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
}

/** The decimals a standard error leaves meaningful. */
export function estimateDecimals(standardError) {
  const [mantissa, exponent] = standardError.toExponential(2).split('e');
  const leadingThree = Number(mantissa.replace('.', ''));
  const decimals = (leadingThree <= 354 ? 1 : 0) - Number(exponent);
  return Math.min(4, Math.max(0, decimals));
}

/** "5.62 ± 0.07" for (5.6234, 0.0731); the figure alone, to 3 decimals, without an error. */
export function estimateText(value, standardError) {
  if (!(standardError > 0) || !Number.isFinite(standardError)) return writtenFixed(value, 3);
  const decimals = estimateDecimals(standardError);
  const error = writtenFixed(standardError, decimals);
  const shownError = Number(error) === 0 ? `<${writtenFixed(10 ** -decimals, decimals)}` : error;
  return `${writtenFixed(value, decimals)}${PLUS_MINUS}${shownError}`;
}

/** The figure of a text estimateText wrote: its leading number. */
export const estimateValue = (text) => Number(text.split('\u202f')[0].replace(MINUS, '-'));
