// How a message quotes text that a reader or an author wrote ("tokens: \"cta\" is not …"):
// cut after a number of characters, and with every character that would not show as itself
// written as an escape. The messages of the pages, the elements, the hash readers and the API
// all quote through here, so a refusal reads the same wherever it is said.
//
// Why not JSON.stringify alone: it cuts nothing, and it escapes the control characters but leaves
// the invisible formatting ones as they are. A right-to-left override (U+202E) pasted into a token
// would then turn the rest of the message around, and a zero-width space would make two
// different texts look the same. And a cut by String.slice can split an emoji into half a
// surrogate pair, which prints as a replacement character.

// Invisible formatting characters (Unicode's Cf and the like): the soft hyphen, the Arabic
// letter mark, the Mongolian vowel separator, zero-width spaces and joiners, the left-to-right
// and right-to-left marks, embeddings, overrides and isolates, the word joiner and invisible
// operators, the byte-order mark and the interlinear annotation characters.
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/gu;
// What JSON.stringify escapes itself, for the quotes that do not go through it.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/gu;

const escape = (character) => `\\u${character.codePointAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` cut after `limit` characters (code points, so an emoji stays whole), with "…" where it
 * was cut.
 * @param {string} text
 * @param {number} limit
 * @returns {string}
 */
export function excerpt(text, limit) {
  const whole = String(text);
  // Two code units at most a character: a long text is not split into characters in full.
  const characters = Array.from(whole.slice(0, 2 * limit + 2));
  return characters.length > limit ? `${characters.slice(0, limit).join('')}\u2026` : whole;
}

/**
 * `text` in straight double quotes, as messages quote an attribute, a hash value or an argument:
 * JSON's escapes ("\n", "\"", "\u0001"), the invisible formatting characters as \u escapes too,
 * and cut after `limit` characters.
 * @param {string} text
 * @param {number} [limit]
 * @returns {string}
 */
export function quoteText(text, limit = 24) {
  return JSON.stringify(excerpt(text, limit)).replace(INVISIBLE, escape);
}

/**
 * `text` in curly quotes, as messages quote what a reader typed into a cell or a field: trimmed,
 * cut after `limit` characters, control and invisible characters as \u escapes.
 * @param {string} text
 * @param {number} [limit]
 * @returns {string}
 */
export function quoteTyped(text, limit = 24) {
  const shown = excerpt(String(text).trim(), limit).replace(CONTROL, escape).replace(INVISIBLE, escape);
  return `\u201c${shown}\u201d`;
}
