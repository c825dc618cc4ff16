// Reading what a reader typed into a blank of pencil mode: text -> a number, or a refusal whose
// message says what is accepted. A typing variant (a comma decimal, a Unicode minus, spaces, a
// fraction) is read as the number it means; text that is not one number (an expression, a word,
// a figure with ambiguous separators) is refused, never judged: a refusal is not a wrong answer.
// Pure functions, no DOM and no core.

import { quoteTyped } from '../state/quote-text.js';

/** What the page accepts, said in every refusal so the reader knows what to type instead. */
export const ACCEPTED_FORMS = 'a number such as 0.25, \u22120.5 or 0,5; exponent form such as 1e-3; '
  + 'a fraction such as 1/2; or \u2212\u221e for a masked cell';

/** Answers longer than this are refused before any reading: no number on the page needs more. */
export const MAX_ANSWER_LENGTH = 64;

// Every sign a keyboard, a phone or a copied table may put where a minus is meant: hyphen-minus,
// U+2212 minus, hyphen, non-breaking hyphen, figure dash, en dash, em dash, small and fullwidth
// hyphen-minus, modifier minus.
const MINUS_FORMS = /[\u2212\u2010\u2011\u2012\u2013\u2014\ufe63\uff0d\u02d7]/gu;
const PLUS_FORMS = /[\uff0b\u207a]/gu;
// Fullwidth digits, as an East Asian keyboard types them.
const FULLWIDTH_DIGIT = /[\uff10-\uff19]/gu;
// Spaces of every width (a phone's no-break space, the page's own narrow no-break space).
const SPACE = /[\s\u00a0\u2007\u2009\u202f\u2060]/u;
const SPACES = /[\s\u00a0\u2007\u2009\u202f\u2060]+/gu;
const SUPERSCRIPTS = '\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079';

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/u;
const EXPONENT = /^([+-]?(?:\d+\.?\d*|\.\d+))e([+-]?\d+)$/iu;
// "1.5 × 10^-3", "1.5·10⁻³", as the sequel writes small figures.
const TIMES_TEN = /^([+-]?(?:\d+\.?\d*|\.\d+))[×x·*]10(?:\^([+-]?\d+)|([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))$/u;
const FRACTION = /^([+-]?(?:\d+\.?\d*|\.\d+))[/\u2044\u2215\u00f7]([+-]?(?:\d+\.?\d*|\.\d+))$/u;
const INFINITY = /^([+-]?)(?:\u221e|inf|infinity)$/iu;

/**
 * @typedef {object} ReadAnswer
 * @property {true} ok
 * @property {number} value       the number typed (±Infinity for "−∞" / "∞")
 * @property {'decimal'|'exponent'|'fraction'|'infinity'} form
 * @property {number | null} decimals  digits typed after the decimal mark for the decimal form
 *   ("0.60" -> 2, "3" -> 0); null for the forms that state a value exactly (exponent, fraction,
 *   infinity), which are judged as exact values
 *
 * @typedef {object} RefusedAnswer
 * @property {false} ok
 * @property {'empty'|'too-long'|'expression'|'ambiguous'|'division-by-zero'|'not-a-number'} reason
 * @property {string} message     one sentence: what is wrong, then what is accepted
 */

const refuse = (reason, problem) => ({ ok: false, reason, message: `${problem}. Accepted: ${ACCEPTED_FORMS}.` });

function superscriptNumber(text) {
  const sign = text.startsWith('\u207b') ? '-' : '';
  const digits = text.replace(/^[⁻⁺]/u, '');
  return Number(sign + [...digits].map((c) => SUPERSCRIPTS.indexOf(c)).join(''));
}

// A decimal number written with "." (a comma decimal already turned into one).
const decimalsOf = (text) => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0);

/**
 * Reads one typed answer.
 * @param {string} typed
 * @returns {ReadAnswer | RefusedAnswer}
 */
