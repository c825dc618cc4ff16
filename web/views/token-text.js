// A token inside a sentence the views write: a caption ("softmax of the cat row"), a cell's
// working ("weight of the on cat × v0 of cat = 0.731"), an arrow's title, a blank's label.
//
// Tokens are the reader's own text, in any script, and may carry the invisible formatting
// characters too. Set into a sentence as they are, a right-to-left word or an override that
// the token opens and never closes (U+202E) reorders what follows it on the line: the numbers
// of a working would read backwards ("137.0 = tac fo 0v"), and a shared link could show a
// reader such a line. So a token that holds right-to-left letters or directional formatting is
// set between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: shown in its own
// direction, with no effect on the text around it (the isolate's end also closes whatever the
// token left open). A token of left-to-right text is left as it is, so the sentences, the copied
// tables and the tests that read them stay plain text.
//
// Table headers hold a token alone in their cell and are isolated by the stylesheets
// (unicode-bidi: isolate); this is for tokens inside running text.

// Right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and their
// presentation forms; the historic right-to-left blocks of the supplementary planes) and the
// directional formatting characters: the Arabic letter mark, the left-to-right and
// right-to-left marks, embeddings, overrides and isolates.
const NEEDS_ISOLATION =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * `token` as it is set inside a sentence: between directional isolates when it could reorder
 * the text around it, as it is otherwise.
 * @param {string} token
 * @returns {string}
 */
export function tokenText(token) {
  const text = String(token);
  return NEEDS_ISOLATION.test(text) ? `${FIRST_STRONG_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}` : text;
}

/**
 * `token` in curly quotes as a sentence names it ("weight of “cat” on “the”"), set as tokenText
 * sets it.
 * @param {string} token
 * @returns {string}
 */
export function quotedToken(token) {
  return `\u201c${tokenText(token)}\u201d`;
}

/**
 * The tokens of a trace as views set them into sentences (see tokenText).
 * @param {string[]} tokens
 * @returns {string[]}
 */
export function tokenTexts(tokens) {
  return tokens.map(tokenText);
}