export function readAnswer(typed) {
  const original = String(typed ?? '');
  if (original.length > MAX_ANSWER_LENGTH) {
    return refuse('too-long', `The answer is ${original.length} characters long; no number here needs more than ${MAX_ANSWER_LENGTH}`);
  }
  const trimmed = original.trim();
  if (trimmed === '' || !/[^\s\u00a0\u2007\u2009\u202f\u2060]/u.test(trimmed)) {
    return refuse('empty', 'Nothing was typed');
  }
  let text = trimmed.replace(MINUS_FORMS, '-').replace(PLUS_FORMS, '+')
    .replace(FULLWIDTH_DIGIT, (c) => String(c.charCodeAt(0) - 0xff10));
  // Digits grouped in threes by spaces ("1 073 741 824", as the bill prints bytes) are one
  // number in every convention: a space is never a decimal mark. Any other space between digits
  // could be a separator or two numbers, so it is refused rather than guessed.
  if (new RegExp(`^[+-]?${SPACE.source}*\\d{1,3}(?:${SPACE.source}+\\d{3})+(?:[.,]\\d+)?$`, 'u').test(text)) {
    text = text.replace(SPACES, '');
  } else if (new RegExp(`\\d${SPACE.source}+[\\d.,]|[.,]${SPACE.source}+\\d`, 'u').test(text)) {
    return refuse('ambiguous', `${quoteTyped(trimmed)} has a space inside the number; type it without one`);
  }
  text = text.replace(SPACES, '');

  const infinity = INFINITY.exec(text);
  if (infinity) {
    return { ok: true, value: infinity[1] === '-' ? -Infinity : Infinity, form: 'infinity', decimals: null };
  }
  const commas = (text.match(/,/gu) ?? []).length;
  if (commas > 0 && text.includes('.')) {
    return refuse('ambiguous', `${quoteTyped(trimmed)} has both a comma and a point, so the comma reads as a thousands `
      + 'separator in one convention and as the decimal mark in another; type one decimal mark and no separators');
  }
  if (commas > 1) {
    return refuse('ambiguous', `${quoteTyped(trimmed)} has more than one comma; a comma is read as the decimal mark, `
      + 'and thousands separators are not accepted');
  }
  // One comma and no point: the decimal comma of most of Europe ("0,5"), unless it could as well
  // separate thousands: "1,234" is 1.234 to one reader and 1234 to another.
  if (/^[+-]?0*[1-9]\d{0,2},\d{3}$/u.test(text)) {
    const [whole, part] = text.replace(/^\+/u, '').replace(/^-/u, '\u2212').split(',');
    return refuse('ambiguous', `${quoteTyped(trimmed)} could be ${whole}.${part} (a decimal comma) or ${whole}${part} `
      + `(a thousands comma); type ${whole}.${part} or ${whole}${part}`);
  }
  text = text.replace(',', '.');

  if (DECIMAL.test(text)) return { ok: true, value: Number(text), form: 'decimal', decimals: decimalsOf(text) };
  const exponent = EXPONENT.exec(text);
  if (exponent) return exact('exponent', Number(`${exponent[1]}e${exponent[2]}`), trimmed);
  const timesTen = TIMES_TEN.exec(text);
  if (timesTen) {
    const power = timesTen[2] !== undefined ? Number(timesTen[2]) : superscriptNumber(timesTen[3]);
    return exact('exponent', Number(`${timesTen[1]}e${power}`), trimmed);
  }
  const fraction = FRACTION.exec(text);
  if (fraction) {
    const denominator = Number(fraction[2]);
    if (denominator === 0) {
      return refuse('division-by-zero', `${quoteTyped(trimmed)} divides by zero, which has no value`);
    }
    return exact('fraction', Number(fraction[1]) / denominator, trimmed);
  }
  if (/\d/u.test(text) && /[-+*×·^()/÷\u2044\u2215]/u.test(text.replace(/^[+-]/u, ''))) {
    return refuse('expression', `${quoteTyped(trimmed)} is a calculation, not a number; work it out and type the value it comes to`);
  }
  return refuse('not-a-number', `${quoteTyped(trimmed)} is not a number`);
}

// An exponent form or a fraction whose value overflows is no number a table holds.
function exact(form, value, trimmed) {
  if (!Number.isFinite(value)) return refuse('not-a-number', `${quoteTyped(trimmed)} is too large to be a number here`);
  return { ok: true, value, form, decimals: null };
}
